package controller_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/testenv"
)

// TestBadObjectsAreReportedNotFatal starts the controller, on each stack,
// on a namespace full of objects it cannot or must not act on, beside one
// good Foo whose first create panics inside the client:
//
//   - a Foo whose replicas is a string, and one whose replicas does not fit
//     an int32 (the CRD's schema refuses both; the fake server does not);
//   - a Foo with no deploymentName (sample-controller's own check);
//   - an object of another kind in the Foos' resource;
//   - a Foo whose Deployment name is taken by a Deployment it does not
//     control, which must not be overwritten;
//   - a Deployment controlled by a Foo that does not exist, and one
//     controlled by something that is not a Foo.
//
// Each must be reported (an error through utilruntime.HandleError, and for
// the taken name a Warning Event), none may panic the process or change
// what the controller does not own, the objects no retry can repair must be
// reconciled once and dropped, the taken name retried, and the panicking
// reconcile retried until it succeeds. Both stacks must do the same.
func TestBadObjectsAreReportedNotFatal(t *testing.T) {
	errs := testenv.CaptureErrors(t)
	type result struct {
		World       []string
		Reconciles  map[string]int
		Events      []string
		Reported    []string
		Unexplained []string
	}
	// Each error report must contain one of these; which Foo it is about
	// is in the report.
	explained := []string{
		`reading Foo ns/wrong-type: .spec.replicas accessor error: three is of the type string, expected int64`,
		`reading Foo ns/too-big: spec.replicas=1099511627776 does not fit an int32`,
		`Deployment name missing from object reference`,
		`ns/not-a-foo is a samplecontroller.k8s.io/v1alpha1, Kind=Bar, not a samplecontroller.k8s.io/v1alpha1, Kind=Foo`,
		`Resource "someone-elses" already exists and is not managed by Foo`,
		`the reconcile of ns/panics panicked: injected panic: create deployments panics-web`,
	}
	got := map[string]result{}
	for _, s := range sides {
		t.Run(s.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				wrongType := crd.NewFoo(fakeNS, "wrong-type", "wrong-type-web", 1, nil)
				unstructured.SetNestedField(wrongType.Object, "three", "spec", "replicas")
				notAFoo := crd.NewFoo(fakeNS, "not-a-foo", "not-a-foo-web", 1, nil)
				notAFoo.SetKind("Bar")
				w := newFakeWorld(
					wrongType,
					crd.NewFoo(fakeNS, "too-big", "too-big-web", 1<<40, nil),
					crd.NewFoo(fakeNS, "no-name", "", 1, nil),
					notAFoo,
					crd.NewFoo(fakeNS, "taken", "someone-elses", 2, nil),
					crd.NewFoo(fakeNS, "panics", "panics-web", 1, nil),
				)
				create(t, w, demo.Deployment(fakeNS, "someone-elses", nil))
				orphan := demo.Deployment(fakeNS, "orphan-web", nil)
				ghost := crd.NewFoo(fakeNS, "ghost", "orphan-web", 1, nil)
				ghost.SetUID("uid-of-a-deleted-foo")
				orphan.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(ghost, crd.Foo.GVK())}
				create(t, w, orphan)
				other := demo.Deployment(fakeNS, "other-web", nil)
				other.OwnerReferences = []metav1.OwnerReference{{APIVersion: "example.com/v1", Kind: "Foo", Name: "panics", UID: "u", Controller: ptr.To(true)}}
				create(t, w, other)
				w.panicOn("deployments", "panics-web", 1)

				recorder := fakeRecorder()
				tr := newTrace()
				r := start(t, s, w.kube, w.dyn, fakeNS, 2, controller.Options{Recorder: recorder}, tr)
				time.Sleep(time.Second) // the taken name's retries: 5ms, 10ms… up to 640ms
				synctest.Wait()
				r.stop(t, s.name)

				world, err := snapshot(t.Context(), w.kube, w.dyn, fakeNS)
				if err != nil {
					t.Fatal(err)
				}
				res := result{World: world.summary(), Reconciles: map[string]int{}}
				for _, st := range tr.snapshot() {
					if st.Layer == observe.LayerWorker && st.Op == "sync" {
						res.Reconciles[st.Key]++
					}
				}
				// The taken name is retried until the end, and the panicking
				// Foo reconciled again by the events of its own writes: how
				// many times depends on timing; more than once is the point.
				for _, key := range []string{fakeNS + "/taken", fakeNS + "/panics"} {
					res.Reconciles[key] = min(res.Reconciles[key], 2)
				}
				events := drainEvents(recorder)
				slices.Sort(events)
				res.Events = slices.Compact(events)
				for _, msg := range errs.Take() {
					if strings.Contains(msg, "Operation cannot be fulfilled") || strings.Contains(msg, `"panics-web" already exists`) {
						// A Conflict, or a create of what the cache has not
						// seen yet: a write from a cache one event behind,
						// retried. Whether one happens depends on timing.
						continue
					}
					i := slices.IndexFunc(explained, func(e string) bool { return strings.Contains(msg, e) })
					if i < 0 {
						res.Unexplained = append(res.Unexplained, msg)
						continue
					}
					res.Reported = append(res.Reported, explained[i])
				}
				slices.Sort(res.Reported)
				res.Reported = slices.Compact(res.Reported)
				got[s.name] = res
			})
		})
	}
	want := result{
		World: []string{
			"foo no-name: replicas=1 deployment= status=unset",
			"foo not-a-foo: replicas=1 deployment=not-a-foo-web status=unset",
			"foo panics: replicas=1 deployment=panics-web status=0",
			"foo taken: replicas=2 deployment=someone-elses status=unset",
			"foo too-big: replicas=1099511627776 deployment=too-big-web status=unset",
			"foo wrong-type: replicas=0 deployment=wrong-type-web status=unset",
			"deployment orphan-web: replicas=1 owner=Foo/ghost(stale) available=0",
			"deployment other-web: replicas=1 owner=Foo/panics(stale) available=0",
			"deployment panics-web: replicas=1 owner=Foo/panics available=0",
			"deployment someone-elses: replicas=1 owner=none available=0",
		},
		// Once each, and never for ns/ghost: a Deployment whose Foo is
		// gone, or that no Foo of ours controls, queues nothing. More than
		// once (2 stands for "2 or more") for the taken name and the Foo
		// whose first reconcile panicked.
		Reconciles: map[string]int{
			"ns/no-name": 1, "ns/not-a-foo": 1, "ns/too-big": 1, "ns/wrong-type": 1,
			"ns/panics": 2, "ns/taken": 2,
		},
		Events: []string{
			"Normal Synced Foo synced successfully",
			`Warning ErrResourceExists Resource "someone-elses" already exists and is not managed by Foo`,
		},
		Reported: slices.Sorted(slices.Values(explained)),
	}
	for _, s := range sides {
		if diff := cmp.Diff(want, got[s.name]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", s.name, diff)
		}
	}
}

// TestHandlersReportWhatNoInformerShouldDeliver hands the controller's
// event handlers what they cannot turn into a key: values that are not
// objects, a tombstone holding a non-object. Each is reported through
// utilruntime.HandleError; nothing panics and nothing is queued. An update
// of the wrong types panics, as sample-controller's type assertions do.
func TestHandlersReportWhatNoInformerShouldDeliver(t *testing.T) {
	errs := testenv.CaptureErrors(t)
	w := newFakeWorld()
	c, err := controller.NewController(w.kube, w.dyn, controller.NewInformers(w.kube, w.dyn, fakeNS), controller.Options{Recorder: fakeRecorder()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.ShutDown()
	foos, deployments := c.Handlers()
	tombstone := informer.DeletedFinalStateUnknown{Key: "ns/x", Obj: 42}
	calls := []struct {
		name string
		call func()
		want string
	}{
		{"Foo add of an int", func() { foos.OnAdd(42, false) }, "a Foo handler got int"},
		{"Foo update to nil", func() { foos.OnUpdate(nil, nil) }, "a Foo handler got <nil>"},
		{"Deployment add of a string", func() { deployments.OnAdd("x", false) }, "a Deployment handler got string, which is neither an object nor a tombstone"},
		{"Deployment delete of a bad tombstone", func() { deployments.OnDelete(tombstone) }, "the tombstone of ns/x holds int, not an object"},
		{"Deployment delete of nil", func() { deployments.OnDelete(nil) }, "a Deployment handler got <nil>"},
	}
	for _, tc := range calls {
		tc.call()
		reported := errs.Take()
		if len(reported) != 1 || !strings.Contains(reported[0], tc.want) {
			t.Errorf("%s: reported %q, want one report containing %q", tc.name, reported, tc.want)
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("a Deployment update from an int did not panic: sample-controller's handler asserts the types")
			}
		}()
		deployments.OnUpdate(42, &appsv1.Deployment{})
	}()
	foos.OnDelete(42) // nothing to report: a deleted Foo queues nothing anyway
	if n := c.QueueLen(); n != 0 {
		t.Errorf("%d keys queued from garbage, want 0", n)
	}
	if reported := errs.Take(); len(reported) != 0 {
		t.Errorf("a Foo's delete reported %q", reported)
	}
}

// TestRunRefusesWhatItCannotRun: no rest.Config, a second Run, and caches
// that never sync (every LIST of Foos fails) until the context ends: each an
// error, none a panic or a hang, and no goroutine left (TestMain's goleak).
func TestRunRefusesWhatItCannotRun(t *testing.T) {
	testenv.CaptureErrors(t)
	if _, err := controller.NewForConfig(nil, controller.Options{}); err == nil || !strings.Contains(err.Error(), "needs a rest.Config") {
		t.Errorf("NewForConfig(nil) returned %v, want an error containing \"needs a rest.Config\"", err)
	}

	for _, s := range sides {
		t.Run(s.name+": twice, and caches that never sync", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newFakeWorld()
				w.fail("list", "foos", 1<<30)
				opts := controller.Options{Recorder: fakeRecorder()}
				s.options(&opts, nil)
				c, err := controller.NewController(w.kube, w.dyn, s.informers(w.kube, w.dyn, fakeNS), opts)
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				first := make(chan error, 1)
				go func() { first <- c.Run(ctx, 2) }()
				synctest.Wait()
				if err := c.Run(ctx, 2); err == nil || !strings.Contains(err.Error(), "Run was called twice") {
					t.Errorf("a second Run returned %v", err)
				}
				time.Sleep(time.Minute)
				cancel()
				if err := <-first; err == nil || !strings.Contains(err.Error(), "failed to wait for caches to sync: context canceled") {
					t.Errorf("Run on caches that never sync returned %v", err)
				}
			})
		})
	}
}
