package reflector_test

// The harness of the scripted differential tests: a ListerWatcher that
// answers from a script, a store that records every call, and runBoth, which
// runs client-go's Reflector and ours over the same script, each in its own
// synctest bubble (so every backoff and resync happens in virtual time),
// and compares what they did.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"

	reflector "informer-from-scratch/02-reflector"
)

// entry is one thing a reflector did: a request it sent (with its options),
// a call it made on its store, or an error it reported.
type entry struct {
	// At is the virtual time since the start. With the jittered backoff it
	// is checked against the backoff's range, then cleared.
	At   time.Duration
	Call string
	Opts *metav1.ListOptions
	Arg  string
}

func (e entry) String() string {
	s := fmt.Sprintf("%8v %-11s", e.At, e.Call)
	if o := e.Opts; o != nil {
		s += fmt.Sprintf(" rv=%q", o.ResourceVersion)
		if o.ResourceVersionMatch != "" {
			s += " match=" + string(o.ResourceVersionMatch)
		}
		if o.Limit != 0 {
			s += fmt.Sprintf(" limit=%d", o.Limit)
		}
		if o.Continue != "" {
			s += " continue=" + o.Continue
		}
		if o.AllowWatchBookmarks {
			s += " allowWatchBookmarks"
		}
		if o.SendInitialEvents != nil {
			s += fmt.Sprintf(" sendInitialEvents=%v", *o.SendInitialEvents)
		}
	}
	return s + " " + e.Arg
}

// recorder collects entries from every goroutine of one reflector.
type recorder struct {
	mu      sync.Mutex
	start   time.Time
	closed  bool
	entries []entry
}

func newRecorder() *recorder { return &recorder{start: time.Now()} }

func (r *recorder) add(e entry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	e.At = time.Since(r.start)
	r.entries = append(r.entries, e)
}

// close stops recording: what a reflector does while it is being stopped is
// not part of the comparison.
func (r *recorder) close() []entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	return slices.Clone(r.entries)
}

// ---- the script ----

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
	err    error
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
		lw.mu.Unlock()
		lw.once.Do(func() { close(lw.exhausted) })
		return newScriptWatch(watchReply{closeAfter: -1}), nil
	}
	reply := lw.watches[0]
	lw.watches = lw.watches[1:]
	lw.mu.Unlock()
	if reply.err != nil {
		return nil, reply.err
	}
	return newScriptWatch(reply), nil
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

// ---- the recording store ----

// recStore records every call and keeps the content, so tests can compare
// both what was called and what the store ends up holding.
type recStore struct {
	rec         *recorder
	mu          sync.Mutex
	items       map[string]string // key → resourceVersion
	failReplace int
	failResync  int
	resyncs     int
}

func newRecStore(sc scenario, rec *recorder) *recStore {
	return &recStore{rec: rec, items: map[string]string{}, failReplace: sc.failReplace, failResync: sc.failResyncAt}
}

func describe(obj any) (key, rv string) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("<%T without metadata>", obj), ""
	}
	key = m.GetName()
	if m.GetNamespace() != "" {
		key = m.GetNamespace() + "/" + key
	}
	return key, m.GetResourceVersion()
}

func (s *recStore) call(name string, obj any, apply func(key, rv string)) error {
	key, rv := describe(obj)
	s.rec.add(entry{Call: name, Arg: key + "@" + rv})
	if strings.HasPrefix(key, "ns/fail-") {
		return fmt.Errorf("store refuses %s", key)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	apply(key, rv)
	return nil
}

func (s *recStore) Add(obj any) error {
	return s.call("Add", obj, func(k, rv string) { s.items[k] = rv })
}

func (s *recStore) Update(obj any) error {
	return s.call("Update", obj, func(k, rv string) { s.items[k] = rv })
}

func (s *recStore) Delete(obj any) error {
	return s.call("Delete", obj, func(k, _ string) { delete(s.items, k) })
}

// Replace records the items sorted: a WatchList reflector hands them over
// in map order.
func (s *recStore) Replace(list []any, rv string) error {
	var items []string
	for _, obj := range list {
		k, v := describe(obj)
		items = append(items, k+"@"+v)
	}
	slices.Sort(items)
	s.rec.add(entry{Call: "Replace", Arg: fmt.Sprintf("%v rv=%s", items, rv)})
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failReplace > 0 {
		s.failReplace--
		return fmt.Errorf("store refuses Replace")
	}
	s.items = map[string]string{}
	for _, obj := range list {
		k, v := describe(obj)
		s.items[k] = v
	}
	return nil
}

func (s *recStore) Resync() error {
	s.rec.add(entry{Call: "Resync"})
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resyncs++
	if s.resyncs == s.failResync {
		return fmt.Errorf("store refuses Resync #%d", s.resyncs)
	}
	return nil
}

func (s *recStore) content() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return copyMap(s.items)
}

func copyMap(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

type bookmarkRecStore struct{ *recStore }

func (s bookmarkRecStore) Bookmark(rv string) error {
	s.rec.add(entry{Call: "Bookmark", Arg: rv})
	if rv == "99" {
		return fmt.Errorf("store refuses bookmark 99")
	}
	return nil
}

type rvUpdaterRecStore struct{ *recStore }

func (s rvUpdaterRecStore) UpdateResourceVersion(rv string) {
	s.rec.add(entry{Call: "UpdateResourceVersion", Arg: rv})
}

// storeFor wraps s as the scenario asks; the same value satisfies both
// packages' ReflectorStore (and Bookmark/ResourceVersionUpdater interfaces).
func storeFor(sc scenario, s *recStore) interface {
	reflector.ReflectorStore
	cache.ReflectorStore
} {
	switch sc.store {
	case bookmarkStore:
		return bookmarkRecStore{s}
	case rvUpdaterStore:
		return rvUpdaterRecStore{s}
	}
	return s
}

// ---- running both ----

type side string

const (
	clientGo side = "client-go"
	ours     side = "ours"
)

// outcome is what one reflector did with a scenario.
type outcome struct {
	Log     []entry
	Store   map[string]string
	LastRV  string
	Resyncs int
}

// runner abstracts the two reflectors for the harness.
type runner interface {
	RunWithContext(ctx context.Context)
	ListAndWatchWithContext(ctx context.Context) error
	LastSyncResourceVersion() string
	Name() string
	TypeDescription() string
}

func newReflector(s side, sc scenario, lw *scriptLW, store *recStore) runner {
	return newReflectorWithClock(s, sc, lw, store, nil)
}

// newReflectorWithClock builds one side's reflector for the scenario; a nil
// clock means the real one (which synctest makes virtual).
func newReflectorWithClock(s side, sc scenario, lw *scriptLW, store *recStore, c clock.Clock) runner {
	var expected any = &corev1.Pod{}
	if sc.expectedType != nil {
		expected = sc.expectedType
	}
	if sc.noType {
		expected = nil
	}
	backoff := deterministicBackoff
	var b *wait.Backoff
	if !sc.defaultBackof {
		b = &backoff
	}
	shouldResync := func() func() bool {
		answers := slices.Clone(sc.shouldResync)
		return func() bool {
			if len(answers) == 0 {
				return true
			}
			a := answers[0]
			answers = answers[1:]
			return a
		}
	}()
	switch s {
	case clientGo:
		r := cache.NewReflectorWithOptions(lw, expected, storeFor(sc, store), cache.ReflectorOptions{
			Name: "scripted", ResyncPeriod: sc.resync, Backoff: b, Clock: c, MinWatchTimeout: sc.minWatchTimeout,
		})
		r.ShouldResync = shouldResync
		r.WatchListPageSize = sc.pageSize
		r.MaxInternalErrorRetryDuration = sc.maxInternal
		return r
	default:
		r := reflector.NewReflectorWithOptions(lw, expected, storeFor(sc, store), reflector.ReflectorOptions{
			Name: "scripted", ResyncPeriod: sc.resync, Backoff: b, Clock: c, MinWatchTimeout: sc.minWatchTimeout,
			UseWatchList: ptr.To(sc.watchList),
		})
		r.ShouldResync = shouldResync
		r.WatchListPageSize = sc.pageSize
		r.MaxInternalErrorRetryDuration = sc.maxInternal
		return r
	}
}

// run runs one reflector over the scenario in a synctest bubble, until it
// has used up the script and (virtual) sc.after has passed.
func run(t *testing.T, s side, sc scenario) outcome {
	var out outcome
	synctest.Test(t, func(t *testing.T) {
		rec := newRecorder()
		lw := newScriptLW(sc, rec)
		store := newRecStore(sc, rec)
		r := newReflector(s, sc, lw, store)
		ctx, cancel := context.WithCancel(context.WithValue(context.Background(), recorderKey{}, rec))
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.RunWithContext(ctx)
		}()
		<-lw.exhausted
		time.Sleep(sc.after)
		synctest.Wait()
		out = outcome{Log: rec.close(), Store: store.content(), LastRV: r.LastSyncResourceVersion(), Resyncs: store.resyncs}
		cancel()
		<-done
	})
	return out
}

// runBoth runs the scenario on client-go's reflector (with the
// WatchListClient gate set to match) and on ours, and fails with a diff if
// they did anything differently.
func runBoth(t *testing.T, sc scenario) (cg, our outcome) {
	t.Helper()
	clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, sc.watchList)
	cg = run(t, clientGo, sc)
	our = run(t, ours, sc)
	if sc.defaultBackof {
		checkJitteredBackoff(t, clientGo, cg.Log)
		checkJitteredBackoff(t, ours, our.Log)
		clearTimes(cg.Log)
		clearTimes(our.Log)
	}
	if diff := cmp.Diff(cg, our); diff != "" {
		t.Errorf("the reflectors behaved differently (-client-go +ours):\n%s\nclient-go did:\n%s", diff, logString(cg.Log))
	}
	return cg, our
}

func clearTimes(log []entry) {
	for i := range log {
		log[i].At = 0
	}
}

func logString(log []entry) string {
	var b strings.Builder
	for _, e := range log {
		b.WriteString("  " + e.String() + "\n")
	}
	return b.String()
}

// ---- objects ----

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
