package processor

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	fcache "k8s.io/client-go/tools/cache/testing"
	"k8s.io/utils/ptr"
)

// The delivery differential: client-go's SharedIndexInformer runs on a
// FakeControllerSource, ours is a SharedProcessor fed the same stream by the
// feeder; both run inside a testing/synctest bubble, so time is fake and
// identical on both sides (client-go's informer takes no clock, synctest
// fakes time.Now, timers and sleeps for everything in the bubble). Each
// handler's calls, with the fake time of each call, and the time its
// registration's HasSynced became true must match.

// handlerSpec is one handler in a scenario.
type handlerSpec struct {
	name   string
	resync *time.Duration // nil: AddEventHandler, the informer's default
	delay  time.Duration  // sleep in each call: a slow handler
	filter bool           // wrap in FilteringResourceEventHandler (app=web)
	addAt  time.Duration  // 0: before the informer runs; else added while running
	// removeAt, if set, removes the handler at that time.
	removeAt time.Duration
	// panicOn, if set, makes the handler panic on the calls it matches.
	panicOn func(call) bool
}

// sourceOp is a change at the source.
type sourceOp struct {
	at   time.Duration
	op   string // add, modify, delete
	name string
	app  string
}

type scenario struct {
	name           string
	informerResync time.Duration
	initial        []sourceOp // in the source before the informer starts
	handlers       []handlerSpec
	ops            []sourceOp
	stopAt         time.Duration
}

// outcome is what one side produced.
type outcome struct {
	Calls map[string][]string // handler → canonical calls
	// SyncedAt is when each registration's HasSynced became true; absent if
	// it never did.
	SyncedAt map[string]time.Duration
}

// side is one implementation under test.
type side interface {
	seed(pod *corev1.Pod)
	addHandler(h handlerSpec, rec *recorder) (hasSynced <-chan struct{}, remove func() error, err error)
	run(ctx context.Context)
	apply(op string, pod *corev1.Pod)
	shutdown()
}

func isWeb(obj any) bool {
	pod, ok := obj.(*corev1.Pod)
	return ok && pod.Labels["app"] == "web"
}

// --- client-go ---

type clientGoSide struct {
	source   *fcache.FakeControllerSource
	informer cache.SharedIndexInformer
}

func newClientGoSide(sc scenario) *clientGoSide {
	source := fcache.NewFakeControllerSource()
	return &clientGoSide{
		source:   source,
		informer: cache.NewSharedIndexInformer(source, &corev1.Pod{}, sc.informerResync, cache.Indexers{}),
	}
}

func (c *clientGoSide) seed(pod *corev1.Pod) { c.source.Add(pod) }

func (c *clientGoSide) addHandler(h handlerSpec, rec *recorder) (<-chan struct{}, func() error, error) {
	var handler cache.ResourceEventHandler = rec
	if h.filter {
		handler = cache.FilteringResourceEventHandler{FilterFunc: isWeb, Handler: rec}
	}
	var reg cache.ResourceEventHandlerRegistration
	var err error
	if h.resync == nil {
		reg, err = c.informer.AddEventHandler(handler)
	} else {
		reg, err = c.informer.AddEventHandlerWithResyncPeriod(handler, *h.resync)
	}
	if err != nil {
		return nil, nil, err
	}
	return reg.HasSyncedChecker().Done(), func() error { return c.informer.RemoveEventHandler(reg) }, nil
}

func (c *clientGoSide) run(ctx context.Context) { c.informer.RunWithContext(ctx) }

func (c *clientGoSide) apply(op string, pod *corev1.Pod) {
	switch op {
	case "add":
		c.source.Add(pod)
	case "modify":
		c.source.Modify(pod)
	case "delete":
		c.source.Delete(pod)
	}
}

func (c *clientGoSide) shutdown() { c.source.Shutdown() }

// --- ours ---

type ourSide struct{ f *feeder }

func newOurSide(sc scenario) *ourSide { return newOurSideWithOptions(sc, ProcessorOptions{}) }

func newOurSideWithOptions(sc scenario, opts ProcessorOptions) *ourSide {
	return &ourSide{f: newFeeder(sc.informerResync, opts)}
}

func (o *ourSide) seed(pod *corev1.Pod) { o.f.seed(pod) }

func (o *ourSide) addHandler(h handlerSpec, rec *recorder) (<-chan struct{}, func() error, error) {
	var handler ResourceEventHandler = rec
	if h.filter {
		handler = FilteringResourceEventHandler{FilterFunc: isWeb, Handler: rec}
	}
	reg, err := o.f.AddEventHandler(handler, h.resync)
	if err != nil {
		return nil, nil, err
	}
	return reg.HasSyncedChecker().Done(), func() error { return o.f.RemoveEventHandler(reg) }, nil
}

func (o *ourSide) run(ctx context.Context)          { o.f.Run(ctx) }
func (o *ourSide) apply(op string, pod *corev1.Pod) { o.f.apply(op, pod) }
func (o *ourSide) shutdown()                        {}

// play runs a scenario on one side, inside the caller's synctest bubble.
func play(t *testing.T, sc scenario, s side) outcome {
	t.Helper()
	start := time.Now()
	for _, op := range sc.initial {
		s.seed(newPod(op.name, op.app))
	}

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	recorders := map[string]*recorder{}
	syncedAt := map[string]time.Duration{}
	removers := map[string]func() error{}

	register := func(h handlerSpec) {
		rec := newRecorder(start, h.delay)
		rec.panicOn = h.panicOn
		done, remove, err := s.addHandler(h, rec)
		if err != nil {
			t.Fatalf("adding handler %s: %v", h.name, err)
		}
		recorders[h.name], removers[h.name] = rec, remove
		wg.Go(func() {
			select {
			case <-done:
				mu.Lock()
				syncedAt[h.name] = time.Since(start)
				mu.Unlock()
			case <-ctx.Done():
			}
		})
	}

	// The timeline: late handlers, removals and source changes, in time order.
	type action struct {
		at time.Duration
		do func()
	}
	var actions []action
	for _, h := range sc.handlers {
		if h.addAt == 0 {
			register(h)
		} else {
			actions = append(actions, action{h.addAt, func() { register(h) }})
		}
		if h.removeAt != 0 {
			actions = append(actions, action{h.removeAt, func() {
				if err := removers[h.name](); err != nil {
					t.Errorf("removing handler %s: %v", h.name, err)
				}
			}})
		}
	}
	for _, op := range sc.ops {
		actions = append(actions, action{op.at, func() { s.apply(op.op, newPod(op.name, op.app)) }})
	}
	slices.SortStableFunc(actions, func(a, b action) int { return int(a.at - b.at) })

	var runWG sync.WaitGroup
	runWG.Go(func() { s.run(ctx) })
	for _, a := range actions {
		time.Sleep(a.at - time.Since(start))
		a.do()
	}
	time.Sleep(sc.stopAt - time.Since(start))
	cancel()
	runWG.Wait()
	wg.Wait()
	s.shutdown()

	out := outcome{Calls: map[string][]string{}, SyncedAt: syncedAt}
	for name, rec := range recorders {
		out.Calls[name] = canonical(rec.snapshot())
	}
	return out
}

// Times: resync ticks fall on whole seconds, so every scripted action and
// the stop happen between them (x.1s … x.7s): an action and a tick at the
// same instant would race on both sides alike, but not identically.
var deliveryScenarios = []scenario{
	{
		name:           "mixed handlers on an informer that resyncs every second",
		informerResync: time.Second,
		initial:        []sourceOp{{name: "a", app: "web"}, {name: "b", app: "db"}, {name: "c", app: "web"}},
		handlers: []handlerSpec{
			{name: "fast, no resync", resync: ptr.To(time.Duration(0))},
			{name: "default resync", removeAt: 4700 * time.Millisecond},
			{name: "resync 3s", resync: ptr.To(3 * time.Second)},
			{name: "slow, no resync", resync: ptr.To(time.Duration(0)), delay: 300 * time.Millisecond},
			{name: "filtered app=web, resync 2s", resync: ptr.To(2 * time.Second), filter: true},
			{name: "late, asks 500ms", resync: ptr.To(500 * time.Millisecond), addAt: 1600 * time.Millisecond},
		},
		ops: []sourceOp{
			{at: 100 * time.Millisecond, op: "modify", name: "a", app: "web"},
			{at: 200 * time.Millisecond, op: "add", name: "d", app: "web"},
			{at: 300 * time.Millisecond, op: "modify", name: "b", app: "web"}, // enters the filter: an add
			{at: 2100 * time.Millisecond, op: "delete", name: "c", app: "web"},
			{at: 2200 * time.Millisecond, op: "modify", name: "d", app: "db"}, // leaves the filter: a delete
			{at: 5300 * time.Millisecond, op: "modify", name: "a", app: "web"},
		},
		stopAt: 7500 * time.Millisecond,
	},
	{
		name:           "an informer without resync ignores the periods handlers ask for",
		informerResync: 0,
		initial:        []sourceOp{{name: "a", app: "web"}, {name: "b", app: "web"}},
		handlers: []handlerSpec{
			{name: "asks 2s", resync: ptr.To(2 * time.Second)},
			{name: "default"},
			{name: "late, asks 1s", resync: ptr.To(time.Second), addAt: 1500 * time.Millisecond},
		},
		ops:    []sourceOp{{at: 2500 * time.Millisecond, op: "modify", name: "a", app: "web"}},
		stopAt: 5500 * time.Millisecond,
	},
	{
		name:           "a short request before start lowers the check period; one after start is raised to it",
		informerResync: 10 * time.Second,
		initial:        []sourceOp{{name: "a", app: "web"}},
		handlers: []handlerSpec{
			{name: "default 10s"},
			{name: "asks 1.5s", resync: ptr.To(1500 * time.Millisecond)},
			{name: "asks 300ms, gets the 1s minimum", resync: ptr.To(300 * time.Millisecond)},
			{name: "late, asks 1s, check is 1s", resync: ptr.To(time.Second), addAt: 2300 * time.Millisecond},
			{name: "late slow, no resync", resync: ptr.To(time.Duration(0)), addAt: 2400 * time.Millisecond, delay: 2 * time.Second},
		},
		ops:    []sourceOp{{at: 2600 * time.Millisecond, op: "add", name: "b", app: "web"}},
		stopAt: 12500 * time.Millisecond,
	},
	{
		// The reflector's tick rate is fixed once the informer runs, so a
		// late request under it is raised to it: this handler's first
		// resync is at 6s, not at the 3s tick.
		name:           "a handler added after the start asking less than the check period gets the check period",
		informerResync: 3 * time.Second,
		initial:        []sourceOp{{name: "a", app: "web"}},
		handlers: []handlerSpec{
			{name: "default 3s"},
			{name: "late, asks 1s, gets 3s", resync: ptr.To(time.Second), addAt: 1500 * time.Millisecond},
		},
		stopAt: 7500 * time.Millisecond,
	},
}

func TestDeliveryMatchesClientGoInformer(t *testing.T) {
	for _, sc := range deliveryScenarios {
		t.Run(sc.name, func(t *testing.T) {
			var theirs, ours outcome
			synctest.Test(t, func(t *testing.T) { theirs = play(t, sc, newClientGoSide(sc)) })
			synctest.Test(t, func(t *testing.T) { ours = play(t, sc, newOurSide(sc)) })
			if diff := cmp.Diff(theirs, ours); diff != "" {
				t.Errorf("handlers saw different calls (-client-go +ours):\n%s", diff)
			}
			logOutcome(t, ours)
		})
	}
}

// logOutcome prints an outcome with go test -v: the timelines the chapter
// talks about.
func logOutcome(t *testing.T, o outcome) {
	if !testing.Verbose() {
		return
	}
	names := slices.Sorted(maps.Keys(o.Calls))
	for _, name := range names {
		synced := "never synced"
		if at, ok := o.SyncedAt[name]; ok {
			synced = fmt.Sprintf("synced at %v", at)
		}
		t.Logf("%s (%s):", name, synced)
		for _, c := range o.Calls[name] {
			t.Logf("    %s", c)
		}
	}
}
