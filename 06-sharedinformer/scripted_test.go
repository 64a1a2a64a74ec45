package informer_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fcache "k8s.io/client-go/tools/cache/testing"
	"k8s.io/utils/ptr"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/06-sharedinformer/observe"
)

// The scripted differential: client-go's SharedIndexInformer and ours, each
// on a FakeControllerSource of its own, inside a testing/synctest bubble of
// its own (client-go's informer takes no clock; synctest fakes time for
// everything in the bubble, so both sides live through the same fake
// seconds). The same timeline of source changes, late handlers and removals
// is played on both, and each handler's calls, the time its registration's
// HasSynced turned true, the informer's HasSynced and the final cache must
// match.

// op is one change at the source, or "resetWatch": every watch ends and the
// source forgets its history, so the next watch gets 410 and the informer
// relists. The …DropWatch ops change the source without a watch event: only
// a relist can notice them.
type op struct {
	at   time.Duration
	do   string // add, modify, delete, addDropWatch, modifyDropWatch, deleteDropWatch, resetWatch
	name string
	app  string
}

type scenario struct {
	name      string
	resync    time.Duration // the informer's default resync period
	initial   []op          // in the source before the informer starts (their at is ignored)
	handlers  []handlerSpec
	ops       []op
	stopAt    time.Duration
	transform bool
	// timed compares the fake time of every call. A scenario that relists
	// cannot: the reflector waits a jittered backoff before the relist.
	timed bool
	// reference names the handler that sees everything (added before the
	// start, unfiltered, no resync) against which handlers added during a
	// burst are checked.
	reference string
}

// outcome is what one side produced.
type outcome struct {
	Calls map[string][]string
	// Synced is, per handler, when its registration's HasSynced turned
	// true ("synced", without the time, in untimed scenarios), or "never".
	Synced         map[string]string
	InformerSynced bool
	Cache          map[string]string
	Stopped        bool
	// AddAfterStop is whether a handler added after the stop was refused.
	AddAfterStop string
	// burst holds, untouched, the calls of handlers that joined during a
	// burst: their join point differs between any two runs, so they are
	// checked against the reference handler, not compared (unexported:
	// cmp.Diff ignores it through the option below).
	burst map[string][]call
	ref   []call
}

func newPod(name, app string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: "ns",
			Name:      name,
			Labels:    map[string]string{"app": app},
			// What a server adds to every object, and a transform drops.
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationUpdate}},
		},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "pause"}}},
	}
}

func apply(source *fcache.FakeControllerSource, o op) {
	pod := newPod(o.name, o.app)
	switch o.do {
	case "add":
		source.Add(pod)
	case "modify":
		source.Modify(pod)
	case "delete":
		source.Delete(pod)
	case "addDropWatch":
		source.AddDropWatch(pod)
	case "modifyDropWatch":
		source.ModifyDropWatch(pod)
	case "deleteDropWatch":
		source.DeleteDropWatch(pod)
	case "resetWatch":
		source.ResetWatch()
	default:
		panic("unknown op " + o.do)
	}
}

// play runs a scenario on the side newSide builds over its source, inside
// the caller's synctest bubble.
func play(t *testing.T, sc scenario, newSide func(lw sortedSource) side) outcome {
	t.Helper()
	start := time.Now()
	source := fcache.NewFakeControllerSource()
	for _, o := range sc.initial {
		apply(source, o)
	}
	s := newSide(sortedSource{source})

	ctx, cancel := context.WithCancel(context.Background())
	var watchers sync.WaitGroup
	var mu sync.Mutex
	recorders := map[string]*recorder{}
	synced := map[string]string{}
	regs := map[string]registration{}

	register := func(h handlerSpec) {
		rec := newRecorder(start)
		rec.delay = h.delay
		reg, err := s.addHandler(h, rec)
		if err != nil {
			t.Fatalf("adding handler %s: %v", h.name, err)
		}
		mu.Lock()
		recorders[h.name], regs[h.name], synced[h.name] = rec, reg, "never"
		mu.Unlock()
		watchers.Go(func() {
			select {
			case <-reg.synced:
				at := "synced"
				if sc.timed {
					at = fmt.Sprintf("synced at %v", time.Since(start))
				}
				mu.Lock()
				synced[h.name] = at
				mu.Unlock()
			case <-ctx.Done():
			}
		})
	}

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
				if err := regs[h.name].remove(); err != nil {
					t.Errorf("removing handler %s: %v", h.name, err)
				}
			}})
		}
	}
	for _, o := range sc.ops {
		actions = append(actions, action{o.at, func() { apply(source, o) }})
	}
	slices.SortStableFunc(actions, func(a, b action) int { return int(a.at - b.at) })

	var runner sync.WaitGroup
	runner.Go(func() { s.run(ctx) })
	for _, a := range actions {
		time.Sleep(a.at - time.Since(start))
		a.do()
	}
	time.Sleep(sc.stopAt - time.Since(start))
	synctest.Wait()

	out := outcome{
		Calls:          map[string][]string{},
		InformerSynced: s.hasSynced(),
		Cache:          s.cache(),
		burst:          map[string][]call{},
	}
	// The truth: what the source lists (Shutdown leaves it locked).
	truthList, listErr := source.List(metav1.ListOptions{})
	cancel()
	runner.Wait()
	watchers.Wait()
	source.Shutdown()

	out.Stopped = s.isStopped()
	_, err := s.addHandler(handlerSpec{name: "after stop"}, newRecorder(start))
	out.AddAfterStop = fmt.Sprintf("refused=%v", err != nil)
	out.Synced = synced
	for _, h := range sc.handlers {
		calls := recorders[h.name].snapshot()
		if h.name == sc.reference {
			out.ref = calls
		}
		if h.racesTheSource {
			out.burst[h.name] = calls
			continue
		}
		out.Calls[h.name] = canonical(calls, sc.timed)
	}
	if listErr != nil {
		t.Fatal(listErr)
	}
	if diff := cmp.Diff(storeContent(mustExtract(t, truthList)), out.Cache); diff != "" {
		t.Errorf("the cache differs from the source's final list (-source +cache):\n%s", diff)
	}
	return out
}

var scriptedScenarios = []scenario{
	{
		name:    "watch events reach every kind of handler, in order",
		initial: []op{{do: "add", name: "a", app: "web"}, {do: "add", name: "b", app: "db"}, {do: "add", name: "c", app: "web"}},
		handlers: []handlerSpec{
			{name: "plain"},
			{name: "filtered app=web", filter: true},
			{name: "typed", typed: true},
			{name: "typed, filtered app=web", typed: true, filter: true},
			{name: "slow", delay: 300 * time.Millisecond},
			// Its registration syncs once its replay is handled, not
			// when it joins.
			{name: "late, slow", delay: 300 * time.Millisecond, addAt: 3 * time.Second},
		},
		ops: []op{
			{at: 100 * time.Millisecond, do: "modify", name: "a", app: "web"},
			{at: 200 * time.Millisecond, do: "add", name: "d", app: "web"},
			{at: 300 * time.Millisecond, do: "modify", name: "b", app: "web"}, // enters the filter: an add
			{at: 400 * time.Millisecond, do: "modify", name: "c", app: "db"},  // leaves it: a delete
			{at: 500 * time.Millisecond, do: "delete", name: "a", app: "web"},
		},
		stopAt: 5 * time.Second,
		timed:  true,
	},
	{
		name:    "a delete missed while the watch was down arrives as a tombstone after the relist",
		initial: []op{{do: "add", name: "a", app: "web"}, {do: "add", name: "b", app: "web"}, {do: "add", name: "c", app: "web"}},
		handlers: []handlerSpec{
			{name: "plain"},
			{name: "typed", typed: true},
			{name: "filtered app=web", filter: true},
		},
		ops: []op{
			{at: 1 * time.Second, do: "deleteDropWatch", name: "b", app: "web"},
			{at: 1 * time.Second, do: "modifyDropWatch", name: "a", app: "db"},
			{at: 1 * time.Second, do: "addDropWatch", name: "d", app: "web"},
			{at: 1100 * time.Millisecond, do: "resetWatch"},
			{at: 10 * time.Second, do: "modify", name: "c", app: "web"},
		},
		stopAt: 12 * time.Second,
	},
	{
		name:    "handlers added late get the cache, then every change, nothing twice",
		initial: []op{{do: "add", name: "a", app: "web"}, {do: "add", name: "b", app: "web"}},
		handlers: []handlerSpec{
			{name: "reference"},
			{name: "late, quiet", addAt: 1 * time.Second},
			{name: "late, typed", addAt: 1 * time.Second, typed: true},
			{name: "late, during a burst", addAt: 2 * time.Second, racesTheSource: true},
			{name: "late, during a burst, slow", addAt: 2 * time.Second, delay: 10 * time.Millisecond, racesTheSource: true},
			// The relist comes a jittered 0.8-1.6s after the reset.
			{name: "late, about when the relist comes", addAt: 4 * time.Second, racesTheSource: true},
		},
		ops: []op{
			{at: 1500 * time.Millisecond, do: "add", name: "c", app: "web"},
			{at: 2 * time.Second, do: "add", name: "d", app: "web"},
			{at: 2 * time.Second, do: "modify", name: "a", app: "web"},
			{at: 2 * time.Second, do: "delete", name: "b", app: "web"},
			{at: 2 * time.Second, do: "add", name: "e", app: "web"},
			{at: 2 * time.Second, do: "modify", name: "d", app: "web"},
			{at: 3 * time.Second, do: "deleteDropWatch", name: "c", app: "web"},
			{at: 3 * time.Second, do: "resetWatch"},
			{at: 6 * time.Second, do: "modify", name: "e", app: "web"},
			{at: 9 * time.Second, do: "add", name: "f", app: "web"},
		},
		stopAt:    12 * time.Second,
		reference: "reference",
	},
	{
		name:      "a transform runs once per object: handlers, cache and tombstones hold transformed objects",
		transform: true,
		initial:   []op{{do: "add", name: "a", app: "web"}, {do: "add", name: "b", app: "web"}},
		handlers:  []handlerSpec{{name: "plain"}, {name: "typed", typed: true}, {name: "late", addAt: 500 * time.Millisecond}},
		ops: []op{
			{at: 100 * time.Millisecond, do: "modify", name: "a", app: "web"},
			{at: 1 * time.Second, do: "deleteDropWatch", name: "b", app: "web"},
			{at: 1 * time.Second, do: "resetWatch"},
			{at: 5 * time.Second, do: "add", name: "c", app: "web"},
		},
		stopAt: 8 * time.Second,
	},
	{
		name:    "resync on the fake clock: periods per handler, lowered before the start, raised after",
		resync:  3 * time.Second,
		initial: []op{{do: "add", name: "a", app: "web"}, {do: "add", name: "b", app: "db"}},
		handlers: []handlerSpec{
			{name: "default 3s"},
			{name: "no resync", resync: ptr.To(time.Duration(0))},
			{name: "asks 2s", resync: ptr.To(2 * time.Second)},
			{name: "asks 300ms, gets the 1s minimum", resync: ptr.To(300 * time.Millisecond)},
			{name: "filtered app=web, 5s", resync: ptr.To(5 * time.Second), filter: true},
			{name: "late, asks 500ms, gets the 1s check period", resync: ptr.To(500 * time.Millisecond), addAt: 1500 * time.Millisecond},
			{name: "removed at 4.5s", removeAt: 4500 * time.Millisecond},
		},
		ops: []op{
			{at: 2500 * time.Millisecond, do: "modify", name: "a", app: "web"},
			{at: 3500 * time.Millisecond, do: "add", name: "c", app: "web"},
		},
		stopAt: 7500 * time.Millisecond,
		timed:  true,
	},
	{
		// A relist's unchanged objects are updates with old and new at the
		// same resourceVersion: syncs. After the first resync tick, a
		// handler that never resyncs has its sync flag down, so it does not
		// hear of them; the one whose resync is due does.
		name:    "objects a relist finds unchanged go only to handlers whose resync is due",
		resync:  2 * time.Second,
		initial: []op{{do: "add", name: "a", app: "web"}, {do: "add", name: "b", app: "web"}},
		handlers: []handlerSpec{
			{name: "default 2s"},
			{name: "no resync", resync: ptr.To(time.Duration(0))},
		},
		ops: []op{
			{at: 2100 * time.Millisecond, do: "modifyDropWatch", name: "a", app: "db"},
			{at: 2100 * time.Millisecond, do: "resetWatch"},
		},
		stopAt: 3900 * time.Millisecond,
	},
}

func mustExtract(t *testing.T, list runtime.Object) []any {
	t.Helper()
	items, err := meta.ExtractList(list)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]any, len(items))
	for i, item := range items {
		out[i] = item
	}
	return out
}

// cmpOutcomeOpts compare outcomes; the calls of handlers that joined during
// a burst are checked separately (checkLateJoin).
var cmpOutcomeOpts = []cmp.Option{cmpopts.IgnoreUnexported(outcome{})}

func TestScriptedScenariosMatchClientGo(t *testing.T) {
	for _, sc := range scriptedScenarios {
		t.Run(sc.name, func(t *testing.T) {
			var theirs, ours outcome
			synctest.Test(t, func(t *testing.T) {
				theirs = play(t, sc, func(lw sortedSource) side { return newClientGoShared(lw, sc.resync, sc.transform) })
			})
			synctest.Test(t, func(t *testing.T) {
				ours = play(t, sc, func(lw sortedSource) side {
					return newOurShared(lw, sc.resync, sc.transform, informer.QueueRealFIFO, nil, nil)
				})
			})
			if diff := cmp.Diff(theirs, ours, cmpOutcomeOpts...); diff != "" {
				t.Errorf("the informers differ (-client-go +ours):\n%s", diff)
			}
			// Observing must change nothing a handler sees.
			var observed outcome
			var steps atomic.Int64
			synctest.Test(t, func(t *testing.T) {
				observed = play(t, sc, func(lw sortedSource) side {
					return newOurShared(lw, sc.resync, sc.transform, informer.QueueRealFIFO, func(observe.Observation) { steps.Add(1) }, nil)
				})
			})
			if diff := cmp.Diff(theirs, observed, cmpOutcomeOpts...); diff != "" {
				t.Errorf("with an Observer, the informers differ (-client-go +ours, observed):\n%s", diff)
			}
			if steps.Load() == 0 {
				t.Error("the Observer saw nothing")
			}
			for name, calls := range theirs.burst {
				checkLateJoin(t, "client-go", name, calls, theirs.ref)
			}
			for name, calls := range ours.burst {
				checkLateJoin(t, "ours", name, calls, ours.ref)
			}
			for name, calls := range observed.burst {
				checkLateJoin(t, "ours, observed", name, calls, observed.ref)
			}
			logOutcome(t, ours)
		})
	}
}

// checkLateJoin checks a handler that joined while events were flowing
// against the reference handler (there from the start) of the same run: its
// first calls must be initial adds holding exactly the reference's view at
// some point k of the reference's calls, and everything after them must be
// the reference's calls from k on, in order. Then nothing was missed and
// nothing was delivered twice, whatever the join point.
func checkLateJoin(t *testing.T, sideName, name string, late, ref []call) {
	t.Helper()
	replayed := map[string]string{}
	n := 0
	for n < len(late) && late[n].Op == "add" && late[n].Initial {
		replayed[late[n].Key] = late[n].RV
		n++
	}
	live := canonical(late[n:], false)
	refStrings := canonical(ref, false)
	view := map[string]string{}
	for k := 0; k <= len(ref); k++ {
		if maps.Equal(view, replayed) && slices.Equal(live, refStrings[k:]) {
			return
		}
		if k < len(ref) {
			applyCall(view, ref[k])
		}
	}
	t.Errorf("%s: handler %q, added during a burst, is not the reference's view at some point followed by exactly the reference's later calls\nreplayed: %v\nthen:%s\nreference:%s",
		sideName, name, replayed, join(live), join(refStrings))
}

// applyCall updates a handler's view of the world with one call.
func applyCall(view map[string]string, c call) {
	switch c.Op {
	case "add", "update":
		view[c.Key] = c.RV
	case "delete":
		delete(view, c.Key)
	}
}

// logOutcome prints an outcome with go test -v.
func logOutcome(t *testing.T, o outcome) {
	if !testing.Verbose() {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(o.Calls)) {
		t.Logf("%s (%s):%s", name, o.Synced[name], join(o.Calls[name]))
	}
	for _, name := range slices.Sorted(maps.Keys(o.burst)) {
		t.Logf("%s (joined during a burst, %s):%s", name, o.Synced[name], join(canonical(o.burst[name], false)))
	}
}
