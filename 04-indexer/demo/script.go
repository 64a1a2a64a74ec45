// Not a mirror of client-go: the demo's steps. They use our Indexer and
// listers the way a controller uses an informer's (tools/cache/listers.go,
// listers/generic_helpers.go), filled by stage 02's Reflector.

package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	reflector "informer-from-scratch/02-reflector"
	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
	"informer-from-scratch/04-indexer/listers"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/lang"
)

// script holds what the steps share.
type script struct {
	env      *demo.Env
	requests atomic.Int64 // HTTP requests the Reflector's client has sent
	idx      indexer.Indexer
	store    *loggingStore
	pods     listers.ResourceIndexer[*corev1.Pod]
}

// Every pod of the scene carries demoLabel, and the Reflector selects on it,
// so that the cache holds only the demo's pods when it writes its own scene.
const demoLabel, demoValue = "demo", "stage04"

// The scene: pods in two namespaces, bound to three fake nodes at creation
// (nothing schedules on the playground, so spec.nodeName is ours to set).
var scene = []struct{ ns, name, node, app string }{
	{"shop", "web-1", "node-1", "web"},
	{"shop", "web-2", "node-2", "web"},
	{"shop", "web-3", "node-3", "web"},
	{"shop", "db-1", "node-1", "db"},
	{"shop", "cache-1", "node-2", "cache"},
	{"blog", "web-1", "node-2", "web"},
	{"blog", "db-1", "node-3", "db"},
	{"blog", "worker-1", "node-1", "worker"},
}

func (s *script) setScene() error {
	tl := s.env.Timeline
	tl.Step(saySceneTitle, saySceneWhy)
	nsName := map[string]string{}
	for _, ns := range []string{"shop", "blog"} {
		name, err := s.env.Namespace(ns)
		if err != nil {
			return err
		}
		nsName[ns] = name
	}
	for i, p := range scene {
		scene[i].ns = nsName[p.ns]
		pod := demo.Pod(scene[i].ns, p.name, map[string]string{"app": p.app, demoLabel: demoValue})
		pod.Spec.NodeName = p.node
		call := tl.Send("demo", "CREATE", scene[i].ns+"/"+p.name, fmt.Sprintf("node=%s app=%s", p.node, p.app))
		created, err := s.env.Client.CoreV1().Pods(scene[i].ns).Create(s.env.Ctx, pod, metav1.CreateOptions{})
		if err != nil {
			return err
		}
		call.Answered(created.ResourceVersion, "")
	}
	return nil
}

// fillFromReflector starts a Reflector writing into the Indexer and waits for
// its first Replace: from then on the cache holds every pod. stop ends the
// Reflector and waits for it.
func (s *script) fillFromReflector(client kubernetes.Interface) (stop func(), err error) {
	lw := listwatch.NewFilteredListWatchFromClient(client.CoreV1().RESTClient(), "pods", metav1.NamespaceAll,
		func(o *metav1.ListOptions) {
			if s.env.Writes {
				o.LabelSelector = demoLabel + "=" + demoValue
			}
		})
	return s.fillFrom(lw)
}

// fillFrom is fillFromReflector over any ListerWatcher (its test's is
// scripted).
func (s *script) fillFrom(lw listwatch.ListerWatcher) (stop func(), err error) {
	tl := s.env.Timeline
	tl.Step(sayFillTitle, sayFillWhy)
	s.idx = indexer.NewIndexer(deltafifo.DeletionHandlingMetaNamespaceKeyFunc,
		indexer.Indexers{indexer.NamespaceIndex: indexer.MetaNamespaceIndexFunc})
	s.store = newLoggingStore(s.idx, tl)
	s.pods = listers.New[*corev1.Pod](s.idx, corev1.Resource("pod")) // "pod", as client-go's generated PodLister says

	r := reflector.NewReflectorWithOptions(lw, &corev1.Pod{}, s.store, reflector.ReflectorOptions{Name: "pods"})
	ctx, cancel := context.WithCancel(s.env.Ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.RunWithContext(ctx)
	}()
	stop = func() {
		cancel()
		<-done
	}
	if _, err := s.waitFor(func(w write) bool { return w.op == "REPLACE" }, 30*time.Second); err != nil {
		stop()
		return nil, fmt.Errorf("the cache never got its first state: %w", err)
	}
	keys := s.idx.ListKeys()
	slices.Sort(keys)
	tl.Note(sayCacheHolds, len(keys), abbreviate(keys, 8))
	tl.Note(sayLastSync, s.idx.LastStoreSyncResourceVersion())
	return stop, nil
}

// waitFor returns the first write from the Reflector that matches.
func (s *script) waitFor(match func(write) bool, timeout time.Duration) (write, error) {
	deadline := time.After(timeout)
	for {
		select {
		case w := <-s.store.writes:
			if match(w) {
				return w, nil
			}
		case <-deadline:
			return write{}, fmt.Errorf("nothing after %s", timeout)
		case <-s.env.Ctx.Done():
			return write{}, s.env.Ctx.Err()
		}
	}
}

func (s *script) addIndexes() error {
	tl := s.env.Timeline
	tl.Step(sayIndexesTitle, sayIndexesWhy)
	if err := s.idx.AddIndexers(indexer.Indexers{byNode: nodeIndexFunc, byLabel: labelIndexFunc}); err != nil {
		return err
	}
	for _, name := range []string{indexer.NamespaceIndex, byNode, byLabel} {
		s.printIndex(name)
	}
	err := s.idx.AddIndexers(indexer.Indexers{byNode: nodeIndexFunc})
	tl.Event("index", "ADD", byNode, fmt.Sprintf("error: %v", err), sayAddedAgain)
	return nil
}

// printIndex prints the buckets of an index: each value and its keys (the
// first dozen values: a real cluster may have hundreds).
func (s *script) printIndex(name string) {
	values := s.idx.ListIndexFuncValues(name)
	slices.Sort(values)
	const most = 12
	if len(values) > most {
		defer s.env.Timeline.Note(sayMoreValues, len(values)-most, name)
		values = values[:most]
	}
	for _, v := range values {
		keys, _ := s.idx.IndexKeys(name, v)
		shown := v
		if shown == "" {
			shown = `""`
		}
		s.env.Timeline.Event("index", name, shown, abbreviate(keys, 6))
	}
}

func (s *script) askTheCache() error {
	tl := s.env.Timeline
	node, ns, app := s.pickQuestions()
	tl.Step(sayAskTitle, sayAskWhy)
	mark := s.requests.Load()

	onNode, err := s.idx.ByIndex(byNode, node)
	if err != nil {
		return err
	}
	tl.Event("index", "ByIndex", byNode+"="+node, abbreviate(sortedKeys(onNode), 8))

	sel := labels.SelectorFromSet(labels.Set{"app": app})
	listed, err := listers.NewNamespaced(s.pods, ns).List(sel)
	if err != nil {
		return err
	}
	var names []string
	for _, p := range listed {
		names = append(names, p.Namespace+"/"+p.Name)
	}
	slices.Sort(names)
	tl.Event("lister", "List", fmt.Sprintf("ns=%s app=%s", ns, app), abbreviate(names, 8))
	tl.Note(sayListerRead, ns, app)

	withLabel, err := s.idx.IndexKeys(byLabel, "app="+app)
	if err != nil {
		return err
	}
	var inNS []string
	for _, k := range withLabel {
		if strings.HasPrefix(k, ns+"/") {
			inNS = append(inNS, k)
		}
	}
	tl.Event("index", "IndexKeys", byLabel+"=app="+app, abbreviate(withLabel, 6), sayOfWhichIn.Format(ns, abbreviate(inNS, 6)))
	tl.Note(saySameAnswer)

	_, err = listers.NewNamespaced(s.pods, ns).Get("no-such-pod")
	tl.Event("lister", "Get", ns+"/no-such-pod", fmt.Sprintf("error: %v (NotFound: %v)", err, apierrors.IsNotFound(err)))
	tl.Note(sayRequestsWhileAnswering, s.requests.Load()-mark)
	return nil
}

// pickQuestions chooses what to ask: the scene's node-2 and app=web in shop,
// or on a real cluster the busiest node and the commonest app label of the
// busiest namespace.
func (s *script) pickQuestions() (node, ns, app string) {
	if s.env.Writes {
		return "node-2", scene[0].ns, "web"
	}
	node = biggestBucket(s.idx, byNode)
	ns = biggestBucket(s.idx, indexer.NamespaceIndex)
	app = "web"
	best := -1
	for _, v := range s.idx.ListIndexFuncValues(byLabel) {
		keys, _ := s.idx.IndexKeys(byLabel, v)
		if k, val, ok := strings.Cut(v, "="); ok && k == "app" && len(keys) > best {
			app, best = val, len(keys)
		}
	}
	return node, ns, app
}

func biggestBucket(idx indexer.Indexer, name string) string {
	best, size := "", -1
	for _, v := range idx.ListIndexFuncValues(name) {
		if keys, _ := idx.IndexKeys(name, v); len(keys) > size && v != "" {
			best, size = v, len(keys)
		}
	}
	return best
}

// moveBetweenBuckets changes a pod's label on the server and watches the
// Reflector's update move its key from one bucket of byLabel to another;
// then deletes the only app=worker pod, and its bucket disappears.
func (s *script) moveBetweenBuckets() error {
	tl := s.env.Timeline
	shop, blog := scene[0].ns, scene[5].ns
	tl.Step(sayMoveTitle, sayMoveWhy.Format(shop))
	s.printBuckets(sayBefore)
	// The write is printed as it is sent, its answer when it comes back:
	// the cache's row for the change it caused may come in between.
	patch := tl.Send("demo", "PATCH", shop+"/web-2", "app=cache")
	patched, err := s.env.Client.CoreV1().Pods(shop).Patch(s.env.Ctx, "web-2", types.MergePatchType,
		[]byte(`{"metadata":{"labels":{"app":"cache"}}}`), metav1.PatchOptions{})
	if err != nil {
		return err
	}
	patch.Answered(patched.ResourceVersion, "")
	if _, err := s.waitFor(func(w write) bool { return w.key == shop+"/web-2" && w.rv == patched.ResourceVersion }, 10*time.Second); err != nil {
		return fmt.Errorf("the cache never saw the patch: %w", err)
	}
	s.printBuckets(sayAfter)
	onNode, _ := s.idx.IndexKeys(byNode, "node-2")
	tl.Event("index", byNode, "node-2", abbreviate(onNode, 6), sayUnchanged)

	tl.Step(sayEmptyTitle, sayEmptyWhy.Format(blog))
	call := tl.Send("demo", "DELETE", blog+"/worker-1", "gracePeriodSeconds=0")
	rv, err := demo.Delete(s.env.Ctx, s.env.Client.CoreV1().RESTClient(), blog, "pods", "worker-1", metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
	if err != nil {
		return err
	}
	call.Answered(rv, "")
	if _, err := s.waitFor(func(w write) bool { return w.op == "DELETE" && w.key == blog+"/worker-1" }, 10*time.Second); err != nil {
		return fmt.Errorf("the cache never saw the delete: %w", err)
	}
	values := s.idx.ListIndexFuncValues(byLabel)
	slices.Sort(values)
	tl.EventAbout(nil, "index", byLabel, sayValues, strings.Join(values, " "))
	return nil
}

func (s *script) printBuckets(when lang.Text) {
	for _, v := range []string{"app=web", "app=cache"} {
		keys, _ := s.idx.IndexKeys(byLabel, v)
		s.env.Timeline.Event("index", byLabel, v, abbreviate(keys, 6), when)
	}
}

// abbreviate prints up to n items and how many more there are.
func abbreviate(items []string, n int) string {
	if len(items) <= n {
		return "[" + strings.Join(items, " ") + "]"
	}
	return fmt.Sprintf("[%s … +%d]", strings.Join(items[:n], " "), len(items)-n)
}
