package factory_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/testenv"
)

// fakeObjects are what each fake clientset starts with.
func fakeObjects() []runtime.Object {
	meta := func(ns, name, app string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": app, "tier": "front"}}
	}
	return []runtime.Object{
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "a"}},
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "b"}},
		demo.Pod("a", "pod-0", map[string]string{"app": "web", "tier": "front"}),
		demo.Pod("a", "pod-1", map[string]string{"app": "db", "tier": "back"}),
		demo.Pod("b", "pod-0", map[string]string{"app": "web", "tier": "back"}),
		&corev1.ConfigMap{ObjectMeta: meta("a", "configmap-0", "web")},
		&corev1.Service{ObjectMeta: meta("b", "service-0", "db")},
		demo.Deployment("a", "deployment-0", map[string]string{"app": "web", "tier": "front"}),
		demo.Deployment("b", "deployment-0", map[string]string{"app": "db", "tier": "back"}),
	}
}

// fakeCounts counts a fake clientset's list and watch actions like the
// request log counts requests: "pods LIST", "pods WATCH".
func fakeCounts(client *fake.Clientset) map[string]int {
	counts := map[string]int{}
	for _, a := range client.Actions() {
		switch a.GetVerb() {
		case "list":
			counts[a.GetResource().Resource+" LIST"]++
		case "watch":
			counts[a.GetResource().Resource+" WATCH"]++
		}
	}
	return counts
}

// TestFakeClientsetMatchesClientGo: most controllers are unit-tested on
// client-go's kubernetes/fake, which cannot stream a WatchList and says so
// (IsWatchListSemanticsUnSupported). Both factories pass the clientset to
// the WatchList opt-out the way client-go's generated informers do, so both
// must sync there. In testing/synctest, with each factory on a fake
// clientset of its own holding the same objects, two parts of a program
// share the pods informer; creates, updates and deletes go through the
// clientset; and the handlers' calls, the listers' answers, the list and
// watch actions per resource, and the sync results must be the same. Once
// with the factories' defaults, once with a transform (WithTransform) that
// keeps only the app label: the factory sets it on every informer it
// builds, so the listers, asked by tier, find nothing to match.
func TestFakeClientsetMatchesClientGo(t *testing.T) {
	for _, sc := range []struct {
		name string
		o    options
	}{
		{"the defaults", options{}},
		{"a transform that keeps only the app label", options{transform: keepOnlyAppLabel}},
	} {
		t.Run(sc.name, func(t *testing.T) { fakeClientsetScenario(t, sc.o) })
	}
}

// keepOnlyAppLabel is a transform that drops every label but app.
func keepOnlyAppLabel(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil {
		if app, ok := m.GetLabels()["app"]; ok {
			m.SetLabels(map[string]string{"app": app})
		} else {
			m.SetLabels(nil)
		}
	}
	return obj, nil
}

// fakeClientsetScenario is TestFakeClientsetMatchesClientGo's scenario,
// with both factories built with o.
func fakeClientsetScenario(t *testing.T, o options) {
	type outcome struct {
		Synced         map[string]bool
		SyncErr        string
		SamePodCache   bool
		Calls          map[string][]string
		HandlersSynced map[string]bool
		Actions        map[string]int
		Listers        map[string][]string
	}
	run := func(t *testing.T, newSide func(kubernetes.Interface, options) *side) (out outcome) {
		synctest.Test(t, func(t *testing.T) {
			client := fake.NewClientset(fakeObjects()...)
			s := newSide(client, o)
			recorders := map[string]*testenv.Recorder{}
			var order []string
			synced := map[string]func() bool{}
			handle := func(name, kind string) {
				rec := testenv.NewRecorder()
				hasSynced, err := s.addHandler(kind, rec)
				if err != nil {
					t.Fatal(err)
				}
				recorders[name], synced[name] = rec, hasSynced
				order = append(order, name)
			}
			handle("part A: pods", "pods")
			handle("part A: deployments", "deployments")
			handle("part B: pods", "pods")
			handle("part B: namespaces", "namespaces")
			out.SamePodCache = storeOf(s.informer("pods")) == storeOf(s.informer("pods"))

			ctx, cancel := context.WithCancel(context.Background())
			s.start(ctx)
			syncCtx, syncCancel := context.WithTimeout(ctx, time.Minute) // fake time
			out.Synced, out.SyncErr = s.waitForCacheSync(syncCtx)
			syncCancel()
			if !out.Synced["*v1.Pod"] {
				cancel()
				s.shutdown()
				return // the outcome says it did not sync
			}

			pods := client.CoreV1().Pods("a")
			steps := []func() error{
				func() error {
					_, err := pods.Create(ctx, demo.Pod("a", "pod-2", map[string]string{"app": "web"}), metav1.CreateOptions{})
					return err
				},
				func() error {
					_, err := pods.Update(ctx, demo.Pod("a", "pod-1", map[string]string{"app": "web", "tier": "back"}), metav1.UpdateOptions{})
					return err
				},
				func() error {
					return pods.Delete(ctx, "pod-0", metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
				},
				func() error {
					return client.AppsV1().Deployments("b").Delete(ctx, "deployment-0", metav1.DeleteOptions{})
				},
			}
			for _, step := range steps {
				if err := step(); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
			}
			out.Calls, out.HandlersSynced = map[string][]string{}, map[string]bool{}
			for _, name := range order {
				out.Calls[name] = recorders[name].Snapshot()
				out.HandlersSynced[name] = synced[name]()
			}
			out.Listers = askListers(t, s, "a", "b")
			out.Actions = fakeCounts(client)
			cancel()
			s.shutdown()
		})
		return out
	}
	theirs, ours := run(t, newClientGoSide), run(t, newOurSide)
	if !theirs.Synced["*v1.Pod"] || len(theirs.Calls["part A: pods"]) < 6 {
		t.Fatalf("client-go's factory did not sync on the fake clientset as expected; the test's premise is out of date: %+v", theirs)
	}
	if byTier := theirs.Listers[`deployments ns="" selector="app=web,tier=front"`]; (o.transform != nil) != (len(byTier) == 0) {
		t.Fatalf("client-go's deployment lister, asked by tier with transform %v, answered %q; the test's premise is out of date", o.transform != nil, byTier)
	}
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("on kubernetes/fake (-client-go +ours):\n%s", diff)
	}
}

// TestFakeClientsetLifecycleMatchesClientGo runs lifecycleScript on fake
// clientsets in testing/synctest (fake time: the short waits take none).
// The informer that cannot sync lists through a reactor that refuses.
func TestFakeClientsetLifecycleMatchesClientGo(t *testing.T) {
	run := func(t *testing.T, newSide func(kubernetes.Interface, options) *side) (out []string) {
		synctest.Test(t, func(t *testing.T) {
			var client *fake.Clientset
			out = lifecycleScript(t, context.Background(), func(o options) *side {
				client = fake.NewClientset(fakeObjects()...)
				if o.tweak != nil {
					client.PrependReactor("list", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
						return true, nil, errors.New("refused by the test's reactor")
					})
				}
				return newSide(client, o)
			}, func() map[string]int {
				// The reflector's WATCH follows its LIST, which is what
				// syncs the informer: let it be sent before counting.
				synctest.Wait()
				return fakeCounts(client)
			}, func(*metav1.ListOptions) {})
		})
		return out
	}
	theirs, ours := run(t, newClientGoSide), run(t, newOurSide)
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("on kubernetes/fake (-client-go +ours):\n%s", diff)
	}
	if testing.Verbose() {
		t.Logf("client-go: %q", theirs)
	}
}

// TestFakeClientsetCustomResyncMatchesClientGo: a factory whose default
// resync is 3 seconds, with pods resynced every second
// (WithCustomResyncConfig, keyed by an example object of the type). Over
// 3.5 seconds of fake time, a handler on pods hears every cached pod again
// each second, as an update with the same resourceVersion on both sides; a
// handler on config maps, a type with no period of its own, hears its one
// config map again at 3 seconds, the default. The calls, stamped with the
// fake time, must be client-go's.
func TestFakeClientsetCustomResyncMatchesClientGo(t *testing.T) {
	run := func(t *testing.T, newSide func(kubernetes.Interface, options) *side) (calls map[string][]string) {
		synctest.Test(t, func(t *testing.T) {
			client := fake.NewClientset(fakeObjects()...)
			s := newSide(client, options{resync: 3 * time.Second, customResync: map[metav1.Object]time.Duration{&corev1.Pod{}: time.Second}})
			pods, configMaps := testenv.NewRecorder(), testenv.NewRecorder()
			pods.Start, configMaps.Start = time.Now(), time.Now()
			if _, err := s.addHandler("pods", pods); err != nil {
				t.Fatal(err)
			}
			if _, err := s.addHandler("configmaps", configMaps); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			s.start(ctx)
			time.Sleep(3500 * time.Millisecond)
			synctest.Wait()
			cancel()
			s.shutdown()
			// A resync replays the cache in its (map) order: the calls of
			// one instant are compared as a set.
			calls = map[string][]string{"pods": pods.Snapshot(), "configmaps": configMaps.Snapshot()}
			for _, c := range calls {
				slices.Sort(c)
			}
		})
		return calls
	}
	theirs, ours := run(t, newClientGoSide), run(t, newOurSide)
	if len(theirs["pods"]) != 3+3*3 || len(theirs["configmaps"]) != 1+1 {
		t.Fatalf("client-go's pod handler: %d calls, want 3 adds and 3 resyncs of 3 pods: %q; its config map handler: %d calls, want an add and one resync, at 3s: %q",
			len(theirs["pods"]), theirs["pods"], len(theirs["configmaps"]), theirs["configmaps"])
	}
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("custom resync (-client-go +ours):\n%s", diff)
	}
}
