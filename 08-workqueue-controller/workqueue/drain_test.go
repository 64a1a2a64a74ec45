package workqueue

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	cgworkqueue "k8s.io/client-go/util/workqueue"
	testingclock "k8s.io/utils/clock/testing"
)

// What ShutDownWithDrain waits for, on every path a queue can be on when it
// is called: client-go's answer (util/workqueue/queue.go, Typed.Done and
// Typed.ShutDownWithDrain) is the processing set, and nothing else. A drain
// returns once no item is in processing, even if a Done has just put an
// item back in the queue (added again while it was processed); that item is
// still queued when the drain returns, and Get hands it out until the queue
// is empty. Ours does the same, except that every concurrent drain returns
// at that moment, where client-go's Done wakes only one (a deliberate
// difference, doc.go).

// drainPath is the state of a queue when the drains begin, and what the
// workers do then.
type drainPath struct {
	name string
	// hold are Got before the drains begin, so they are in processing;
	// dirty are added again meanwhile, so their Done puts them back in
	// the queue; waiting are added and never Got.
	hold, dirty, waiting []string
	// done is the order the held items are Done in, after the drains
	// have begun.
	done []string
}

var drainPaths = []drainPath{
	{name: "nothing in processing"},
	{name: "nothing in processing, an item waiting", waiting: []string{"x"}},
	{name: "one item, Done clean", hold: []string{"a"}, done: []string{"a"}},
	{name: "one item, Done while dirty (re-queued)", hold: []string{"a"}, dirty: []string{"a"}, done: []string{"a"}},
	{name: "three items, the last Done clean", hold: []string{"a", "b", "c"}, dirty: []string{"b"}, waiting: []string{"x"}, done: []string{"a", "b", "c"}},
	{name: "three items, the last Done while dirty", hold: []string{"a", "b", "c"}, dirty: []string{"b"}, waiting: []string{"x"}, done: []string{"a", "c", "b"}},
	{name: "three items, all dirty", hold: []string{"a", "b", "c"}, dirty: []string{"a", "b", "c"}, done: []string{"c", "a", "b"}},
}

// drainStep is what a side showed after one step of a path.
type drainStep struct {
	After    string
	Returned int // ShutDownWithDrain calls that have returned so far
	Len      int
}

// drainRun is one side's whole run of a path.
type drainRun struct {
	Steps []drainStep
	// Then is what Get handed out after the final ShutDown, up to
	// "shutdown": the items the drains did not wait for.
	Then []string
}

// runDrains runs path on q with drains concurrent ShutDownWithDrain calls,
// in the caller's bubble. It never hangs: a drain still waiting at a step
// is counted, and the final ShutDown ends every wait on either side.
func runDrains(q TypedInterface[string], path drainPath, drains int) drainRun {
	for _, k := range path.hold {
		q.Add(k)
		q.Get()
	}
	for _, k := range path.dirty {
		q.Add(k)
	}
	for _, k := range path.waiting {
		q.Add(k)
	}
	returned := make(chan struct{}, drains)
	for range drains {
		go func() { q.ShutDownWithDrain(); returned <- struct{}{} }()
	}
	var run drainRun
	note := func(after string) {
		synctest.Wait() // every drain has returned or waits on the queue
		run.Steps = append(run.Steps, drainStep{After: after, Returned: len(returned), Len: q.Len()})
	}
	note(fmt.Sprintf("%d × ShutDownWithDrain", drains))
	for _, k := range path.done {
		q.Done(k)
		note("Done(" + k + ")")
	}
	q.ShutDown() // ends any drain still waiting (client-go's, after a Signal)
	note("ShutDown")
	// A path leaves at most three items queued; a Get that hands out more
	// (one that never waits, or a Done that queues its item again and
	// again) is cut short rather than followed for ever.
	for range 6 {
		item, shutdown := q.Get()
		if shutdown {
			run.Then = append(run.Then, "shutdown")
			return run
		}
		run.Then = append(run.Then, item)
		q.Done(item)
	}
	run.Then = append(run.Then, "… and Get never reported shutdown")
	return run
}

// drainQueues builds the queue shapes the drain is tested on, from each
// package: the Typed queue alone, and the rate-limiting chain a controller
// uses (whose drain is the Typed queue's inside it).
var drainQueues = []struct {
	shape          string
	clientGo, ours func() TypedInterface[string]
}{
	{
		shape:    "Typed",
		clientGo: func() TypedInterface[string] { return cgworkqueue.NewTyped[string]() },
		ours:     func() TypedInterface[string] { return NewTyped[string]() },
	},
	{
		shape: "rate-limiting",
		clientGo: func() TypedInterface[string] {
			return newClientGoSide(limiterSpecs[0], true, testingclock.NewFakeClock(time.Now())).q
		},
		ours: func() TypedInterface[string] {
			return newOurSide(limiterSpecs[0], true, testingclock.NewFakeClock(time.Now())).q
		},
	},
}

// TestConcurrentShutDownWithDrainsAllReturn runs one, two and three
// concurrent ShutDownWithDrain calls on every path (nothing in processing;
// an item Done clean; an item Done while dirty, so re-queued; several
// items, the last Done clean or dirty), on client-go's queue and ours:
//
//   - ours: no drain returns while an item is in processing, and every
//     drain returns as soon as none is, whichever branch of Done emptied
//     the processing set;
//   - the differential: with one drain, both sides show the same thing
//     after every step (when the drain returned, Len, and what Get hands
//     out afterwards, re-queued items included); with more, the same but
//     for how many returned;
//   - client-go's count, the deliberate difference: once something was in
//     processing, its last Done wakes one drain (Signal), and the others
//     wait until the ShutDown.
func TestConcurrentShutDownWithDrainsAllReturn(t *testing.T) {
	for _, shape := range drainQueues {
		for _, path := range drainPaths {
			for drains := 1; drains <= 3; drains++ {
				name := fmt.Sprintf("%s/%s/%d drains", shape.shape, path.name, drains)
				t.Run(name, func(t *testing.T) {
					var theirs, ours drainRun
					synctest.Test(t, func(t *testing.T) { theirs = runDrains(shape.clientGo(), path, drains) })
					synctest.Test(t, func(t *testing.T) { ours = runDrains(shape.ours(), path, drains) })
					checkOurDrains(t, path, drains, ours)
					checkClientGoDrains(t, path, drains, theirs)
					if diff := cmp.Diff(anyReturned(theirs), anyReturned(ours)); diff != "" {
						t.Errorf("the drains differ beyond how many returned (-client-go +ours):\n%s", diff)
					}
					if drains == 1 {
						if diff := cmp.Diff(theirs, ours); diff != "" {
							t.Errorf("one drain differs (-client-go +ours):\n%s", diff)
						}
					}
				})
			}
		}
	}
}

// emptiedAt is the index of the step after which nothing is in
// processing: the drains' start if nothing was held, else the last Done.
func emptiedAt(path drainPath) int { return len(path.done) }

// checkOurDrains: none of our drains returns before the processing set is
// empty, and all of them return at the step that empties it.
func checkOurDrains(t *testing.T, path drainPath, drains int, ours drainRun) {
	t.Helper()
	for i, s := range ours.Steps {
		want := 0
		if i >= emptiedAt(path) {
			want = drains
		}
		if s.Returned != want {
			t.Errorf("ours: after %s, %d of %d ShutDownWithDrain calls had returned, want %d (steps: %v)",
				s.After, s.Returned, drains, want, ours.Steps)
		}
	}
}

// checkClientGoDrains: client-go's count, read from its code. If client-go
// changes, this fails and the difference in doc.go should be revisited.
func checkClientGoDrains(t *testing.T, path drainPath, drains int, theirs drainRun) {
	t.Helper()
	last := emptiedAt(path)
	want := drains // nothing held: no drain ever waits
	if len(path.hold) > 0 {
		want = 1 // Done's Signal wakes one
	}
	if got := theirs.Steps[last].Returned; got != want {
		t.Errorf("client-go: after %s, %d of %d ShutDownWithDrain calls had returned; it used to be %d (steps: %v)",
			theirs.Steps[last].After, got, drains, want, theirs.Steps)
	}
	if got := theirs.Steps[len(theirs.Steps)-1].Returned; got != drains {
		t.Errorf("client-go: after the final ShutDown, %d of %d ShutDownWithDrain calls had returned", got, drains)
	}
}

// anyReturned is a run with each count reduced to whether any drain had
// returned: what both sides must agree on whatever the number of drains.
func anyReturned(run drainRun) drainRun {
	out := drainRun{Then: run.Then}
	for _, s := range run.Steps {
		s.Returned = min(s.Returned, 1)
		out.Steps = append(out.Steps, s)
	}
	return out
}

// TestDrainReturnsWithTheReQueuedItemStillQueued: the answer to "what does
// a drain wait for", on one path, spelled out: a worker holds "a", which is
// added again; the drain begins; the worker's Done puts "a" back in the
// queue. The drain returns then, on both sides, with "a" queued, and a
// worker still calling Get processes it once more before Get reports
// shutdown.
func TestDrainReturnsWithTheReQueuedItemStillQueued(t *testing.T) {
	for _, side := range []struct {
		name string
		q    func() TypedInterface[string]
	}{
		{"client-go", drainQueues[0].clientGo},
		{"ours", drainQueues[0].ours},
	} {
		t.Run(side.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := side.q()
				q.Add("a")
				q.Get()
				q.Add("a") // dirty while processing
				drained := make(chan struct{})
				go func() { q.ShutDownWithDrain(); close(drained) }()
				synctest.Wait()
				q.Done("a") // re-queued
				synctest.Wait()
				if !isClosed(drained) {
					t.Errorf("%s: the drain still waits with nothing in processing and \"a\" queued", side.name)
					q.ShutDown() // ends it
				}
				var then []string
				for range 10 { // one is right; a Get that never reports shutdown is cut short
					item, shutdown := q.Get()
					if shutdown {
						break
					}
					then = append(then, item)
					q.Done(item)
				}
				if got := fmt.Sprintf("%q", then); got != `["a"]` || q.Len() != 0 {
					t.Errorf("%s: after the drain, Get handed out %s and left %d; want [\"a\"] and 0", side.name, got, q.Len())
				}
			})
		})
	}
}
