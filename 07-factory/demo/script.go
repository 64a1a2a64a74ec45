// Not a mirror of client-go: the demo's steps, running our
// SharedInformerFactory (informers/factory.go's) and dynamic factory
// (dynamic/dynamicinformer/informer.go's) on the playground.

package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes"

	informer "informer-from-scratch/06-sharedinformer"
	factory "informer-from-scratch/07-factory"
	appsv1informers "informer-from-scratch/07-factory/apps/v1"
	corev1informers "informer-from-scratch/07-factory/core/v1"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

// script holds what the steps share.
type script struct {
	env *demo.Env
	tl  *timeline.Timeline
	// playground: the demo writes only there. On a real cluster it reads,
	// whatever the harness's flags say.
	playground bool
	ns         string // "stage07" on the playground, "" (every namespace) elsewhere
	counts     *requestCounts
	client     kubernetes.Interface // the timeline's clientset: requests printed and counted

	factory factory.SharedInformerFactory
	cancel  context.CancelFunc
	stopped sync.Once
}

func newScript(env *demo.Env) (*script, error) {
	s := &script{env: env, tl: env.Timeline, playground: env.OnPlayground(), counts: newRequestCounts()}
	var err error
	s.client, err = env.TimelineClient(s.counts.add)
	return s, err
}

// setScene creates, on the playground only, a namespace with three pods,
// three deployments and a config map, labelled app and tier.
func (s *script) setScene() error {
	if !s.playground {
		s.tl.Step(sayReadOnlyTitle, sayReadOnlyWhy)
		return nil
	}
	s.tl.Step(saySceneTitle, saySceneWhy)
	s.ns = "stage07"
	ctx, client := s.env.Ctx, s.env.Client // the harness's client: not counted
	if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: s.ns}}, metav1.CreateOptions{}); err != nil {
		return err
	}
	for _, p := range []struct{ name, app, tier string }{{"web-1", "web", "front"}, {"web-2", "web", "front"}, {"db-1", "db", "back"}} {
		if _, err := client.CoreV1().Pods(s.ns).Create(ctx, demo.Pod(s.ns, p.name, map[string]string{"app": p.app, "tier": p.tier}), metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	for _, d := range []struct{ name, app, tier string }{{"web", "web", "front"}, {"api", "web", "back"}, {"db", "db", "back"}} {
		if _, err := client.AppsV1().Deployments(s.ns).Create(ctx, demo.Deployment(s.ns, d.name, map[string]string{"app": d.app, "tier": d.tier}), metav1.CreateOptions{}); err != nil {
			return err
		}
	}
	if _, err := client.CoreV1().ConfigMaps(s.ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: s.ns, Name: "dashboard-settings"}}, metav1.CreateOptions{}); err != nil {
		return err
	}
	s.tl.Note(sayScene, s.ns)
	return nil
}

// part is one part of the program and the informers it asked for.
type part struct {
	name  string
	kinds []string
	adds  atomic.Int64
	regs  []informer.ResourceEventHandlerRegistration
}

// sharedFactory: two parts ask one factory for what they need.
func (s *script) sharedFactory() error {
	s.tl.Step(sayFactoryTitle, sayFactoryWhy)
	s.counts.reset()
	// On the playground the program watches its own namespace; elsewhere,
	// every namespace (s.ns is "").
	s.factory = factory.NewSharedInformerFactoryWithOptions(s.client, 0, factory.WithNamespace(s.ns))
	parts := []*part{{name: "autoscaler", kinds: []string{"pods", "deployments"}}, {name: "dashboard", kinds: []string{"pods", "configmaps"}}}
	seen := map[string]informer.Store{}
	for _, p := range parts {
		for _, kind := range p.kinds {
			inf := s.informerOf(kind)
			what := sayBuilt
			if seen[kind] == inf.GetStore() {
				what = saySameInformer
			}
			seen[kind] = inf.GetStore()
			s.tl.Event("factory", "asks", p.name+": "+kind, "", what)
			if kind == "pods" {
				reg, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{AddFunc: func(any) { p.adds.Add(1) }})
				if err != nil {
					return err
				}
				p.regs = append(p.regs, reg)
			}
		}
	}

	ctx, cancel := context.WithCancel(s.env.Ctx)
	s.cancel = cancel
	s.tl.EventAbout(nil, "factory", "Start", sayInformers.Format(3), "", sayStartReturns)
	s.factory.StartWithContext(ctx)
	res, err := s.waitForCacheSync(s.factory)
	if err != nil {
		return err
	}
	for _, t := range []string{"*v1.ConfigMap", "*v1.Deployment", "*v1.Pod"} {
		for typ, synced := range res.Synced {
			if typ.String() == t {
				s.tl.Event("synced", "cache", t, fmt.Sprintf("WaitForCacheSync: %v", synced))
			}
		}
	}
	for _, p := range parts {
		for _, reg := range p.regs {
			if !s.waitFor(p.name+"'s handler", reg.HasSyncedChecker()) {
				return fmt.Errorf("%s's handler did not sync within 30s", p.name)
			}
		}
		s.tl.Note(sayReplayed, p.name, lang.Count(int(p.adds.Load()), sayPod, sayPods))
	}
	s.counts.print(s.tl, sayServed)
	s.tl.Note(sayOneWatch)
	return nil
}

// informerOf asks the factory for kind's informer through its accessor.
func (s *script) informerOf(kind string) informer.SharedIndexInformer {
	switch kind {
	case "pods":
		return s.factory.Core().V1().Pods().Informer()
	case "deployments":
		return s.factory.Apps().V1().Deployments().Informer()
	case "configmaps":
		return s.factory.Core().V1().ConfigMaps().Informer()
	default:
		return s.factory.Core().V1().Services().Informer()
	}
}

// withoutFactory builds the same program's informers one by one, with the
// generated constructors of unshared informers, and counts again.
func (s *script) withoutFactory() error {
	s.tl.Step(sayNoFactoryTitle, sayNoFactoryWhy)
	s.counts.reset()
	indexers := informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc}
	own := []informer.SharedIndexInformer{
		corev1informers.NewPodInformer(s.client, s.ns, 0, indexers),        // the autoscaler's pods
		appsv1informers.NewDeploymentInformer(s.client, s.ns, 0, indexers), // the autoscaler's deployments
		corev1informers.NewPodInformer(s.client, s.ns, 0, indexers),        // the dashboard's pods
		corev1informers.NewConfigMapInformer(s.client, s.ns, 0, indexers),  // the dashboard's config maps
	}
	ctx, cancel := context.WithCancel(s.env.Ctx)
	var wg sync.WaitGroup
	for _, inf := range own {
		wg.Go(func() { inf.RunWithContext(ctx) })
	}
	checkers := make([]informer.DoneChecker, 0, len(own))
	for _, inf := range own {
		checkers = append(checkers, inf.HasSyncedChecker())
	}
	synced := s.waitFor("the unshared informers", checkers...)
	cancel()
	wg.Wait()
	if !synced {
		return fmt.Errorf("the unshared informers did not sync within 30s")
	}
	s.counts.print(s.tl, sayServedPlain)
	s.tl.Note(sayTwice)
	return nil
}

// listerFromCache asks the Deployments lister a label query.
func (s *script) listerFromCache() error {
	s.tl.Step(sayListerTitle, sayListerWhy)
	selector, err := labels.Parse("app=web,tier in (front,back)")
	if err != nil {
		return err
	}
	lister := s.factory.Apps().V1().Deployments().Lister()
	before := s.counts.total()
	var deployments []*appsv1.Deployment
	if s.ns != "" {
		deployments, err = lister.Deployments(s.ns).List(selector)
	} else {
		deployments, err = lister.List(selector)
	}
	if err != nil {
		return err
	}
	// The cache's order is a map's: sort for a timeline that reads the same
	// every run.
	slices.SortFunc(deployments, func(a, b *appsv1.Deployment) int {
		return strings.Compare(a.Namespace+"/"+a.Name, b.Namespace+"/"+b.Name)
	})
	for i, d := range deployments {
		if i == 5 {
			s.tl.Note(sayAndMore, len(deployments)-5)
			break
		}
		s.tl.Event("lister", "List", d.Namespace+"/"+d.Name, fmt.Sprintf("rv=%s app=%s tier=%s", d.ResourceVersion, d.Labels["app"], d.Labels["tier"]))
	}
	s.tl.Note(sayListed, s.ns, selector.String(), lang.Count(len(deployments), sayDeployment, sayDeployments))
	if s.ns != "" {
		_, err := lister.Deployments(s.ns).Get("frontend")
		s.tl.Event("lister", "Get", s.ns+"/frontend", fmt.Sprintf("error: %v", err), sayCacheAnswer)
	}
	s.tl.Note(saySentAnswering, lang.Count(s.counts.total()-before, sayRequest, sayRequests))
	return nil
}

// waitForCacheSync waits up to 30s for a factory's informers.
func (s *script) waitForCacheSync(f factory.SharedInformerFactory) (factory.SyncResult, error) {
	ctx, cancel := context.WithTimeout(s.env.Ctx, 30*time.Second)
	defer cancel()
	res := f.WaitForCacheSyncWithContext(ctx)
	return res, res.AsError()
}

// waitFor waits up to 30s for checkers.
func (s *script) waitFor(what string, checkers ...informer.DoneChecker) bool {
	ctx, cancel := context.WithTimeout(s.env.Ctx, 30*time.Second)
	defer cancel()
	return informer.WaitFor(ctx, what, checkers...)
}

// shutdown cancels the factory's context and shuts it down, then shows
// that a Start after Shutdown does nothing.
func (s *script) shutdown() error {
	s.tl.Step(sayShutdownTitle, sayShutdownWhy)
	s.stop()
	for _, kind := range []string{"pods", "deployments", "configmaps"} {
		s.tl.Event("factory", "stopped", kind, fmt.Sprintf("IsStopped()=%v", s.informerOf(kind).IsStopped()))
	}
	before := s.counts.total()
	services := s.informerOf("services")
	s.factory.StartWithContext(s.env.Ctx)
	s.tl.Event("factory", "Start", "services", fmt.Sprintf("HasSynced()=%v", services.HasSynced()),
		sayNotStarted.Format(lang.Count(s.counts.total()-before, sayRequest, sayRequests)))
	return nil
}

// stop cancels the factory's informers and waits for them, once.
func (s *script) stop() {
	s.stopped.Do(func() {
		if s.cancel == nil {
			return
		}
		s.cancel()
		s.factory.Shutdown()
	})
}
