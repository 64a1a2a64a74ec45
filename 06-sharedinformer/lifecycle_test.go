package informer_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	fcache "k8s.io/client-go/tools/cache/testing"

	deltafifo "informer-from-scratch/03-deltafifo"
	informer "informer-from-scratch/06-sharedinformer"
)

// lifecycle is what an informer answers at each moment of its life, in a
// form both libraries produce. Errors are compared by message: ours are
// client-go's, word for word.
type lifecycle struct {
	BeforeRun, AfterSync, AfterStop moment
	// SecondRunReturned: a second Run on a running informer returns at once.
	SecondRunReturned bool
	// RemoveTwice is the error of removing a registration a second time.
	RemoveTwice string
	// TooManyOptions is AddTypedEventHandler's error for two HandlerOptions.
	TooManyOptions string
	// IndexedWhileRunning is what an index added after the sync finds.
	IndexedWhileRunning []string
}

type moment struct {
	HasStarted              bool
	HasSynced, IsStopped    bool
	LastSyncResourceVersion string
	SetTransform            string
	SetWatchErrorHandler    string
	SetWatchErrorHandlerCtx string
	AddEventHandler         string
	AddIndexers             string
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// lifecycleAPI is the part of both informers this test needs.
type lifecycleAPI struct {
	run                  func(context.Context)
	hasStarted           func() bool
	hasSynced, isStopped func() bool
	lastRV               func() string
	setTransform         func() error
	setWatchErrorHandler func() error
	setWatchErrorCtx     func() error
	addHandler           func() (remove func() error, err error)
	addIndexers          func(name string) error
	byIndex              func(name, value string) []string
	addTypedTwoOptions   func() error
}

func clientGoLifecycle(source *fcache.FakeControllerSource) lifecycleAPI {
	inf := cache.NewSharedIndexInformer(source, &corev1.Pod{}, 0, cache.Indexers{})
	typed := cache.NewTypedSharedIndexInformer[*corev1.Pod](inf)
	return lifecycleAPI{
		run:                  inf.RunWithContext,
		hasStarted:           func() bool { return inf.(interface{ HasStarted() bool }).HasStarted() },
		hasSynced:            inf.HasSynced,
		isStopped:            inf.IsStopped,
		lastRV:               inf.LastSyncResourceVersion,
		setTransform:         func() error { return inf.SetTransform(dropManagedFields) },
		setWatchErrorHandler: func() error { return inf.SetWatchErrorHandler(func(*cache.Reflector, error) {}) },
		setWatchErrorCtx: func() error {
			return inf.SetWatchErrorHandlerWithContext(func(context.Context, *cache.Reflector, error) {})
		},
		addHandler: func() (func() error, error) {
			reg, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{})
			return func() error { return inf.RemoveEventHandler(reg) }, err
		},
		addIndexers: func(name string) error {
			return inf.AddIndexers(cache.Indexers{name: func(obj any) ([]string, error) { return []string{obj.(*corev1.Pod).Labels["app"]}, nil }})
		},
		byIndex: func(name, value string) []string {
			objs, _ := inf.GetIndexer().ByIndex(name, value)
			return names(objs)
		},
		addTypedTwoOptions: func() error {
			_, err := typed.AddTypedEventHandler(cache.TypedResourceEventHandlerFuncs[*corev1.Pod]{}, cache.HandlerOptions{}, cache.HandlerOptions{})
			return err
		},
	}
}

func ourLifecycle(source *fcache.FakeControllerSource) lifecycleAPI {
	inf := informer.NewSharedIndexInformer(source, &corev1.Pod{}, 0, informer.Indexers{})
	typed := informer.NewTypedSharedIndexInformer[*corev1.Pod](inf)
	return lifecycleAPI{
		run:                  inf.RunWithContext,
		hasStarted:           func() bool { return inf.(interface{ HasStarted() bool }).HasStarted() },
		hasSynced:            inf.HasSynced,
		isStopped:            inf.IsStopped,
		lastRV:               inf.LastSyncResourceVersion,
		setTransform:         func() error { return inf.SetTransform(dropManagedFields) },
		setWatchErrorHandler: func() error { return inf.SetWatchErrorHandler(func(*informer.Reflector, error) {}) },
		setWatchErrorCtx: func() error {
			return inf.SetWatchErrorHandlerWithContext(func(context.Context, *informer.Reflector, error) {})
		},
		addHandler: func() (func() error, error) {
			reg, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{})
			return func() error { return inf.RemoveEventHandler(reg) }, err
		},
		addIndexers: func(name string) error {
			return inf.AddIndexers(informer.Indexers{name: func(obj any) ([]string, error) { return []string{obj.(*corev1.Pod).Labels["app"]}, nil }})
		},
		byIndex: func(name, value string) []string {
			objs, _ := inf.GetIndexer().ByIndex(name, value)
			return names(objs)
		},
		addTypedTwoOptions: func() error {
			_, err := typed.AddTypedEventHandler(informer.TypedResourceEventHandlerFuncs[*corev1.Pod]{}, informer.HandlerOptions{}, informer.HandlerOptions{})
			return err
		},
	}
}

func names(objs []any) []string {
	var out []string
	for _, obj := range objs {
		out = append(out, obj.(*corev1.Pod).Name)
	}
	return out
}

func (api lifecycleAPI) moment(indexName string) moment {
	m := moment{
		HasStarted:              api.hasStarted(),
		HasSynced:               api.hasSynced(),
		IsStopped:               api.isStopped(),
		LastSyncResourceVersion: api.lastRV(),
		SetTransform:            errString(api.setTransform()),
		SetWatchErrorHandler:    errString(api.setWatchErrorHandler()),
		SetWatchErrorHandlerCtx: errString(api.setWatchErrorCtx()),
		AddIndexers:             errString(api.addIndexers(indexName)),
	}
	_, err := api.addHandler()
	// The message names the handler with %v; an empty Funcs prints alike.
	m.AddEventHandler = errString(err)
	return m
}

// liveLifecycle walks one informer through its life inside a synctest bubble.
func liveLifecycle(t *testing.T, newAPI func(*fcache.FakeControllerSource) lifecycleAPI) lifecycle {
	var out lifecycle
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		source.Add(newPod("a", "web"))
		source.Add(newPod("b", "db"))
		api := newAPI(source)
		out.BeforeRun = api.moment("before-run")
		out.TooManyOptions = errString(api.addTypedTwoOptions())

		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { api.run(ctx) })
		synctest.Wait()
		out.AfterSync = api.moment("while-running")
		out.IndexedWhileRunning = api.byIndex("while-running", "web")

		second := make(chan struct{})
		go func() { api.run(ctx); close(second) }()
		synctest.Wait()
		select {
		case <-second:
			out.SecondRunReturned = true
		default:
		}

		remove, err := api.addHandler()
		if err != nil {
			t.Fatal(err)
		}
		if err := remove(); err != nil {
			t.Fatal(err)
		}
		out.RemoveTwice = errString(remove())

		cancel()
		wg.Wait()
		<-second
		out.AfterStop = api.moment("after-stop")
		source.Shutdown()
	})
	return out
}

func TestLifecycleMatchesClientGo(t *testing.T) {
	// client-go logs "Warning: ... run more than once is not allowed"; ours
	// reports it as an error. Keep both out of the test's output.
	captureHandledErrors(t)
	theirs := liveLifecycle(t, clientGoLifecycle)
	ours := liveLifecycle(t, ourLifecycle)
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("(-client-go +ours):\n%s", diff)
	}
	t.Logf("client-go: %+v", theirs)
	if !theirs.AfterSync.HasSynced || !theirs.SecondRunReturned || theirs.AfterStop.AddEventHandler == "<nil>" {
		t.Errorf("client-go behaves otherwise than this test assumes: %+v", theirs)
	}
}

// captureHandledErrors routes utilruntime.HandleError to a list for the rest
// of the test and returns a function that reads the list.
func captureHandledErrors(t *testing.T) func() []string {
	t.Helper()
	var mu sync.Mutex
	var logged []string
	old := utilruntime.ErrorHandlers
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{func(_ context.Context, err error, msg string, kv ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, fmt.Sprintf("%s: %v %v", msg, err, kv))
	}}
	t.Cleanup(func() { utilruntime.ErrorHandlers = old })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), logged...)
	}
}

// TestBadInputGetsAClearError covers what client-go turns into a panic (at
// once or on the first event) or a silent default; ours returns or reports
// an error that says what was wrong.
func TestBadInputGetsAClearError(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	defer source.Shutdown()
	newInformer := func() informer.SharedIndexInformer {
		return informer.NewSharedIndexInformer(source, &corev1.Pod{}, time.Minute, informer.Indexers{})
	}
	cases := []struct {
		name string
		err  func() error
		want string
	}{
		{"nil handler (client-go registers it and panics on the first event)", func() error {
			_, err := newInformer().AddEventHandler(nil)
			return err
		}, "nil ResourceEventHandler"},
		{"typed nil pointer handler", func() error {
			_, err := newInformer().AddEventHandler((*informer.ResourceEventHandlerFuncs)(nil))
			return err
		}, "nil *processor.ResourceEventHandlerFuncs"},
		{"nil typed handler (client-go wraps it and panics on the first event)", func() error {
			_, err := informer.NewTypedSharedIndexInformer[*corev1.Pod](newInformer()).AddTypedEventHandler(nil)
			return err
		}, "cannot be registered as a TypedResourceEventHandler"},
		{"negative resync period (client-go silently uses the check period)", func() error {
			_, err := newInformer().AddEventHandlerWithResyncPeriod(informer.ResourceEventHandlerFuncs{}, -time.Second)
			return err
		}, "is negative"},
		{"a registration from elsewhere", func() error {
			return newInformer().RemoveEventHandler(foreignRegistration{})
		}, "is not a registration returned by AddListener"},
		{"ShutDownEventHandler of a registration from elsewhere", func() error {
			return informer.ShutDownEventHandler(newInformer(), foreignRegistration{})
		}, "is not a registration"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestRefusedHandlerLeavesTheInformerAlone: a handler refused as nil or a
// typed nil, asking for resyncs more often than the informer checks, must
// leave the informer as it was: its resync check period (how often the
// reflector asks whether a resync is due) stays the default, so a handler
// added after Run asking for the same short period is raised to the
// default, as it would be had the refused call never been made. (client-go
// registers a nil handler, so there is no side to compare with.)
func TestRefusedHandlerLeavesTheInformerAlone(t *testing.T) {
	const period = time.Minute
	for _, tc := range []struct {
		name    string
		handler informer.ResourceEventHandler
	}{
		{"nil handler", nil},
		{"typed nil pointer handler", (*informer.ResourceEventHandlerFuncs)(nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				source := fcache.NewFakeControllerSource()
				defer source.Shutdown()
				inf := informer.NewSharedIndexInformer(source, &corev1.Pod{}, period, informer.Indexers{})
				if _, err := inf.AddEventHandlerWithResyncPeriod(tc.handler, time.Second); err == nil {
					t.Fatal("the handler was not refused")
				}
				if got := informer.ResyncCheckPeriod(inf); got != period {
					t.Errorf("after the refusal the informer checks for resyncs every %v, want %v as before it", got, period)
				}

				ctx, cancel := context.WithCancel(context.Background())
				var wg sync.WaitGroup
				wg.Go(func() { inf.RunWithContext(ctx) })
				synctest.Wait()
				late, err := inf.AddEventHandlerWithResyncPeriod(informer.ResourceEventHandlerFuncs{}, time.Second)
				if err != nil {
					t.Fatal(err)
				}
				if got := late.(interface{ ResyncPeriod() time.Duration }).ResyncPeriod(); got != period {
					t.Errorf("a handler added after Run asking for 1s resyncs every %v, want %v (the check period)", got, period)
				}
				cancel()
				wg.Wait()
			})
		})
	}
}

// TestRemovingAnotherInformersRegistrationDoesNothingLikeClientGo: a
// registration one informer returned, given to another's
// RemoveEventHandler, is not an error and removes nothing, on both sides
// (the handler stays registered with its own informer: a never-started
// handler's ShutdownChan is closed only by its own informer's removal).
func TestRemovingAnotherInformersRegistrationDoesNothingLikeClientGo(t *testing.T) {
	type outcome struct {
		Err              string
		ShutDown         bool // after the other informer's RemoveEventHandler
		ShutDownByItsOwn bool // after its own informer's
		ErrFromItsOwn    string
	}
	shutDown := func(reg any) bool {
		select {
		case <-reg.(interface{ ShutdownChan() <-chan struct{} }).ShutdownChan():
			return true
		default:
			return false
		}
	}
	source := fcache.NewFakeControllerSource()
	defer source.Shutdown()
	var theirs, ours outcome
	{
		a := cache.NewSharedIndexInformer(source, &corev1.Pod{}, 0, cache.Indexers{})
		b := cache.NewSharedIndexInformer(source, &corev1.Pod{}, 0, cache.Indexers{})
		reg, err := b.AddEventHandler(cache.ResourceEventHandlerFuncs{})
		if err != nil {
			t.Fatal(err)
		}
		theirs.Err = errString(a.RemoveEventHandler(reg))
		theirs.ShutDown = shutDown(reg)
		theirs.ErrFromItsOwn = errString(b.RemoveEventHandler(reg))
		theirs.ShutDownByItsOwn = shutDown(reg)
	}
	{
		a := informer.NewSharedIndexInformer(source, &corev1.Pod{}, 0, informer.Indexers{})
		b := informer.NewSharedIndexInformer(source, &corev1.Pod{}, 0, informer.Indexers{})
		reg, err := b.AddEventHandler(informer.ResourceEventHandlerFuncs{})
		if err != nil {
			t.Fatal(err)
		}
		ours.Err = errString(a.RemoveEventHandler(reg))
		ours.ShutDown = shutDown(reg)
		ours.ErrFromItsOwn = errString(b.RemoveEventHandler(reg))
		ours.ShutDownByItsOwn = shutDown(reg)
	}
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("(-client-go +ours):\n%s", diff)
	}
	if want := (outcome{Err: "<nil>", ErrFromItsOwn: "<nil>", ShutDownByItsOwn: true}); theirs != want {
		t.Errorf("client-go behaves otherwise than this test (and RemoveEventHandler's comment) assumes: %+v", theirs)
	}
}

type foreignRegistration struct{}

func (foreignRegistration) HasSynced() bool                        { return true }
func (foreignRegistration) HasSyncedChecker() informer.DoneChecker { return nil }

// TestMisbuiltControllersReportAndDoNotStart: a Config missing a part, a
// second Run, an unknown queue kind. client-go panics on the nil (or, for the
// second Run, runs a second reflector into a closed queue); ours reports it
// through utilruntime.HandleError and returns at once.
func TestMisbuiltControllersReportAndDoNotStart(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	defer source.Shutdown()
	process := func(any, bool) error { return nil }
	cases := []struct {
		name string
		run  func(ctx context.Context)
		want string
	}{
		{"no queue", informer.New(&informer.Config{ListerWatcher: source, Process: process}).RunWithContext, "Config.Queue is nil"},
		{"no ListerWatcher", informer.New(&informer.Config{Queue: newQueue(), Process: process}).RunWithContext, "Config.ListerWatcher is nil"},
		{"no Process", informer.New(&informer.Config{Queue: newQueue(), ListerWatcher: source}).RunWithContext, "Config.Process is nil"},
		{"unknown queue kind", func(ctx context.Context) {
			_, ctrl := informer.NewInformerWithOptions(informer.InformerOptions{ListerWatcher: source, Queue: informer.QueueKind(7)})
			ctrl.RunWithContext(ctx)
		}, "unknown queue kind QueueKind(7)"},
		{"unknown queue kind, shared", func(ctx context.Context) {
			informer.NewSharedIndexInformerWithOptions(source, &corev1.Pod{}, informer.SharedIndexInformerOptions{Queue: informer.QueueKind(7)}).RunWithContext(ctx)
		}, "unknown queue kind QueueKind(7)"},
		{"run twice", func(ctx context.Context) {
			ctrl := informer.New(&informer.Config{Queue: newQueue(), ListerWatcher: source, Process: process})
			done, cancel := context.WithCancel(ctx)
			cancel() // the first run returns at once, its context being done
			ctrl.RunWithContext(done)
			ctrl.RunWithContext(ctx)
		}, "runs only once"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			logged := captureHandledErrors(t)
			synctest.Test(t, func(t *testing.T) {
				// Not cancelled: only an early return ends the run.
				tc.run(context.Background())
			})
			if got := strings.Join(logged(), "\n"); !strings.Contains(got, tc.want) {
				t.Errorf("reported %q, want %q", got, tc.want)
			}
		})
	}
}

func newQueue() informer.Queue {
	return deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{AtomicEvents: true})
}

// TestTypedHandlerReportsObjectsOfTheWrongType: an informer whose objects
// are not the T of its typed view. client-go's adapter type-asserts and
// panics in the listener's goroutine (the process dies); ours reports each
// mismatch and skips the call, but still delivers a tombstone by its key.
func TestTypedHandlerReportsObjectsOfTheWrongType(t *testing.T) {
	logged := captureHandledErrors(t)
	var calls []string
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		source.Add(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm"}})
		inf := informer.NewSharedIndexInformer(source, &corev1.ConfigMap{}, 0, informer.Indexers{})
		typed := informer.NewTypedSharedIndexInformer[*corev1.Pod](inf)
		var mu sync.Mutex
		record := func(s string) { mu.Lock(); calls = append(calls, s); mu.Unlock() }
		if _, err := typed.AddTypedEventHandler(informer.TypedResourceEventHandlerFuncs[*corev1.Pod]{
			AddFunc:    func(p *corev1.Pod) { record("add " + p.Name) },
			UpdateFunc: func(_, p *corev1.Pod) { record("update " + p.Name) },
			DeleteFunc: func(d informer.DeletedObject[*corev1.Pod]) {
				record(fmt.Sprintf("delete %s tombstone=%v obj=%v", d.GetKey(), d.FinalStateUnknown != nil, d.OptionalObj))
			},
		}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { inf.RunWithContext(ctx) })
		synctest.Wait()
		source.Modify(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm"}})
		synctest.Wait()
		source.DeleteDropWatch(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cm"}})
		source.ResetWatch()
		time.Sleep(5 * time.Second) // the relist's backoff
		synctest.Wait()
		cancel()
		wg.Wait()
		source.Shutdown()
	})
	if diff := cmp.Diff([]string{"delete ns/cm tombstone=true obj=nil"}, calls); diff != "" {
		t.Errorf("typed calls (-want +got):\n%s", diff)
	}
	var mismatches int
	for _, l := range logged() {
		if strings.Contains(l, "got a *v1.ConfigMap, not a *v1.Pod; call skipped") {
			mismatches++
		}
	}
	// OnAdd, OnUpdate (old and new), the tombstone's object.
	if mismatches != 4 {
		t.Errorf("%d mismatches reported, want 4:\n%s", mismatches, strings.Join(logged(), "\n"))
	}
}

// TestShutDownEventHandlerWaitsForTheCallInProgress, as client-go's does:
// when it returns, the handler is not running and will not run again.
func TestShutDownEventHandlerWaitsForTheCallInProgress(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		source.Add(newPod("a", "web"))
		inf := informer.NewSharedInformer(source, &corev1.Pod{}, 0)
		var mu sync.Mutex
		running, calls := false, 0
		reg, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{AddFunc: func(any) {
			mu.Lock()
			running = true
			calls++
			mu.Unlock()
			time.Sleep(time.Second)
			mu.Lock()
			running = false
			mu.Unlock()
		}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { inf.RunWithContext(ctx) })
		time.Sleep(100 * time.Millisecond) // the handler is in its call
		if err := informer.ShutDownEventHandler(inf, reg); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		if running {
			t.Error("ShutDownEventHandler returned while the handler was running")
		}
		mu.Unlock()
		source.Add(newPod("b", "web"))
		synctest.Wait()
		mu.Lock()
		if calls != 1 {
			t.Errorf("the handler was called %d times, want once (before the shutdown)", calls)
		}
		mu.Unlock()
		cancel()
		wg.Wait()
		source.Shutdown()
	})
}

// TestWaitHelpers: WaitForCacheSync, WaitForNamedCacheSync(WithContext) and
// WaitFor return true once everything has synced, and false when they are
// stopped first, as client-go's do.
func TestWaitHelpers(t *testing.T) {
	type results struct{ BeforeSync, AfterSync []bool }
	// run builds an informer on a source with one pod, and returns its Run
	// and the four waits on it and on a registration.
	type waits func(ctx context.Context) []bool
	play := func(t *testing.T, build func(*fcache.FakeControllerSource) (func(context.Context), waits)) results {
		var r results
		synctest.Test(t, func(t *testing.T) {
			source := fcache.NewFakeControllerSource()
			source.Add(newPod("a", "web"))
			run, wait := build(source)
			stopped, cancel := context.WithCancel(context.Background())
			cancel()
			r.BeforeSync = wait(stopped)
			ctx, stop := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Go(func() { run(ctx) })
			r.AfterSync = wait(context.Background())
			stop()
			wg.Wait()
			source.Shutdown()
		})
		return r
	}
	captureHandledErrors(t) // "Unable to sync caches", on both sides
	theirs := play(t, func(s *fcache.FakeControllerSource) (func(context.Context), waits) {
		inf := cache.NewSharedInformer(s, &corev1.Pod{}, 0)
		reg, _ := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{})
		return inf.RunWithContext, func(ctx context.Context) []bool {
			return []bool{
				cache.WaitForCacheSync(ctx.Done(), inf.HasSynced, reg.HasSynced),
				cache.WaitForNamedCacheSyncWithContext(ctx, inf.HasSynced),
				cache.WaitForNamedCacheSync("test", ctx.Done(), reg.HasSynced),
				cache.WaitFor(ctx, "", inf.HasSyncedChecker(), reg.HasSyncedChecker()),
			}
		}
	})
	ours := play(t, func(s *fcache.FakeControllerSource) (func(context.Context), waits) {
		inf := informer.NewSharedInformer(s, &corev1.Pod{}, 0)
		reg, _ := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{})
		return inf.RunWithContext, func(ctx context.Context) []bool {
			return []bool{
				informer.WaitForCacheSync(ctx.Done(), inf.HasSynced, reg.HasSynced),
				informer.WaitForNamedCacheSyncWithContext(ctx, inf.HasSynced),
				informer.WaitForNamedCacheSync("test", ctx.Done(), reg.HasSynced),
				informer.WaitFor(ctx, "", inf.HasSyncedChecker(), reg.HasSyncedChecker()),
			}
		}
	})
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("(-client-go +ours):\n%s", diff)
	}
	want := results{BeforeSync: []bool{false, false, false, false}, AfterSync: []bool{true, true, true, true}}
	if diff := cmp.Diff(want, theirs); diff != "" {
		t.Errorf("client-go behaves otherwise than this test assumes (-assumed +client-go):\n%s", diff)
	}
}
