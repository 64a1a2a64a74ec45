package informer_test

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	fcache "k8s.io/client-go/tools/cache/testing"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/06-sharedinformer/observe"
)

// rvLog records, per object, the resourceVersions one handler was given
// (OnAdd, then each OnUpdate's new object), in the order it got them.
type rvLog struct {
	mu  sync.Mutex
	rvs map[string][]string
}

func newRVLog() *rvLog { return &rvLog{rvs: map[string][]string{}} }

func (l *rvLog) record(obj any) {
	pod := obj.(*corev1.Pod)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.rvs[pod.Name] = append(l.rvs[pod.Name], pod.ResourceVersion)
}

func (l *rvLog) handler() informer.ResourceEventHandlerFuncs {
	return informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { l.record(obj) },
		UpdateFunc: func(_, newObj any) { l.record(newObj) },
		DeleteFunc: func(any) {},
	}
}

// of is what the handler got for name so far.
func (l *rvLog) of(name string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.rvs[name])
}

// last is the last resourceVersion the handler got for name.
func (l *rvLog) last(name string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	rvs := l.rvs[name]
	if len(rvs) == 0 {
		return ""
	}
	return rvs[len(rvs)-1]
}

// TestHandlersAddedWhileEventsFlowSeeTheCacheThenEveryChange: handlers
// join one after another while a source streams updates to many objects as
// fast as the informer takes them. Each must get the cache as it was at its
// join, then every later change. Checked per object: the resourceVersions
// the handler got are the server's, in order, from its first one onward,
// nothing missed and nothing repeated.
//
// That is what holding blockDeltas through the replay buys. The late-join
// tests on a fake clock never overlap a replay with event processing, so
// releasing the lock right after AddListener, or dropping it, passed them
// all. Here, the first lets a change reach the new handler both as a
// notification and in the replay, or before the replay's older state; the
// second also lets a change fall between reading the cache and adding the
// listener. Each turned this test red in every run (6 of 6, and 3 of 3
// under -race for the first); the real code passes. On a loaded machine the
// first slipped through once in six runs:
// TestNoChangeIsProcessedWhileALateHandlersReplayIsInProgress places that
// interleaving exactly.
func TestHandlersAddedWhileEventsFlowSeeTheCacheThenEveryChange(t *testing.T) {
	const objects, handlers = 2000, 20

	source := fcache.NewFakeControllerSource()
	server := map[string][]string{} // per object, its resourceVersions on the server
	pod := func(i, generation int) *corev1.Pod {
		p := newPod(fmt.Sprintf("pod-%03d", i), "app")
		p.Labels["generation"] = strconv.Itoa(generation)
		return p
	}
	for i := range objects {
		p := pod(i, 0)
		source.Add(p)
		server[p.Name] = append(server[p.Name], p.ResourceVersion)
	}

	inf := informer.NewSharedIndexInformer(source, &corev1.Pod{}, 0, informer.Indexers{})
	ctx, cancel := context.WithCancel(context.Background())
	var running sync.WaitGroup
	running.Go(func() { inf.RunWithContext(ctx) })
	defer func() {
		cancel()
		running.Wait()
		source.Shutdown()
	}()
	if !informer.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		t.Fatal("the informer did not sync")
	}

	// The producer updates the objects in turn, on its own goroutine, until
	// the last handler has joined. The test adds a handler each time a
	// first handler has been told of another pace updates, so the joins
	// are spread over the stream, and each overlaps its processing.
	const pace = 500
	progress := make(chan struct{}, 1)
	var counted atomic.Int64
	if _, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{UpdateFunc: func(_, _ any) {
		if counted.Add(1)%pace == 0 {
			select {
			case progress <- struct{}{}:
			default: // the test has not taken the last one yet
			}
		}
	}}); err != nil {
		t.Fatal(err)
	}
	joined := make(chan struct{})
	var producer sync.WaitGroup
	producer.Go(func() {
		for u := 0; ; u++ {
			select {
			case <-joined:
				return
			default:
			}
			p := pod(u%objects, u/objects+1)
			source.Modify(p) // sets p's resourceVersion
			server[p.Name] = append(server[p.Name], p.ResourceVersion)
		}
	})
	logs := make([]*rvLog, 0, handlers)
	for range handlers {
		<-progress
		l := newRVLog()
		if _, err := inf.AddEventHandler(l.handler()); err != nil {
			t.Fatalf("AddEventHandler: %v", err)
		}
		logs = append(logs, l)
	}
	close(joined)
	producer.Wait()
	// A last round, after every join: each handler's last version of each
	// object is now the server's last, unless it missed that update.
	for i := range objects {
		p := pod(i, -1)
		source.Modify(p)
		server[p.Name] = append(server[p.Name], p.ResourceVersion)
	}

	// Wait until every handler has every object's last resourceVersion.
	caughtUp := func(context.Context) (bool, error) {
		for _, l := range logs {
			for name, rvs := range server {
				if l.last(name) != rvs[len(rvs)-1] {
					return false, nil
				}
			}
		}
		return true, nil
	}
	waitErr := wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 30*time.Second, true, caughtUp)

	for h, l := range logs {
		failures := 0
		for _, name := range slices.Sorted(maps.Keys(server)) {
			if err := fromJoinOnward(server[name], l.of(name)); err != nil {
				if failures++; failures <= 3 {
					t.Errorf("handler %d of %d, %s: %v", h+1, len(logs), name, err)
				}
			}
		}
		if failures > 3 {
			t.Errorf("handler %d of %d: and %d more objects like that", h+1, len(logs), failures-3)
		}
	}
	if waitErr != nil && !t.Failed() {
		t.Errorf("the handlers did not catch up with the server: %v", waitErr)
	}
}

// fromJoinOnward checks that got, the resourceVersions a late handler got
// for one object, is the object's server history from got's first entry to
// the end.
func fromJoinOnward(server, got []string) error {
	if len(got) == 0 {
		return fmt.Errorf("never heard of it (server: %d versions, last %s)", len(server), server[len(server)-1])
	}
	start := slices.Index(server, got[0])
	if start < 0 {
		return fmt.Errorf("its first version %s is none of the server's", got[0])
	}
	want := server[start:]
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			return fmt.Errorf("got %d versions from %s, the server has %d from there: the last ones, from %s, are missing", len(got), got[0], len(want), want[i])
		case i >= len(want):
			return fmt.Errorf("got %s after the server's last version %s", got[i], want[len(want)-1])
		case got[i] != want[i]:
			return fmt.Errorf("after %v got %s, the server's next version is %s (missed or repeated)", got[max(0, i-2):i], got[i], want[i])
		}
	}
	return nil
}

// TestALateHandlersHasSyncedCountsItsWholeReplayWhenTheProcessorStartsLate:
// a handler added after Run, but before the processor's goroutine has
// started the listeners, is given the cache (the informer has synced:
// with no handler yet, nothing waited for the processor). Its listener is
// then in the processor's map when the processor starts, in the middle of
// the replay. If the processor started its watchSynced then, as client-go's
// sharedProcessor.run does for every listener, the listener would learn
// that its upstream has synced while the rest of the replay is not counted
// yet: once the first replayed object is handled, the count is zero, and
// HasSynced turns true for good before the handler has seen the cache.
// Ours starts that watchSynced only after the replay (StartWatchSynced).
//
// The processor's start is held back by the informer's test hook (as
// client-go's tests do with sharedProcessorRunHook), and the replay is
// paused between its two objects by its Replay seam, so the interleaving is
// placed exactly.
func TestALateHandlersHasSyncedCountsItsWholeReplayWhenTheProcessorStartsLate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		startProcessor := make(chan struct{})
		defer informer.SetProcessorRunHook(func() { <-startProcessor })()

		source := fcache.NewFakeControllerSource()
		source.Add(newPod("a", "web"))
		source.Add(newPod("b", "web"))
		var replayed atomic.Int32
		secondReplay := make(chan struct{})
		inf := informer.NewSharedIndexInformerWithOptions(source, &corev1.Pod{}, informer.SharedIndexInformerOptions{
			Seams: observe.Seams(func(o observe.Observation) {
				if o.Op == "replay" && replayed.Add(1) == 2 {
					<-secondReplay
				}
			}),
		})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { inf.RunWithContext(ctx) })
		synctest.Wait()
		if !inf.HasSynced() {
			t.Fatal("the informer, with no handler, did not sync before its processor started: the interleaving this test needs cannot happen")
		}

		var handled atomic.Int32
		inSecond := make(chan struct{})
		handler := informer.ResourceEventHandlerFuncs{AddFunc: func(any) {
			if handled.Add(1) == 2 {
				<-inSecond
			}
		}}
		var reg informer.ResourceEventHandlerRegistration
		added := make(chan struct{})
		go func() {
			defer close(added)
			var err error
			if reg, err = inf.AddEventHandlerWithOptions(handler, informer.HandlerOptions{Name: "late"}); err != nil {
				t.Error(err)
			}
		}()
		synctest.Wait() // the replay's first Add waits for a listener that has not started
		close(startProcessor)
		synctest.Wait() // the first object is handled; the replay waits before the second
		close(secondReplay)
		<-added
		synctest.Wait() // the handler is in OnAdd of the second object
		if reg == nil {
			t.FailNow()
		}
		if reg.HasSynced() {
			t.Errorf("the registration's HasSynced is true while its handler is still in OnAdd of the second of the 2 replayed objects")
		}
		close(inSecond)
		synctest.Wait()
		if !reg.HasSynced() {
			t.Errorf("the registration's HasSynced is false after its handler returned from OnAdd of every replayed object")
		}
		cancel()
		wg.Wait()
		source.Shutdown()
	})
}

// TestNoChangeIsProcessedWhileALateHandlersReplayIsInProgress places the
// interleaving that holding blockDeltas through the replay forbids. A
// handler joins a running informer that holds a and b; its replay is
// paused (by the Replay seam) after it has read the cache and given the
// handler its first object; then the source changes the other one. As in
// client-go, whose AddEventHandlerWithOptions holds blockDeltas from
// adding the listener to the last replayed add, processLoop must wait for
// the replay: the change may reach no handler before the replay ends, and
// the late handler must get the cache as it read it, then the change.
//
// The real-clock test above catches a replay without the lock most of the
// time; this one every time, and without a sleep: it waits until either
// processLoop is blocked on blockDeltas (the right answer) or the change
// has been distributed (the wrong one), which are the only two ways on.
func TestNoChangeIsProcessedWhileALateHandlersReplayIsInProgress(t *testing.T) {
	source := fcache.NewFakeControllerSource()
	source.Add(newPod("a", "web"))
	source.Add(newPod("b", "web"))

	var replays atomic.Int32
	paused := make(chan *corev1.Pod) // the first replayed object
	resume := make(chan struct{})
	var distributed atomic.Value // what processLoop distributed while the replay was paused
	var inReplay atomic.Bool
	inf := informer.NewSharedIndexInformerWithOptions(source, &corev1.Pod{}, informer.SharedIndexInformerOptions{
		Seams: informer.Seams{
			Replay: func(_ informer.ResourceEventHandler, _ string, obj any) {
				if replays.Add(1) == 1 {
					inReplay.Store(true)
					paused <- obj.(*corev1.Pod)
					<-resume
					inReplay.Store(false)
				}
			},
			Notifier: func(h informer.ResourceEventHandler) informer.ResourceEventHandler {
				return informer.ResourceEventHandlerDetailedFuncs{
					AddFunc: h.OnAdd,
					UpdateFunc: func(oldObj, newObj any) {
						if inReplay.Load() {
							distributed.Store(fmt.Sprintf("OnUpdate(%s)", newObj.(*corev1.Pod).Name))
						}
						h.OnUpdate(oldObj, newObj)
					},
					DeleteFunc: h.OnDelete,
				}
			},
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	var running sync.WaitGroup
	running.Go(func() { inf.RunWithContext(ctx) })
	defer func() {
		cancel()
		running.Wait()
		source.Shutdown()
	}()
	if !informer.WaitForCacheSync(ctx.Done(), inf.HasSynced) {
		t.Fatal("the informer did not sync")
	}

	var mu sync.Mutex
	var late []string
	called := make(chan struct{}, 3)
	handler := informer.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, initial bool) {
			mu.Lock()
			defer mu.Unlock()
			pod := obj.(*corev1.Pod)
			late = append(late, fmt.Sprintf("OnAdd(%s@%s, isInInitialList=%v)", pod.Name, pod.ResourceVersion, initial))
			called <- struct{}{}
		},
		UpdateFunc: func(oldObj, newObj any) {
			mu.Lock()
			defer mu.Unlock()
			o, n := oldObj.(*corev1.Pod), newObj.(*corev1.Pod)
			late = append(late, fmt.Sprintf("OnUpdate(%s@%s, %s@%s)", o.Name, o.ResourceVersion, n.Name, n.ResourceVersion))
			called <- struct{}{}
		},
	}
	release := sync.OnceFunc(func() { close(resume) })
	defer release() // before the informer stops: a paused replay may hold what processLoop waits for
	added := make(chan error, 1)
	go func() {
		_, err := inf.AddEventHandlerWithOptions(handler, informer.HandlerOptions{Name: "late"})
		added <- err
	}()

	var first *corev1.Pod
	select {
	case first = <-paused:
	case err := <-added:
		t.Fatalf("AddEventHandlerWithOptions returned (error: %v) without replaying an object through the Replay seam", err)
	}
	other := map[string]string{"a": "b", "b": "a"}[first.Name]
	before, _, _ := inf.GetStore().GetByKey("ns/" + other)
	changed := newPod(other, "db")
	source.Modify(changed) // sets changed's resourceVersion

	// Wait until one of the two ways on is taken (polling: neither sends
	// a signal; the poll's pace changes nothing but the test's speed).
	for deadline := time.Now().Add(30 * time.Second); distributed.Load() == nil && !processLoopWaitsForBlockDeltas(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s changed at the source, and after 30s processLoop neither distributed it nor waited for blockDeltas", other)
		}
		time.Sleep(time.Millisecond)
	}
	if d := distributed.Load(); d != nil {
		t.Errorf("processLoop distributed %s while a late handler's replay was in progress: the replay does not hold blockDeltas from AddLateListener to its last add, as client-go's does", d)
	}
	release()
	if err := <-added; err != nil {
		t.Fatal(err)
	}
	for range 3 { // the two replayed objects and the change
		select {
		case <-called:
		case <-time.After(30 * time.Second):
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("the late handler got %d calls, want 3: %v", len(late), late)
		}
	}

	want := []string{
		fmt.Sprintf("OnAdd(%s@%s, isInInitialList=true)", first.Name, first.ResourceVersion),
		fmt.Sprintf("OnAdd(%s@%s, isInInitialList=true)", other, before.(*corev1.Pod).ResourceVersion),
		fmt.Sprintf("OnUpdate(%s@%s, %s@%s)", other, before.(*corev1.Pod).ResourceVersion, other, changed.ResourceVersion),
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(want, late); diff != "" {
		t.Errorf("the late handler's calls: want the cache as its replay read it, then the change (-want +got):\n%s", diff)
	}
}

// processLoopWaitsForBlockDeltas reports whether a goroutine is blocked
// taking blockDeltas in handleDeltas or handleBatchDeltas: processLoop with
// an item in hand, held off by whoever holds the lock.
func processLoopWaitsForBlockDeltas() bool {
	buf := make([]byte, 1<<20)
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		header, _, _ := strings.Cut(g, "\n")
		if strings.Contains(header, "[sync.Mutex.Lock") &&
			(strings.Contains(g, "(*sharedIndexInformer).handleDeltas(") || strings.Contains(g, "(*sharedIndexInformer).handleBatchDeltas(")) {
			return true
		}
	}
	return false
}

// TestALateHandlerJoiningDuringAnItemGetsItOnceLikeClientGo: a handler is
// added while processLoop is in the middle of an item, its cache write not
// yet done. client-go's AddEventHandlerWithOptions takes blockDeltas before
// it adds the listener and reads the cache, so it waits for the item: the
// late handler gets the cache with the change in it, as adds, and never the
// change itself. Then one more change shows it gets the stream.
//
// Each side is paused in the item's cache write, where the informer holds
// blockDeltas: client-go's in an IndexFunc (inside its store's lock, the
// only hook a client-go informer offers there), ours in a Store seam just
// before the write (outside the store's lock, so a replay that reads the
// cache before it takes blockDeltas reads the old state). The late handler
// is added while the item is paused, and the item goes on once the handler's
// goroutine waits for a lock or has returned. A replay that adds the
// listener before taking blockDeltas gets the change twice (a notification,
// then in the replay); one that reads the cache before taking it replays
// the old state and misses the change. The other late-join tests cannot
// tell: they pause the replay after both.
func TestALateHandlerJoiningDuringAnItemGetsItOnceLikeClientGo(t *testing.T) {
	// pausing says whether obj is the change to pause on, once armed.
	pausing := func(armed *atomic.Bool, obj any) bool {
		pod, ok := obj.(*corev1.Pod)
		return ok && pod.Labels["app"] == "paused" && armed.CompareAndSwap(true, false)
	}
	type side struct {
		name string
		// build returns an informer that, once armed, pauses in the cache
		// write of the first object labelled app=paused: it sends on
		// paused and waits for resume.
		build func(source *fcache.FakeControllerSource, armed *atomic.Bool, paused chan<- struct{}, resume <-chan struct{}) lateJoiner
	}
	sides := []side{
		{"client-go", func(source *fcache.FakeControllerSource, armed *atomic.Bool, paused chan<- struct{}, resume <-chan struct{}) lateJoiner {
			inf := cache.NewSharedIndexInformer(source, &corev1.Pod{}, 0, cache.Indexers{"pause": func(obj any) ([]string, error) {
				if pausing(armed, obj) {
					paused <- struct{}{}
					<-resume
				}
				return nil, nil
			}})
			return clientGoJoiner{inf}
		}},
		{"ours", func(source *fcache.FakeControllerSource, armed *atomic.Bool, paused chan<- struct{}, resume <-chan struct{}) lateJoiner {
			return oursJoiner{informer.NewSharedIndexInformerWithOptions(source, &corev1.Pod{}, informer.SharedIndexInformerOptions{
				Seams: informer.Seams{Store: func(s informer.Store) informer.Store {
					return pausingStore{Store: s, pause: func(obj any) {
						if pausing(armed, obj) {
							paused <- struct{}{}
							<-resume
						}
					}}
				}},
			})}
		}},
	}

	calls := map[string][]string{}
	for _, sd := range sides {
		source := fcache.NewFakeControllerSource()
		source.Add(newPod("a", "web"))
		source.Add(newPod("b", "web"))
		var armed atomic.Bool
		paused, resume := make(chan struct{}), make(chan struct{})
		inf := sd.build(source, &armed, paused, resume)
		ctx, cancel := context.WithCancel(context.Background())
		var running sync.WaitGroup
		running.Go(func() { inf.run(ctx) })
		release := sync.OnceFunc(func() { close(resume) })
		stop := func() {
			release()
			cancel()
			running.Wait()
			source.Shutdown()
		}
		if !cache.WaitForCacheSync(ctx.Done(), inf.hasSynced) {
			stop()
			t.Fatalf("%s: the informer did not sync", sd.name)
		}

		armed.Store(true)
		source.Modify(newPod("a", "paused"))
		select {
		case <-paused:
		case <-time.After(30 * time.Second):
			stop()
			t.Fatalf("%s: the change to a never reached the cache write", sd.name)
		}

		late := &callRecorder{got: make(chan struct{}, 16)}
		added := make(chan error, 1)
		go func() { added <- inf.addHandler(late) }()
		// Wait until the late handler's goroutine waits for a lock (the
		// item holds blockDeltas) or AddEventHandler has returned.
		for deadline := time.Now().Add(30 * time.Second); len(added) == 0 && !addEventHandlerWaitsForALock(); {
			if time.Now().After(deadline) {
				stop()
				t.Fatalf("%s: AddEventHandler neither returned nor waited for a lock in 30s", sd.name)
			}
			time.Sleep(time.Millisecond)
		}
		release()
		if err := <-added; err != nil {
			stop()
			t.Fatalf("%s: AddEventHandler: %v", sd.name, err)
		}
		changed := newPod("b", "db")
		source.Modify(changed) // sets changed's resourceVersion
		wantLast := fmt.Sprintf("OnUpdate(b@%s)", changed.ResourceVersion)
		for deadline := time.After(30 * time.Second); !slices.Contains(late.calls(), wantLast); {
			select {
			case <-late.got:
			case <-deadline:
				stop()
				t.Fatalf("%s: the late handler never got b's change; its calls: %v", sd.name, late.calls())
			}
		}
		stop()
		calls[sd.name] = late.calls()
	}
	if diff := cmp.Diff(calls["client-go"], calls["ours"]); diff != "" {
		t.Errorf("a handler added while processLoop writes a's change to the cache, then b changed: its calls differ (-client-go +ours):\n%s", diff)
	}
}

// lateJoiner is what TestALateHandlerJoiningDuringAnItemGetsItOnceLikeClientGo
// needs of either library's informer.
type lateJoiner interface {
	run(ctx context.Context)
	hasSynced() bool
	addHandler(h *callRecorder) error
}

type clientGoJoiner struct{ inf cache.SharedIndexInformer }

func (j clientGoJoiner) run(ctx context.Context) { j.inf.RunWithContext(ctx) }
func (j clientGoJoiner) hasSynced() bool         { return j.inf.HasSynced() }
func (j clientGoJoiner) addHandler(h *callRecorder) error {
	_, err := j.inf.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{AddFunc: h.onAdd, UpdateFunc: h.onUpdate, DeleteFunc: h.onDelete})
	return err
}

type oursJoiner struct{ inf informer.SharedIndexInformer }

func (j oursJoiner) run(ctx context.Context) { j.inf.RunWithContext(ctx) }
func (j oursJoiner) hasSynced() bool         { return j.inf.HasSynced() }
func (j oursJoiner) addHandler(h *callRecorder) error {
	_, err := j.inf.AddEventHandler(informer.ResourceEventHandlerDetailedFuncs{AddFunc: h.onAdd, UpdateFunc: h.onUpdate, DeleteFunc: h.onDelete})
	return err
}

// callRecorder records a handler's calls; the initial adds, which come in
// the cache's map order, are kept sorted.
type callRecorder struct {
	mu  sync.Mutex
	log []string
	got chan struct{}
}

func (r *callRecorder) record(call string, initial bool) {
	r.mu.Lock()
	r.log = append(r.log, call)
	if initial { // sort the run of initial adds this one ends
		i := len(r.log) - 1
		for i > 0 && strings.HasSuffix(r.log[i-1], "isInInitialList=true)") {
			i--
		}
		slices.Sort(r.log[i:])
	}
	r.mu.Unlock()
	select {
	case r.got <- struct{}{}:
	default:
	}
}

func (r *callRecorder) onAdd(obj any, initial bool) {
	pod := obj.(*corev1.Pod)
	r.record(fmt.Sprintf("OnAdd(%s@%s, isInInitialList=%v)", pod.Name, pod.ResourceVersion, initial), initial)
}

func (r *callRecorder) onUpdate(oldObj, newObj any) {
	o, n := oldObj.(*corev1.Pod), newObj.(*corev1.Pod)
	if o.ResourceVersion == n.ResourceVersion {
		r.record(fmt.Sprintf("OnUpdate(%s@%s, same resourceVersion)", n.Name, n.ResourceVersion), false)
		return
	}
	r.record(fmt.Sprintf("OnUpdate(%s@%s)", n.Name, n.ResourceVersion), false)
}

func (r *callRecorder) onDelete(obj any) { r.record(fmt.Sprintf("OnDelete(%T)", obj), false) }

func (r *callRecorder) calls() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.log)
}

// pausingStore is a cache that calls pause before each write.
type pausingStore struct {
	informer.Store
	pause func(obj any)
}

func (s pausingStore) Add(obj any) error    { s.pause(obj); return s.Store.Add(obj) }
func (s pausingStore) Update(obj any) error { s.pause(obj); return s.Store.Update(obj) }

// addEventHandlerWaitsForALock reports whether a goroutine is blocked
// taking a mutex inside AddEventHandlerWithOptions (either library's).
func addEventHandlerWaitsForALock() bool {
	buf := make([]byte, 1<<20)
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		header, _, _ := strings.Cut(g, "\n")
		if strings.Contains(header, "[sync.Mutex.Lock") && strings.Contains(g, ").AddEventHandlerWithOptions(") {
			return true
		}
	}
	return false
}
