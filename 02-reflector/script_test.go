package reflector_test

// The script of the scripted differential tests: a ListerWatcher that
// answers LIST and WATCH from a scenario, and the objects and events the
// scenarios are written with.

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
)

type listReply struct {
	list runtime.Object
	err  error
}

// timedEvent is a watch event sent after a pause (virtual time).
type timedEvent struct {
	pause time.Duration
	event watch.Event
}

type watchReply struct {
	err error
	// delay holds the answer to the request back that long (virtual time),
	// as a proxy that flushes no headers before the first event (or the
	// close) does.
	delay  time.Duration
	events []timedEvent
	// closeAfter keeps the stream open that long after the last event
	// before the server closes it; zero closes it at once.
	closeAfter time.Duration
}

type storeKind int

const (
	plainStore storeKind = iota
	bookmarkStore
	rvUpdaterStore
	// transformingStore is a TransformingStore whose transform is recorded
	// and marks what it returns (see recStore.transform).
	transformingStore
)

type scenario struct {
	name      string
	watchList bool
	lists     []listReply
	watches   []watchReply

	store storeKind
	// failReplace makes the first n Replace calls fail.
	failReplace int
	// Store calls on objects named fail-* fail; so does Bookmark("99").

	resync        time.Duration
	shouldResync  []bool // answers in order; true once used up
	failResyncAt  int    // the nth Resync fails (1-based; 0 never)
	pageSize      int64
	maxInternal   time.Duration
	expectedType  any // nil means &corev1.Pod{}; use noType for none
	noType        bool
	defaultBackof bool // the real, jittered backoff: times are not compared
	// minWatchTimeout is passed to both as ReflectorOptions.MinWatchTimeout.
	minWatchTimeout time.Duration

	// after is how long (virtual time) both reflectors keep running once
	// the script is used up, for resyncs to happen.
	after time.Duration
}

// deterministicBackoff is client-go's default backoff without jitter, so the
// two timelines can be compared to the nanosecond.
var deterministicBackoff = wait.Backoff{Duration: 800 * time.Millisecond, Factor: 2, Jitter: 0, Steps: 38, Cap: 30 * time.Second}

// scriptLW answers LIST and WATCH from the script, in order, and records each
// request. When a queue is used up it signals exhausted and blocks (a LIST
// until the context ends; a WATCH stays open with no events).
type scriptLW struct {
	rec *recorder
	// minTimeout is the lower bound client-go sets on watch timeouts for
	// this scenario: MinWatchTimeout, but never below 5 minutes.
	minTimeout int64
	// called is closed at the first request.
	called    chan struct{}
	firstCall sync.Once
	mu        sync.Mutex
	lists     []listReply
	watches   []watchReply
	exhausted chan struct{}
	once      sync.Once
	// timeouts are the timeoutSeconds of every WATCH, in order: the log
	// leaves them out because they are random.
	timeouts []int64
	// opened are the watches handed out, for leftOpen.
	opened []*scriptWatch
}

// scriptDeadline bounds, in virtual time, how long a test waits for a
// reflector to use up its script. It is far longer than any scenario
// needs: only a reflector that stopped asking meets it, and the test then
// fails with what it did instead of hanging.
const scriptDeadline = time.Hour

// usedUp waits until the script is used up, or scriptDeadline of virtual
// time has passed, and reports which came first.
func (lw *scriptLW) usedUp() bool {
	t := time.NewTimer(scriptDeadline)
	defer t.Stop()
	select {
	case <-lw.exhausted:
		return true
	case <-t.C:
		return false
	}
}

// leftOpen stops the watches the reflector never stopped (every watch a
// reflector starts, it must stop), so that the test's bubble can end, and
// says how many there were.
func (lw *scriptLW) leftOpen() int {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	n := 0
	for _, w := range lw.opened {
		select {
		case <-w.stopped:
		default:
			n++
			w.Stop()
		}
	}
	return n
}

func newScriptLW(sc scenario, rec *recorder) *scriptLW {
	lw := &scriptLW{rec: rec, exhausted: make(chan struct{}), called: make(chan struct{}),
		minTimeout: int64(max(5*time.Minute, sc.minWatchTimeout).Seconds())}
	for _, l := range sc.lists {
		if l.list != nil {
			l.list = l.list.DeepCopyObject()
		}
		lw.lists = append(lw.lists, l)
	}
	for _, w := range sc.watches {
		events := make([]timedEvent, len(w.events))
		for i, e := range w.events {
			events[i] = e
			if e.event.Object != nil {
				events[i].event.Object = e.event.Object.DeepCopyObject()
			}
		}
		w.events = events
		lw.watches = append(lw.watches, w)
	}
	return lw
}

func (lw *scriptLW) record(call string, opts metav1.ListOptions) {
	lw.firstCall.Do(func() { close(lw.called) })
	arg := ""
	if call == "WATCH" {
		// The timeout is random: check its range, then leave it out.
		lo, hi := lw.minTimeout, 2*lw.minTimeout
		if t := opts.TimeoutSeconds; t != nil {
			lw.mu.Lock()
			lw.timeouts = append(lw.timeouts, *t)
			lw.mu.Unlock()
		}
		switch t := opts.TimeoutSeconds; {
		case t == nil:
			arg = "no timeout"
		case *t < lo || *t >= hi:
			arg = fmt.Sprintf("timeout %ds outside [%ds, %ds)", *t, lo, hi)
		default:
			arg = "timeout in range"
		}
	}
	opts.TimeoutSeconds = nil
	lw.rec.add(entry{Call: call, Opts: &opts, Arg: arg})
}

func (lw *scriptLW) ListWithContext(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	lw.record("LIST", opts)
	lw.mu.Lock()
	if len(lw.lists) == 0 {
		lw.mu.Unlock()
		lw.once.Do(func() { close(lw.exhausted) })
		<-ctx.Done()
		return nil, ctx.Err()
	}
	reply := lw.lists[0]
	lw.lists = lw.lists[1:]
	lw.mu.Unlock()
	return reply.list, reply.err
}

func (lw *scriptLW) WatchWithContext(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	lw.record("WATCH", opts)
	lw.mu.Lock()
	if len(lw.watches) == 0 {
		w := newScriptWatch(watchReply{closeAfter: -1})
		lw.opened = append(lw.opened, w)
		lw.mu.Unlock()
		lw.once.Do(func() { close(lw.exhausted) })
		return w, nil
	}
	reply := lw.watches[0]
	lw.watches = lw.watches[1:]
	lw.mu.Unlock()
	if reply.delay > 0 {
		t := time.NewTimer(reply.delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if reply.err != nil {
		return nil, reply.err
	}
	w := newScriptWatch(reply)
	lw.mu.Lock()
	lw.opened = append(lw.opened, w)
	lw.mu.Unlock()
	return w, nil
}

// The deprecated forms, which both NewReflectorWithOptions accept.
func (lw *scriptLW) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

func (lw *scriptLW) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}

// scriptWatch sends its events from a goroutine, one at a time, then closes
// (closeAfter >= 0) or stays open (closeAfter < 0) until stopped.
type scriptWatch struct {
	ch      chan watch.Event
	stopped chan struct{}
	once    sync.Once
}

func newScriptWatch(reply watchReply) *scriptWatch {
	w := &scriptWatch{ch: make(chan watch.Event), stopped: make(chan struct{})}
	go w.send(reply)
	return w
}

func (w *scriptWatch) send(reply watchReply) {
	for _, e := range reply.events {
		if e.pause > 0 && !w.wait(e.pause) {
			return
		}
		select {
		case w.ch <- e.event:
		case <-w.stopped:
			return
		}
	}
	if reply.closeAfter < 0 {
		<-w.stopped
		return
	}
	if reply.closeAfter > 0 && !w.wait(reply.closeAfter) {
		return
	}
	close(w.ch)
}

func (w *scriptWatch) wait(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-w.stopped:
		return false
	}
}

func (w *scriptWatch) Stop()                          { w.once.Do(func() { close(w.stopped) }) }
func (w *scriptWatch) ResultChan() <-chan watch.Event { return w.ch }

func pod(name, rv string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
}

func podList(rv, cont string, pods ...*corev1.Pod) *corev1.PodList {
	l := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: rv, Continue: cont}}
	for _, p := range pods {
		l.Items = append(l.Items, *p)
	}
	return l
}

func ev(t watch.EventType, obj runtime.Object) timedEvent {
	return timedEvent{event: watch.Event{Type: t, Object: obj}}
}

func after(d time.Duration, e timedEvent) timedEvent {
	e.pause = d
	return e
}

func added(p *corev1.Pod) timedEvent    { return ev(watch.Added, p) }
func modified(p *corev1.Pod) timedEvent { return ev(watch.Modified, p) }
func deleted(p *corev1.Pod) timedEvent  { return ev(watch.Deleted, p) }

// bookmark is what a server sends: an object of the watched type that
// carries only a resourceVersion.
func bookmark(rv string) timedEvent {
	return ev(watch.Bookmark, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: rv}})
}

// initialEventsEnd is the bookmark that closes a WatchList stream's initial
// events.
func initialEventsEnd(rv string) timedEvent {
	return annotatedBookmark(rv, "true")
}

func annotatedBookmark(rv, value string) timedEvent {
	return ev(watch.Bookmark, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		ResourceVersion: rv,
		Annotations:     map[string]string{metav1.InitialEventsAnnotationKey: value},
	}})
}

// errorEvent is an ERROR event carrying the Status of err.
func errorEvent(err interface{ Status() metav1.Status }) timedEvent {
	status := err.Status()
	return ev(watch.Error, &status)
}
