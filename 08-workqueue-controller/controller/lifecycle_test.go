package controller_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/testenv"
)

// The lifecycle of one Controller: built, run once (or never, and shut
// down), and what a second Run, a ShutDown during Run and a drain cut by
// its timeout may and may not do to it.

// newFakeController builds a controller on s's stack over w, with opts.
func newFakeController(t *testing.T, s side, w *fakeWorld, opts controller.Options) *controller.Controller {
	t.Helper()
	if opts.Recorder == nil {
		opts.Recorder = fakeRecorder()
	}
	s.options(&opts, nil)
	c, err := controller.NewController(w.kube, w.dyn, s.informers(w.kube, w.dyn, fakeNS), opts)
	if err != nil {
		t.Fatalf("%s: %v", s.name, err)
	}
	return c
}

// TestASecondRunLeavesTheFirstRunning: while a controller runs, a second
// Run (with workers, or a mistaken Run(ctx, 0)) and a ShutDown each return
// without touching it: the queue still takes keys, so a Foo created
// afterwards still gets its Deployment.
func TestASecondRunLeavesTheFirstRunning(t *testing.T) {
	for _, s := range sides {
		t.Run(s.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newFakeWorld(crd.NewFoo(fakeNS, "a", "a-web", 1, nil))
				c := newFakeController(t, s, w, controller.Options{})
				ctx, cancel := context.WithCancel(context.Background())
				first := make(chan error, 1)
				go func() { first <- c.Run(ctx, 2) }()
				synctest.Wait()
				for _, workers := range []int{0, 2} {
					if err := c.Run(ctx, workers); err == nil || !strings.Contains(err.Error(), "Run was called twice") {
						t.Errorf("%s: a second Run(ctx, %d) returned %v, want \"Run was called twice\"", s.name, workers, err)
					}
				}
				c.ShutDown() // does nothing once Run has begun
				createFoo(t, w, "b", "b-web", 1)
				time.Sleep(time.Second)
				synctest.Wait()
				if _, err := w.kube.AppsV1().Deployments(fakeNS).Get(context.Background(), "b-web", metav1.GetOptions{}); err != nil {
					t.Errorf("%s: the Foo created after the second Run and the ShutDown got no Deployment (%v): its queue was shut down under it", s.name, err)
				}
				cancel()
				if err := <-first; err != nil {
					t.Errorf("%s: the first Run returned %v", s.name, err)
				}
			})
		})
	}
}

// TestShutDownReleasesAControllerThatNeverRan: NewController starts the
// delaying queue's waiting loop; a controller that will not run is given
// back with ShutDown, as a sample-controller user would call its queue's
// ShutDown, and leaves no goroutine. Run afterwards is an error, and a
// second ShutDown does nothing.
func TestShutDownReleasesAControllerThatNeverRan(t *testing.T) {
	for _, s := range sides {
		t.Run(s.name, func(t *testing.T) {
			before := goleak.IgnoreCurrent()
			c := newFakeController(t, s, newFakeWorld(), controller.Options{})
			c.ShutDown()
			if err := goleak.Find(before); err != nil {
				t.Errorf("%s: a controller built, never run and shut down left goroutines behind: %v", s.name, err)
			}
			c.ShutDown()
			// A context already done: a Run that wrongly starts returns soon
			// (its caches never sync) instead of running for ever.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := c.Run(ctx, 2); err == nil || !strings.Contains(err.Error(), "runs once") {
				t.Errorf("%s: Run after ShutDown returned %v, want \"a Controller runs once\"", s.name, err)
			}
		})
	}
}

// TestAddEventHandlersRegistersBothOrNeither: when the second registration
// fails (a nil Deployment handler, which stage 06 refuses), the Foo handler
// registered a moment before is removed again: started, the informers call
// it for nothing. (Ours only: NewInformers is the implementation non-test
// code uses.)
func TestAddEventHandlersRegistersBothOrNeither(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newFakeWorld(crd.NewFoo(fakeNS, "a", "a-web", 1, nil))
		infs := controller.NewInformers(w.kube, w.dyn, fakeNS)
		var mu sync.Mutex
		var called []string
		foos := informer.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
			mu.Lock()
			defer mu.Unlock()
			called = append(called, keyOf(obj))
		}}
		if err := infs.AddEventHandlers(foos, nil); err == nil {
			t.Fatal("AddEventHandlers with a nil Deployment handler returned no error")
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer func() {
			cancel()
			infs.Shutdown()
		}()
		infs.Start(ctx)
		if !infs.WaitForCacheSync(ctx) {
			t.Fatal("the informers never synced")
		}
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		if len(called) != 0 {
			t.Errorf("the Foo handler was called for %v after AddEventHandlers failed: it was left registered", called)
		}
	})
}

func keyOf(obj any) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "?"
	}
	return m.GetNamespace() + "/" + m.GetName()
}

// TestShutdownStartsNoNewReconcile: once Run's shutdown has begun, a
// worker that gets a key hands it back unreconciled (Run, step 1). The
// queue still hands out the keys queued before the shutdown (stage 08a);
// the drain is for the reconciles in flight, not for new ones. Three Foos
// are queued at start and one worker runs; its first reconcile is held
// while the controller is cancelled. Let go, it finishes and the drain
// ends; the worker then gets one of the two keys still queued, and must
// reconcile it no more than the other: it hands it back, and stops (the
// other stays queued). (sample-controller's processNextWorkItem reconciles
// every key it gets: its Run does not drain, and the process exits under
// it.)
func TestShutdownStartsNoNewReconcile(t *testing.T) {
	for _, s := range sides {
		t.Run(s.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newFakeWorld(crd.NewFoo(fakeNS, "a", "a-web", 1, nil), crd.NewFoo(fakeNS, "b", "b-web", 1, nil), crd.NewFoo(fakeNS, "c", "c-web", 1, nil))
				inFlight, release := make(chan struct{}), make(chan struct{})
				var mu sync.Mutex
				var reconciled []string
				hold := func(next controller.SyncFunc) controller.SyncFunc {
					return func(ctx context.Context, key informer.ObjectName) error {
						mu.Lock()
						reconciled = append(reconciled, key.String())
						first := len(reconciled) == 1
						mu.Unlock()
						if first {
							close(inFlight)
							<-release // the reconcile in flight at shutdown
						}
						return next(ctx, key)
					}
				}
				c := newFakeController(t, s, w, controller.Options{Seams: controller.Seams{Sync: hold}})
				ctx, cancel := context.WithCancel(context.Background())
				returned := make(chan error, 1)
				go func() { returned <- c.Run(ctx, 1) }()
				time.Sleep(time.Second) // client-go's WaitForCacheSync polls every 100ms
				synctest.Wait()
				if !isClosed(inFlight) {
					t.Errorf("%s: no reconcile started", s.name)
					close(inFlight)
				} else if n := c.QueueLen(); n != 2 {
					t.Errorf("%s: %d keys queued behind the reconcile in flight, want 2", s.name, n)
				}
				cancel()
				synctest.Wait() // Run waits in its drain
				close(release)
				if err := <-returned; err != nil {
					t.Errorf("%s: Run returned %v", s.name, err)
				}
				mu.Lock()
				defer mu.Unlock()
				if len(reconciled) != 1 {
					t.Errorf("%s: reconciled %q: once the shutdown had begun, the worker reconciled the keys still queued; it must hand them back unreconciled (Done, and stop)", s.name, reconciled)
				}
				if n := c.QueueLen(); n != 1 {
					t.Errorf("%s: %d keys still queued when Run returned, want 1: once the shutdown has begun, a worker that gets a key hands it back and stops (processNextWorkItem returns false), it does not go on taking the keys still queued", s.name, n)
				}
			})
		})
	}
}

// TestAKeyHandedBackAtShutdownIsDone: a key a worker hands back
// unreconciled once the shutdown has begun is Done like any other, or it
// stays in the processing set and the drain waits for it until its
// timeout. Two workers each hold a reconcile, a third key is queued, and
// the controller is cancelled. The second reconcile finishes first: its
// worker gets the third key and hands it back. Then the first finishes:
// with nothing left in processing the drain ends at once, and Run returns
// without its DrainTimeout passing.
func TestAKeyHandedBackAtShutdownIsDone(t *testing.T) {
	const drainTimeout = time.Hour
	for _, s := range sides {
		t.Run(s.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newFakeWorld(crd.NewFoo(fakeNS, "a", "a-web", 1, nil), crd.NewFoo(fakeNS, "b", "b-web", 1, nil), crd.NewFoo(fakeNS, "c", "c-web", 1, nil))
				release := []chan struct{}{make(chan struct{}), make(chan struct{})}
				var mu sync.Mutex
				var reconciled []string
				hold := func(next controller.SyncFunc) controller.SyncFunc {
					return func(ctx context.Context, key informer.ObjectName) error {
						mu.Lock()
						n := len(reconciled)
						reconciled = append(reconciled, key.String())
						mu.Unlock()
						if n < len(release) {
							<-release[n] // the two reconciles in flight at shutdown
						}
						return next(ctx, key)
					}
				}
				c := newFakeController(t, s, w, controller.Options{DrainTimeout: drainTimeout, Seams: controller.Seams{Sync: hold}})
				ctx, cancel := context.WithCancel(context.Background())
				returned := make(chan error, 1)
				go func() { returned <- c.Run(ctx, 2) }()
				time.Sleep(time.Second) // client-go's WaitForCacheSync polls every 100ms
				synctest.Wait()
				mu.Lock()
				started := len(reconciled)
				mu.Unlock()
				if started != 2 || c.QueueLen() != 1 {
					// End the run before giving up: a test that
					// returns with Run still waiting panics its bubble,
					// and go test runs no test after it.
					queued := c.QueueLen()
					cancel()
					close(release[0])
					close(release[1])
					<-returned
					t.Fatalf("%s: %d reconciles in flight and %d keys queued, want 2 and 1", s.name, started, queued)
				}
				cancel()
				synctest.Wait() // Run waits in its drain
				close(release[1])
				synctest.Wait() // that worker gets the third key, and hands it back
				close(release[0])
				last := time.Now()
				if err := <-returned; err != nil {
					t.Errorf("%s: Run returned %v", s.name, err)
				}
				if waited := time.Since(last); waited >= drainTimeout {
					t.Errorf("%s: Run returned only when its drain timed out, %v after the last reconcile finished: the key handed back unreconciled at shutdown was never Done, so it stayed in processing and the drain waited for it. Done it on every path, the one that hands a key back included", s.name, waited)
				}
				mu.Lock()
				defer mu.Unlock()
				if len(reconciled) != 2 {
					t.Errorf("%s: reconciled %q, want only the two in flight at shutdown", s.name, reconciled)
				}
			})
		})
	}
}

// TestWorkersLogAsSampleControllerDoes: the workers' two log lines, read by
// people and by the demo's timeline (observe's log sink turns the second
// into a "skip" row): "Successfully synced" after each reconcile that
// succeeds, and, at V(4), "Shutting down: not reconciled" for each key
// handed back, each with the key as objectName; and neither for anything
// else, a Get that reports the shutdown included. The scene is
// TestAKeyHandedBackAtShutdownIsDone's: two reconciles in flight at the
// shutdown, both succeed; the third key is handed back; then the first
// worker's Get reports the shutdown.
func TestWorkersLogAsSampleControllerDoes(t *testing.T) {
	for _, s := range sides {
		t.Run(s.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newFakeWorld(crd.NewFoo(fakeNS, "a", "a-web", 1, nil), crd.NewFoo(fakeNS, "b", "b-web", 1, nil), crd.NewFoo(fakeNS, "c", "c-web", 1, nil))
				release := []chan struct{}{make(chan struct{}), make(chan struct{})}
				var mu sync.Mutex
				var reconciled []string
				hold := func(next controller.SyncFunc) controller.SyncFunc {
					return func(ctx context.Context, key informer.ObjectName) error {
						mu.Lock()
						n := len(reconciled)
						reconciled = append(reconciled, key.String())
						mu.Unlock()
						if n < len(release) {
							<-release[n]
						}
						return next(ctx, key)
					}
				}
				c := newFakeController(t, s, w, controller.Options{DrainTimeout: time.Hour, Seams: controller.Seams{Sync: hold}})
				lines := &workerLines{}
				ctx, cancel := context.WithCancel(logr.NewContext(context.Background(), logr.New(lines)))
				returned := make(chan error, 1)
				go func() { returned <- c.Run(ctx, 2) }()
				time.Sleep(time.Second) // client-go's WaitForCacheSync polls every 100ms
				synctest.Wait()
				cancel()
				synctest.Wait() // Run waits in its drain
				close(release[1])
				synctest.Wait() // that worker gets the third key, and hands it back
				close(release[0])
				if err := <-returned; err != nil {
					t.Errorf("%s: Run returned %v", s.name, err)
				}
				mu.Lock()
				defer mu.Unlock()
				if len(reconciled) != 2 {
					t.Fatalf("%s: reconciled %q, want the two in flight at shutdown", s.name, reconciled)
				}
				var want []string
				for _, key := range reconciled {
					want = append(want, workerLine(0, "Successfully synced", key))
				}
				for _, key := range []string{fakeNS + "/a", fakeNS + "/b", fakeNS + "/c"} {
					if !slices.Contains(reconciled, key) {
						want = append(want, workerLine(4, "Shutting down: not reconciled", key))
					}
				}
				slices.Sort(want)
				if diff := cmp.Diff(want, lines.sorted()); diff != "" {
					t.Errorf("%s: the workers' log lines (-want +got): a success is logged as \"Successfully synced\", a key handed back at V(4) as \"Shutting down: not reconciled\", each with the key as objectName, and nothing else is:\n%s", s.name, diff)
				}
			})
		})
	}
}

// workerLines is a logr sink that keeps the lines processNextWorkItem
// logs, as workerLine writes them, whatever their verbosity. The sink
// WithValues makes (Run's logger for each worker) keeps its values and
// writes its lines into the first one's.
type workerLines struct {
	mu     sync.Mutex
	lines  []string
	values []any
	parent *workerLines // nil for the first one
}

func workerLine(level int, msg, objectName string) string {
	return fmt.Sprintf("V(%d) %q objectName=%s", level, msg, objectName)
}

func (l *workerLines) root() *workerLines {
	if l.parent != nil {
		return l.parent
	}
	return l
}

func (l *workerLines) Init(logr.RuntimeInfo)        {}
func (l *workerLines) Enabled(int) bool             { return true }
func (l *workerLines) Error(error, string, ...any)  {}
func (l *workerLines) WithName(string) logr.LogSink { return l }

func (l *workerLines) WithValues(kv ...any) logr.LogSink {
	return &workerLines{values: append(slices.Clip(l.values), kv...), parent: l.root()}
}

func (l *workerLines) Info(level int, msg string, kv ...any) {
	if msg != "Successfully synced" && msg != "Shutting down: not reconciled" {
		return
	}
	all := append(slices.Clip(l.values), kv...)
	objectName := "(none)"
	for i := 0; i+1 < len(all); i += 2 {
		if all[i] == "objectName" {
			objectName = fmt.Sprint(all[i+1])
		}
	}
	r := l.root()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, workerLine(level, msg, objectName))
}

func (l *workerLines) sorted() []string {
	r := l.root()
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(slices.Values(r.lines))
}

// shutdownInGet is a controller's queue whose first Get that hands out a
// key begins the controller's shutdown before it returns: the shutdown
// begins while the worker waits in Get.
type shutdownInGet struct {
	controller.Queue
	cancel context.CancelFunc
	armed  atomic.Bool
}

func (q *shutdownInGet) Get() (informer.ObjectName, bool) {
	key, shutdown := q.Queue.Get()
	if !shutdown && q.armed.CompareAndSwap(true, false) {
		q.cancel()
		for !q.Queue.ShuttingDown() {
			time.Sleep(time.Millisecond) // until Run has begun its drain
		}
	}
	return key, shutdown
}

// TestAKeyGotAsShutdownBeginsIsHandedBack: the shutdown can begin while a
// worker waits in Get (a Done re-queues a key a moment after the drain
// began, or the worker checked a moment before), and Get then hands out a
// key. The worker must look at ShuttingDown after its Get, not only
// before: that key too is handed back unreconciled.
func TestAKeyGotAsShutdownBeginsIsHandedBack(t *testing.T) {
	for _, s := range sides {
		t.Run(s.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newFakeWorld(crd.NewFoo(fakeNS, "a", "a-web", 1, nil))
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var mu sync.Mutex
				var reconciled []string
				record := func(next controller.SyncFunc) controller.SyncFunc {
					return func(ctx context.Context, key informer.ObjectName) error {
						mu.Lock()
						reconciled = append(reconciled, key.String())
						mu.Unlock()
						return next(ctx, key)
					}
				}
				opts := controller.Options{Recorder: fakeRecorder(), Seams: controller.Seams{Sync: record}}
				s.options(&opts, func(q controller.Queue) controller.Queue {
					wrapped := &shutdownInGet{Queue: q, cancel: cancel}
					wrapped.armed.Store(true)
					return wrapped
				})
				c, err := controller.NewController(w.kube, w.dyn, s.informers(w.kube, w.dyn, fakeNS), opts)
				if err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
				returned := make(chan error, 1)
				go func() { returned <- c.Run(ctx, 1) }()
				select {
				case err = <-returned:
				case <-time.After(time.Minute):
					// The key's Get begins the shutdown: a worker that
					// never got it leaves Run waiting for its context.
					t.Errorf("%s: a minute after Run began, its shutdown had not begun: the worker never got the key from the queue", s.name)
					cancel()
					err = <-returned
				}
				if err != nil {
					t.Errorf("%s: Run returned %v", s.name, err)
				}
				mu.Lock()
				defer mu.Unlock()
				if len(reconciled) != 0 {
					t.Errorf("%s: reconciled %q, handed out by a Get that returned after the shutdown had begun: check ShuttingDown after Get (a waiting Get can still hand out a key), and hand the key back unreconciled", s.name, reconciled)
				}
			})
		})
	}
}

// TestDrainTimeoutNeverOutlivesRun: the drain's bound passes just as the
// last reconcile finishes. The timeout's callback has begun (it is held in
// the logger, at its "Drain timed out" line) when the drain returns; Run must
// wait for it to finish rather than return with it still running (and
// then cancelling, shutting down and reporting after Run has returned).
func TestDrainTimeoutNeverOutlivesRun(t *testing.T) {
	testenv.CaptureErrors(t)
	for _, s := range sides {
		t.Run(s.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newFakeWorld(crd.NewFoo(fakeNS, "a", "a-web", 1, nil))
				inFlight, release := make(chan struct{}), make(chan struct{})
				w.kube.PrependReactor("create", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
					close(inFlight)
					<-release // the reconcile in flight at shutdown
					return false, nil, nil
				})
				fired, releaseCallback := make(chan struct{}), make(chan struct{})
				tracer := observe.New(func(st observe.Step) {
					if st.Layer == observe.LayerController && st.Op == "DrainTimeout" {
						close(fired)
						<-releaseCallback
					}
				})
				c := newFakeController(t, s, w, tracer.Options(controller.Options{DrainTimeout: time.Second}))
				ctx, cancel := context.WithCancel(tracer.Context(context.Background()))
				returned := make(chan error, 1)
				go func() { returned <- c.Run(ctx, 1) }()
				time.Sleep(time.Second) // client-go's WaitForCacheSync polls every 100ms
				synctest.Wait()
				if !isClosed(inFlight) {
					t.Fatal("the Deployment's create never started")
				}
				cancel()
				time.Sleep(2 * time.Second) // past the drain's bound
				synctest.Wait()
				if !isClosed(fired) {
					t.Fatal("the drain timeout did not fire")
				}
				close(release) // the reconcile finishes: the drain returns
				synctest.Wait()
				select {
				case err := <-returned:
					t.Errorf("%s: Run returned (%v) while its drain-timeout callback was still running", s.name, err)
					close(releaseCallback)
					return
				default:
				}
				close(releaseCallback)
				if err := <-returned; err != nil {
					t.Errorf("%s: Run returned %v", s.name, err)
				}
			})
		})
	}
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
