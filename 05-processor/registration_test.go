package processor

import (
	"context"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/cache/synctrack"
	fcache "k8s.io/client-go/tools/cache/testing"
	"k8s.io/utils/clock"

	deltafifo "informer-from-scratch/03-deltafifo"
)

// foreignRegistration is a registration neither implementation issued.
type foreignRegistration struct{}

func (foreignRegistration) HasSynced() bool                     { return true }
func (foreignRegistration) HasSyncedChecker() cache.DoneChecker { return nil }

type ourForeignRegistration struct{}

func (ourForeignRegistration) HasSynced() bool               { return true }
func (ourForeignRegistration) HasSyncedChecker() DoneChecker { return nil }

// TestRemoveRegistrationEdgeCasesMatchClientGo: removing a registration
// twice is a no-op, removing one that is not a listener is an error, on both
// sides.
func TestRemoveRegistrationEdgeCasesMatchClientGo(t *testing.T) {
	type result struct{ FirstRemove, SecondRemove, Foreign bool } // true: an error
	var theirs, ours result
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		defer source.Shutdown()
		informer := cache.NewSharedIndexInformer(source, &corev1.Pod{}, 0, cache.Indexers{})
		reg, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { informer.RunWithContext(ctx) })
		synctest.Wait()
		theirs.FirstRemove = informer.RemoveEventHandler(reg) != nil
		theirs.SecondRemove = informer.RemoveEventHandler(reg) != nil
		theirs.Foreign = informer.RemoveEventHandler(foreignRegistration{}) != nil
		cancel()
		wg.Wait()
	})
	synctest.Test(t, func(t *testing.T) {
		f := newFeeder(0, ProcessorOptions{})
		reg, err := f.AddEventHandler(ResourceEventHandlerFuncs{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { f.Run(ctx) })
		synctest.Wait()
		ours.FirstRemove = f.RemoveEventHandler(reg) != nil
		ours.SecondRemove = f.RemoveEventHandler(reg) != nil
		ours.Foreign = f.RemoveEventHandler(ourForeignRegistration{}) != nil
		cancel()
		wg.Wait()
	})
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("(-client-go +ours):\n%s", diff)
	}
}

// shutDown reports whether a registration's ShutdownChan is closed, without
// waiting: inside a synctest bubble, after synctest.Wait, a channel that is
// still open will stay open.
func shutDown(t *testing.T, reg any) bool {
	t.Helper()
	s, ok := reg.(interface{ ShutdownChan() <-chan struct{} })
	if !ok {
		t.Fatalf("%T has no ShutdownChan", reg)
	}
	synctest.Wait()
	select {
	case <-s.ShutdownChan():
		return true
	default:
		return false
	}
}

// TestRemovingAHandlerBeforeTheInformerRunsClosesItsShutdownChan: a
// listener that never started has no run goroutine to close its
// ShutdownChan when it ends, so RemoveListener closes it; otherwise
// client-go's ShutDownEventHandler, which waits on that channel, would wait
// for ever. client-go beside ours.
func TestRemovingAHandlerBeforeTheInformerRunsClosesItsShutdownChan(t *testing.T) {
	var theirs, ours bool
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		defer source.Shutdown()
		informer := cache.NewSharedIndexInformer(source, &corev1.Pod{}, 0, cache.Indexers{})
		reg, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{})
		if err != nil {
			t.Fatal(err)
		}
		if err := informer.RemoveEventHandler(reg); err != nil {
			t.Fatal(err)
		}
		theirs = shutDown(t, reg)
	})
	synctest.Test(t, func(t *testing.T) {
		f := newFeeder(0, ProcessorOptions{})
		reg, err := f.AddEventHandler(ResourceEventHandlerFuncs{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.RemoveEventHandler(reg); err != nil {
			t.Fatal(err)
		}
		ours = shutDown(t, reg)
	})
	if !theirs {
		t.Errorf("client-go no longer closes ShutdownChan of a handler removed before the informer ran: update this test and the chapter")
	}
	if ours != theirs {
		t.Errorf("ShutdownChan closed after removing a never-started handler: client-go %v, ours %v", theirs, ours)
	}
}

func TestRemoveListenerRejectsNilAndForeignHandles(t *testing.T) {
	p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
	var typedNil *ProcessorListener
	for name, h := range map[string]ResourceEventHandlerRegistration{
		"nil interface": nil, "typed nil": typedNil, "foreign": ourForeignRegistration{},
	} {
		if err := p.RemoveListener(h); err == nil || !strings.Contains(err.Error(), "not a registration") {
			t.Errorf("%s: RemoveListener returned %v, want a clear error", name, err)
		}
	}
}

func TestRemovedListenerStopsAndClosesItsShutdownChan(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFeeder(0, ProcessorOptions{})
		gate := make(chan struct{})
		var mu sync.Mutex
		var got []int
		reg, err := f.AddEventHandler(ResourceEventHandlerDetailedFuncs{AddFunc: func(obj any, _ bool) {
			<-gate
			mu.Lock()
			got = append(got, len(got))
			mu.Unlock()
		}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		defer wg.Wait()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel() // runs before wg.Wait
		wg.Go(func() { f.Run(ctx) })
		synctest.Wait() // the feeder has listed its empty cache: what follows is the watch
		for i := range 10 {
			f.apply("add", newPod(string(rune('a'+i)), "web"))
		}
		synctest.Wait()
		if err := f.RemoveEventHandler(reg); err != nil {
			t.Fatal(err)
		}
		select {
		case <-reg.(*ProcessorListener).ShutdownChan():
			t.Fatal("ShutdownChan closed while the handler was still in a call")
		default:
		}
		close(gate)
		<-reg.(*ProcessorListener).ShutdownChan()
		// The call in progress finished, and nothing more came. When the
		// listener was removed, its handler was busy, so pop's only ready
		// case was the closed addCh: it returned at once and dropped the
		// one in hand and the 8 in the ring, as client-go's pop does. (pop
		// picks at random only when run is waiting too.)
		f.apply("add", newPod("z", "web"))
		synctest.Wait()
		mu.Lock()
		defer mu.Unlock()
		if len(got) != 1 {
			t.Errorf("after removal the handler had %d calls; want only the call in progress: a removed listener drops its backlog (pop returns as soon as addCh is closed)", len(got))
		}
	})
}

func TestNewProcessListenerRejectsBadInput(t *testing.T) {
	synced := &doneChan{name: "x", ch: make(chan struct{})}
	if _, err := NewProcessListener(nil, 0, 0, time.Now(), 1, synced); err == nil {
		t.Error("a nil handler was accepted")
	}
	// client-go dereferences this one while naming the handler, and panics.
	var nilFuncs *ResourceEventHandlerFuncs
	if _, err := NewProcessListener(nilFuncs, 0, 0, time.Now(), 1, synced); err == nil {
		t.Error("a nil *ResourceEventHandlerFuncs was accepted")
	}
	if _, err := NewProcessListener(ResourceEventHandlerFuncs{}, 0, 0, time.Now(), 1, nil); err == nil {
		t.Error("a nil HasSynced checker was accepted")
	}
	if _, _, err := HandlerResyncPeriod(-time.Second, time.Second, false); err == nil {
		t.Error("HandlerResyncPeriod accepted a negative resync period")
	}
	if _, err := NewProcessListener(ResourceEventHandlerFuncs{}, -time.Second, time.Second, time.Now(), 1, synced); err == nil {
		t.Error("NewProcessListener accepted a negative requested resync period")
	}
	if _, err := NewProcessListener(ResourceEventHandlerFuncs{}, time.Second, -time.Second, time.Now(), 1, synced); err == nil {
		t.Error("NewProcessListener accepted a negative resync period")
	}
}

// addOne is a handler function with a name of its own, for the naming test.
func addOne(any) {}

// TestWrapHandlerKeepsTheHandlersName: a wrapped listener calls the wrapper
// (which calls the handler) and still names the handler it was built for,
// in its HasSynced checker and in its HandlerPanic.
func TestWrapHandlerKeepsTheHandlersName(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var panics []HandlerPanic
		p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{OnHandlerPanic: func(hp HandlerPanic) { panics = append(panics, hp) }})
		synced := &doneChan{name: "x", ch: make(chan struct{})}
		close(synced.ch)
		l, err := NewProcessListener(ResourceEventHandlerFuncs{AddFunc: addOne}, 0, 0, time.Now(), 1, synced)
		if err != nil {
			t.Fatal(err)
		}
		name := l.HasSyncedChecker().Name()
		var wrapped []any
		l.WrapHandler(func(h ResourceEventHandler) ResourceEventHandler {
			return ResourceEventHandlerFuncs{AddFunc: func(obj any) {
				wrapped = append(wrapped, obj)
				h.OnAdd(obj, false)
				panic("after the handler")
			}}
		})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { p.Run(ctx) })
		if _, _, err := p.AddListener(l); err != nil {
			t.Fatal(err)
		}
		p.Distribute(AddNotification{NewObj: 1}, false)
		synctest.Wait()
		cancel()
		wg.Wait()
		if len(wrapped) != 1 {
			t.Errorf("the wrapper saw %v, want the one notification", wrapped)
		}
		if !strings.Contains(name, "addOne") || l.HasSyncedChecker().Name() != name {
			t.Errorf("the checker was named %q before the wrap and %q after: want the handler's function both times", name, l.HasSyncedChecker().Name())
		}
		if len(panics) != 1 || !strings.Contains(panics[0].Handler, "addOne") {
			t.Errorf("panics %+v: want one, naming the handler's function", panics)
		}
	})
}

func TestAddListenerTwiceStartsItOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
		synced := &doneChan{name: "x", ch: make(chan struct{})}
		close(synced.ch)
		var mu sync.Mutex
		calls := 0
		l, err := NewProcessListener(ResourceEventHandlerFuncs{AddFunc: func(any) { mu.Lock(); calls++; mu.Unlock() }}, 0, 0, time.Now(), 1, synced)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { p.Run(ctx) })
		synctest.Wait()
		if _, _, err := p.AddListener(l); err != nil {
			t.Fatal(err)
		}
		if reg, _, err := p.AddListener(l); err == nil || reg != nil || !strings.Contains(err.Error(), "already registered with this processor") {
			t.Errorf("the second AddListener returned (%v, %v), want no registration and an error saying it is registered already", reg, err)
		}
		for range 100 {
			p.Distribute(AddNotification{NewObj: 1}, false)
		}
		synctest.Wait()
		cancel()
		wg.Wait()
		if calls != 100 {
			t.Errorf("handler called %d times for 100 notifications", calls)
		}
	})
}

// TestDistributeBeforeRunWaitsForTheListeners is client-go's
// TestListenerResyncPeriodsDelayed in miniature: a notification distributed
// before Run must wait for the listeners to start, not be lost or deadlock.
func TestDistributeBeforeRunWaitsForTheListeners(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
		synced := &doneChan{name: "x", ch: make(chan struct{})}
		close(synced.ch)
		got := make(chan any, 1)
		l, _ := NewProcessListener(ResourceEventHandlerFuncs{AddFunc: func(obj any) { got <- obj }}, 0, 0, time.Now(), 1, synced)
		if _, _, err := p.AddListener(l); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		wg.Go(func() { p.Distribute(AddNotification{NewObj: "early"}, false) })
		synctest.Wait()
		if len(got) != 0 {
			t.Fatal("delivered before the processor ran")
		}
		ctx, cancel := context.WithCancel(context.Background())
		wg.Go(func() { p.Run(ctx) })
		if obj := <-got; obj != "early" {
			t.Errorf("got %v", obj)
		}
		cancel()
		wg.Wait()
	})
}

// TestALateListenerWatchesItsUpstreamOnlyAfterStartWatchSynced: a listener
// added with AddLateListener before Run (an informer that runs, with a
// processor whose goroutine has not started the listeners yet) gets its
// initial list from the caller. Run, starting in the middle of that list,
// starts its run and pop but not its watchSynced, so HasSynced stays false
// although the upstream has synced and the items so far are handled;
// StartWatchSynced, after the list, lets it turn true. And
// StartWatchSynced before Run leaves the start to Run.
func TestALateListenerWatchesItsUpstreamOnlyAfterStartWatchSynced(t *testing.T) {
	t.Run("Run starts during the initial list", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
			synced := &doneChan{name: "x", ch: make(chan struct{})}
			close(synced.ch)
			l, _ := NewProcessListener(ResourceEventHandlerFuncs{}, 0, 0, time.Now(), 1, synced)
			if _, err := p.AddLateListener(l); err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			wg.Go(func() { l.Add(AddNotification{NewObj: "a", IsInInitialList: true}) })
			synctest.Wait() // the Add waits for a pop that has not started
			ctx, cancel := context.WithCancel(context.Background())
			wg.Go(func() { p.Run(ctx) })
			synctest.Wait()
			if l.HasSynced() {
				t.Error("HasSynced is true in the middle of the initial list (after its first item), before StartWatchSynced")
			}
			l.Add(AddNotification{NewObj: "b", IsInInitialList: true})
			p.StartWatchSynced(l)
			synctest.Wait()
			if !l.HasSynced() {
				t.Error("HasSynced is false after the initial list was handled and StartWatchSynced was called")
			}
			cancel()
			wg.Wait()
		})
	})
	t.Run("StartWatchSynced before Run", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
			synced := &doneChan{name: "x", ch: make(chan struct{})}
			close(synced.ch)
			l, _ := NewProcessListener(ResourceEventHandlerFuncs{}, 0, 0, time.Now(), 1, synced)
			if _, err := p.AddLateListener(l); err != nil {
				t.Fatal(err)
			}
			p.StartWatchSynced(l) // an empty initial list
			synctest.Wait()
			if l.HasSynced() {
				t.Error("HasSynced is true before Run started the listener")
			}
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Go(func() { p.Run(ctx) })
			synctest.Wait()
			if !l.HasSynced() {
				t.Error("HasSynced is false after Run, the upstream synced and the initial list empty")
			}
			cancel()
			wg.Wait()
		})
	})
}

// TestConcurrentDistributesBeforeRunAllProceed: several callers waiting for
// the start must all be let through. client-go wakes only one (Signal),
// which its informer never notices because it serializes distribute calls;
// ours broadcasts.
func TestConcurrentDistributesBeforeRunAllProceed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
		synced := &doneChan{name: "x", ch: make(chan struct{})}
		close(synced.ch)
		var mu sync.Mutex
		calls := 0
		l, _ := NewProcessListener(ResourceEventHandlerFuncs{AddFunc: func(any) { mu.Lock(); calls++; mu.Unlock() }}, 0, 0, time.Now(), 1, synced)
		if _, _, err := p.AddListener(l); err != nil {
			t.Fatal(err)
		}
		var distributors sync.WaitGroup
		for range 5 {
			distributors.Go(func() { p.Distribute(AddNotification{NewObj: 1}, false) })
		}
		synctest.Wait() // all five wait for the start
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { p.Run(ctx) })
		distributors.Wait()
		synctest.Wait()
		cancel()
		wg.Wait()
		if calls != 5 {
			t.Errorf("the handler got %d of the 5 notifications distributed before Run", calls)
		}
	})
}

// TestAddListenerAfterStopIsReported: a stopped processor cannot start a new
// listener; ours refuses it with an error (no registration to mistake for a
// working one) and keeps Distribute from waiting for ever.
func TestAddListenerAfterStopIsReported(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { p.Run(ctx) })
		synctest.Wait()
		cancel()
		wg.Wait()
		synced := &doneChan{name: "x", ch: make(chan struct{})}
		l, _ := NewProcessListener(ResourceEventHandlerFuncs{}, 0, 0, time.Now(), 1, synced)
		reg, started, err := p.AddListener(l)
		if started || reg != nil || err == nil || !strings.Contains(err.Error(), "after the processor stopped") {
			t.Errorf("AddListener on a stopped processor returned (%v, %v, %v), want no registration, not started, and an error saying it stopped", reg, started, err)
		}
		<-l.ShutdownChan()                              // closed: nothing will ever call the handler
		p.Distribute(AddNotification{NewObj: 1}, false) // returns: no listener to wait for
	})
}

// TestAListenerIsRegisteredOnlyOnce: a listener's channels are closed when
// it is removed or its processor stops, so it can never run again. client-go
// panics (close of a closed channel) when such a listener is added again, or
// runs two pops on one channel when it is given to two processors; ours
// reports the mistake and leaves the listener alone.
func TestAListenerIsRegisteredOnlyOnce(t *testing.T) {
	cases := []struct {
		name string
		// want is what the handler gets of the notifications p sends
		// before (1) and after (3) the misuse.
		want []any
		// misuse registers l a second time, after using it with p (which
		// stopP stops), and returns what that AddListener returned.
		misuse func(t *testing.T, p *SharedProcessor, stopP func(), l *ProcessorListener) (ResourceEventHandlerRegistration, error)
	}{
		{"re-added after RemoveListener, while running", []any{1}, func(t *testing.T, p *SharedProcessor, _ func(), l *ProcessorListener) (ResourceEventHandlerRegistration, error) {
			if err := p.RemoveListener(l); err != nil {
				t.Fatal(err)
			}
			<-l.ShutdownChan()
			reg, _, err := p.AddListener(l)
			return reg, err
		}},
		{"re-added after its processor stopped", []any{1}, func(t *testing.T, p *SharedProcessor, stopP func(), l *ProcessorListener) (ResourceEventHandlerRegistration, error) {
			stopP()
			reg, _, err := p.AddListener(l)
			return reg, err
		}},
		{"added to a second processor", []any{1, 3}, func(t *testing.T, _ *SharedProcessor, _ func(), l *ProcessorListener) (ResourceEventHandlerRegistration, error) {
			other := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
			reg, _, err := other.AddListener(l)
			stop := runProcessor(other)
			other.Distribute(AddNotification{NewObj: 2}, false)
			synctest.Wait()
			stop()
			return reg, err
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				synced := &doneChan{name: "x", ch: make(chan struct{})}
				close(synced.ch)
				var mu sync.Mutex
				var got []any
				l, err := NewProcessListener(ResourceEventHandlerFuncs{AddFunc: func(obj any) {
					mu.Lock()
					defer mu.Unlock()
					got = append(got, obj)
				}}, 0, 0, time.Now(), 1, synced)
				if err != nil {
					t.Fatal(err)
				}
				p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
				if _, _, err := p.AddListener(l); err != nil {
					t.Fatal(err)
				}
				stop := runProcessor(p)
				p.Distribute(AddNotification{NewObj: 1}, false)
				synctest.Wait()
				reg, err := c.misuse(t, p, stop, l)
				if reg != nil || err == nil || !strings.Contains(err.Error(), "already registered") {
					t.Errorf("the second AddListener returned (%v, %v), want no registration and an error saying the listener was already registered", reg, err)
				}
				p.Distribute(AddNotification{NewObj: 3}, false)
				synctest.Wait()
				stop()
				mu.Lock()
				defer mu.Unlock()
				if diff := cmp.Diff(c.want, got); diff != "" {
					t.Errorf("what the handler got (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// runProcessor runs p until stop is called; stop returns once Run has.
func runProcessor(p *SharedProcessor) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { p.Run(ctx) })
	return func() { cancel(); wg.Wait() }
}

func TestDistributeNilIsReportedNotDelivered(t *testing.T) {
	logged := captureHandledErrors(t)
	p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
	p.Distribute(nil, false)
	if len(logged()) != 1 || !strings.Contains(logged()[0], "nil Notification") {
		t.Errorf("logged %q", logged())
	}
}

// TestSingleFileTrackerPanicsOnFinishedWithoutStart keeps client-go's guard:
// a negative count would make HasSynced lie. The panic value is client-go's
// too: its own synctrack test matches on "negative counter", and
// proving-ground/conformance runs that test against ours.
func TestSingleFileTrackerPanicsOnFinishedWithoutStart(t *testing.T) {
	recovered := func(finished func()) (r any) {
		defer func() { r = recover() }()
		finished()
		return nil
	}
	theirs := recovered(synctrack.NewSingleFileTracker("x").Finished)
	ours := recovered(NewSingleFileTracker("x").Finished)
	if ours == nil {
		t.Fatal("Finished without Start did not panic")
	}
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("panic value (-client-go +ours):\n%s", diff)
	}
}

// TestSingleFileTrackerMatchesClientGo runs the same Start / Finished /
// UpstreamHasSynced sequences on synctrack.SingleFileTracker and ours.
func TestSingleFileTrackerMatchesClientGo(t *testing.T) {
	for _, program := range []string{"", "u", "su", "usf", "sfu", "ssfuf", "ssufsf", "usfsfu"} {
		theirs := synctrackNew(program)
		ours := func() []bool {
			tr := NewSingleFileTracker("x")
			var out []bool
			for _, op := range program {
				switch op {
				case 's':
					tr.Start()
				case 'f':
					tr.Finished()
				case 'u':
					tr.UpstreamHasSynced()
				}
				out = append(out, tr.HasSynced(), deltafifo.IsDone(tr))
			}
			return out
		}()
		if diff := cmp.Diff(theirs, ours); diff != "" {
			t.Errorf("program %q (s=Start f=Finished u=UpstreamHasSynced): (-client-go +ours):\n%s", program, diff)
		}
	}
}

// synctrackNew runs a program on client-go's SingleFileTracker.
func synctrackNew(program string) []bool {
	tr := synctrack.NewSingleFileTracker("x")
	var out []bool
	for _, op := range program {
		switch op {
		case 's':
			tr.Start()
		case 'f':
			tr.Finished()
		case 'u':
			tr.UpstreamHasSynced()
		}
		out = append(out, tr.HasSynced(), cache.IsDone(tr))
	}
	return out
}

// captureHandledErrors routes utilruntime.HandleError to a list for the rest
// of the test and returns a function that reads the list.
func captureHandledErrors(t *testing.T) func() []string {
	t.Helper()
	var mu sync.Mutex
	var logged []string
	old := utilruntime.ErrorHandlers
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{func(_ context.Context, err error, _ string, _ ...any) {
		mu.Lock()
		defer mu.Unlock()
		logged = append(logged, err.Error())
	}}
	t.Cleanup(func() { utilruntime.ErrorHandlers = old })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), logged...)
	}
}
