package workqueue

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	testingclock "k8s.io/utils/clock/testing"
)

// The differential: the same random program of Add, AddAfter,
// AddRateLimited, Get, Done, Forget, clock steps, ShutDown and
// ShutDownWithDrain runs on client-go's rate-limiting queue and on ours, each
// on its own fake clock. After every operation both are compared: what the
// operation returned, what a Get blocked earlier returned, whether a
// ShutDownWithDrain returned, Len, ShuttingDown, NumRequeues of every key,
// every When the queue asked of its limiter and the answer, every Touch, Push
// and Pop on the storage, and every metric call.
//
// Determinism: everything runs in a testing/synctest bubble, and after each
// operation synctest.Wait returns only when every goroutine of both queues
// (the waiting loops, the unfinished-work loops, a blocked Get, a draining
// ShutDown) is blocked again, so each side has finished reacting. The fake
// clocks decide when delayed items are due; the token bucket reads time.Now,
// which in the bubble is fake too, and a clock step sleeps as long in the
// bubble.

// programKeys are the items: few, so programs add, retry and finish the same
// keys often.
var programKeys = []string{"a", "b", "c", "d", "e"}

// Delays for AddAfter, with repeats so deadlines tie: the heap order of ties
// must match too.
var programDelays = []time.Duration{-time.Second, 0, 1, time.Millisecond, 5 * time.Millisecond,
	10 * time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond, time.Second, 10 * time.Second,
	11 * time.Second, time.Minute}

// Clock steps, from none to past the 10s heartbeat and the 1000s backoff cap.
var programSteps = []time.Duration{0, 1, time.Millisecond, 4 * time.Millisecond, 5 * time.Millisecond,
	10 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 500 * time.Millisecond, time.Second,
	10 * time.Second, 1000 * time.Second}

type opKind int

const (
	opAdd opKind = iota
	opAddAfter
	opAddRateLimited
	opGet
	opDone
	opForget
	opStep
	opShutDown
	opShutDownWithDrain
)

// opWeights: how often a program picks each kind. Shutdowns are rare, so most
// of a program runs before them and the rest checks what a shut-down queue
// does.
var opWeights = []struct {
	kind   opKind
	weight int
}{
	{opAdd, 40}, {opAddAfter, 40}, {opAddRateLimited, 30}, {opGet, 45}, {opDone, 35},
	{opForget, 10}, {opStep, 25}, {opShutDown, 1}, {opShutDownWithDrain, 1},
}

type op struct {
	kind opKind
	key  string
	d    time.Duration
}

func (o op) String() string {
	switch o.kind {
	case opAdd:
		return "Add(" + o.key + ")"
	case opAddAfter:
		return fmt.Sprintf("AddAfter(%s, %v)", o.key, o.d)
	case opAddRateLimited:
		return "AddRateLimited(" + o.key + ")"
	case opGet:
		return "Get()"
	case opDone:
		return "Done(" + o.key + ")"
	case opForget:
		return "Forget(" + o.key + ")"
	case opStep:
		return fmt.Sprintf("Step(%v)", o.d)
	case opShutDown:
		return "ShutDown()"
	case opShutDownWithDrain:
		return "ShutDownWithDrain()"
	}
	return "?"
}

// chooser makes a program's choices: from a seeded generator, or from a
// fuzzer's bytes.
type chooser interface {
	more() bool
	intn(n int) int
}

type rngChooser struct {
	rng  *rand.Rand
	left int
}

func (c *rngChooser) more() bool     { c.left--; return c.left >= 0 }
func (c *rngChooser) intn(n int) int { return c.rng.IntN(n) }

type byteChooser struct{ b []byte }

func (c *byteChooser) more() bool { return len(c.b) > 0 }
func (c *byteChooser) intn(n int) int {
	if len(c.b) == 0 {
		return 0
	}
	v := int(c.b[0])
	c.b = c.b[1:]
	return v % n
}

// programState is what the next choice depends on; both sides agree on it
// as long as the run goes on (it stops at the first difference).
type programState struct {
	len          int
	shuttingDown bool
	processing   []string // handed out by Get, not yet Done
	getting      bool     // a Get is blocked, waiting for an item
	draining     bool     // a ShutDownWithDrain is waiting
	shutDown     bool     // ShutDown was called
}

// nextOp picks an operation that cannot block the test: Get runs on the
// test's goroutine only if it returns at once, otherwise in the background
// (one at a time); Done needs an item in processing; one ShutDownWithDrain
// at a time.
//
// It never calls ShutDown during a ShutDownWithDrain once ShutDown was called
// before it: ours then ends the drain, as Typed's ShutDown does, but
// client-go's delaying queue runs its ShutDown only once and keeps waiting
// (a deliberate difference, TestShutDownEndsADrainAfterAnEarlierShutDown).
func nextOp(c chooser, st programState) op {
	total := 0
	for _, w := range opWeights {
		total += w.weight
	}
	pick := c.intn(total)
	kind := opAdd
	for _, w := range opWeights {
		if pick < w.weight {
			kind = w.kind
			break
		}
		pick -= w.weight
	}
	switch {
	case kind == opGet && st.getting && st.len == 0 && !st.shuttingDown,
		kind == opDone && len(st.processing) == 0:
		kind = opAdd
	case kind == opShutDownWithDrain && st.draining:
		kind = opShutDown
	}
	if kind == opShutDown && st.draining && st.shutDown {
		kind = opAdd
	}
	o := op{kind: kind}
	switch kind {
	case opAdd, opAddRateLimited, opForget:
		o.key = programKeys[c.intn(len(programKeys))]
	case opAddAfter:
		o.key = programKeys[c.intn(len(programKeys))]
		o.d = programDelays[c.intn(len(programDelays))]
	case opDone:
		o.key = st.processing[c.intn(len(st.processing))]
	case opStep:
		o.d = programSteps[c.intn(len(programSteps))]
	}
	return o
}

// observation is what one side showed after one operation.
type observation struct {
	Result        string // Get's item or "shutdown"; "blocked" for a Get left waiting
	LateGet       string // a Get blocked earlier that returned during this operation
	DrainReturned bool   // a ShutDownWithDrain that returned during this operation
	Len           int
	ShuttingDown  bool
	NumRequeues   map[string]int // non-zero counts only
	Whens         []string
	Storage       []string
	Metrics       map[string][]string
}

// runner drives one side through a program.
type runner struct {
	*side
	getResult  chan string   // the blocked Get's result
	drained    chan struct{} // closed when the waiting ShutDownWithDrain returns
	processing []string      // what this side handed out and was not Done, for shutDown
}

func (r *runner) apply(o op, st programState) string {
	switch o.kind {
	case opAdd:
		r.q.Add(o.key)
	case opAddAfter:
		r.q.AddAfter(o.key, o.d)
	case opAddRateLimited:
		r.q.AddRateLimited(o.key)
	case opForget:
		r.q.Forget(o.key)
	case opDone:
		r.q.Done(o.key)
		r.processing = slices.DeleteFunc(r.processing, func(k string) bool { return k == o.key })
	case opStep:
		r.clock.Step(o.d)
	case opShutDown:
		r.q.ShutDown()
	case opGet:
		if st.len == 0 && !st.shuttingDown {
			r.getResult = make(chan string, 1)
			go func(ch chan<- string) { ch <- getResult(r.q.Get()) }(r.getResult)
			return "blocked"
		}
		return r.handedOut(getResult(r.q.Get()))
	case opShutDownWithDrain:
		r.drained = make(chan struct{})
		go func(ch chan struct{}) { r.q.ShutDownWithDrain(); close(ch) }(r.drained)
	}
	return ""
}

// handedOut notes an item Get returned, and returns it.
func (r *runner) handedOut(result string) string {
	if result != "shutdown" {
		r.processing = append(r.processing, result)
	}
	return result
}

func getResult(item string, shutdown bool) string {
	if shutdown {
		return "shutdown"
	}
	return item
}

// observe collects what happened on this side since the last observation.
func (r *runner) observe(result string) observation {
	obs := observation{Result: result}
	if r.getResult != nil {
		select {
		case obs.LateGet = <-r.getResult:
			r.handedOut(obs.LateGet)
			r.getResult = nil
		default:
		}
	}
	if r.drained != nil {
		select {
		case <-r.drained:
			obs.DrainReturned = true
			r.drained = nil
		default:
		}
	}
	obs.Len = r.q.Len()
	obs.ShuttingDown = r.q.ShuttingDown()
	for _, k := range programKeys {
		if n := r.q.NumRequeues(k); n != 0 {
			if obs.NumRequeues == nil {
				obs.NumRequeues = map[string]int{}
			}
			obs.NumRequeues[k] = n
		}
	}
	obs.Whens = r.limiter.take()
	obs.Storage = r.storage.take()
	obs.Metrics = r.metrics.take()
	if obs.LateGet != "" {
		// The blocked Get ran beside the goroutine that woke it (the waiting
		// loop's Add, say): their calls on the storage and metrics can
		// interleave either way, on either side. The order of items is still
		// checked: the Get's result is the head of the queue.
		slices.Sort(obs.Storage)
		for _, calls := range obs.Metrics {
			slices.Sort(calls)
		}
	}
	return obs
}

// shutDown ends everything the side started: ShutDown releases a blocked Get
// and stops the queue's goroutines, and Done of what is still processing
// ends a waiting ShutDownWithDrain (ShutDown alone may not, on client-go's
// side: see nextOp).
func (r *runner) shutDown() {
	r.q.ShutDown()
	if r.getResult != nil {
		r.handedOut(<-r.getResult)
	}
	for _, item := range r.processing {
		r.q.Done(item)
	}
	if r.drained != nil {
		<-r.drained
	}
}

// runProgram runs one program on both sides and returns a report of the
// first difference, or "" if there was none.
func runProgram(spec limiterSpec, named bool, c chooser) (report string) {
	start := time.Now() // in the bubble: midnight, 2000-01-01
	theirs := &runner{side: newClientGoSide(spec, named, testingclock.NewFakeClock(start))}
	ours := &runner{side: newOurSide(spec, named, testingclock.NewFakeClock(start))}
	defer func() {
		theirs.shutDown()
		ours.shutDown()
	}()
	synctest.Wait()
	// Construction may already report (none today); start both from zero.
	theirs.observe("")
	ours.observe("")

	var st programState
	var history []string
	for c.more() {
		o := nextOp(c, st)
		history = append(history, o.String())
		theirResult, ourResult := theirs.apply(o, st), ours.apply(o, st)
		if o.kind == opStep {
			time.Sleep(o.d) // the token bucket's time
		}
		synctest.Wait()
		want, got := theirs.observe(theirResult), ours.observe(ourResult)
		if diff := cmp.Diff(want, got); diff != "" {
			return fmt.Sprintf("limiter %s, metrics %v: after operation %d, %s, the queues differ (-client-go +ours):\n%s\nprogram so far:\n  %s",
				spec.name, named, len(history), o, diff, strings.Join(history, "\n  "))
		}
		st = nextState(st, o, want)
	}
	return ""
}

// nextState updates the program's state from client-go's observation (ours
// is equal, or the run has stopped).
func nextState(st programState, o op, obs observation) programState {
	st.len, st.shuttingDown = obs.Len, obs.ShuttingDown
	st.processing = slices.Clone(st.processing)
	switch {
	case o.kind == opGet && obs.Result == "blocked":
		st.getting = true
	case o.kind == opGet && obs.Result != "shutdown":
		st.processing = append(st.processing, obs.Result)
	case o.kind == opDone:
		st.processing = slices.DeleteFunc(st.processing, func(k string) bool { return k == o.key })
	case o.kind == opShutDownWithDrain:
		st.draining = true
	case o.kind == opShutDown:
		st.shutDown = true
	}
	if obs.LateGet != "" {
		st.getting = false
		if obs.LateGet != "shutdown" {
			st.processing = append(st.processing, obs.LateGet)
		}
	}
	if obs.DrainReturned {
		st.draining = false
	}
	return st
}

// TestRandomProgramsMatchClientGo runs fixed-seed programs for every limiter,
// with metrics on and off.
func TestRandomProgramsMatchClientGo(t *testing.T) {
	const programs, length = 4, 300
	for _, spec := range limiterSpecs {
		for _, named := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/metrics=%v", spec.name, named), func(t *testing.T) {
				for seed := range uint64(programs) {
					synctest.Test(t, func(t *testing.T) {
						c := &rngChooser{rng: rand.New(rand.NewPCG(seed, 2026)), left: length}
						if report := runProgram(spec, named, c); report != "" {
							t.Errorf("seed %d: %s", seed, report)
						}
					})
				}
			})
		}
	}
}

// FuzzRateLimitingQueue runs programs a fuzzer writes: the first byte picks
// the limiter and whether metrics are on, each later byte one choice. make
// test runs only the seeds; `go test -fuzz FuzzRateLimitingQueue
// ./08-workqueue-controller/workqueue/` runs it for longer.
func FuzzRateLimitingQueue(f *testing.F) {
	f.Add([]byte{0, 0, 1, 3, 3, 9, 100, 4, 200, 7, 9, 30})
	f.Add([]byte{5, 60, 2, 61, 3, 150, 9, 150, 9, 130, 0, 140, 0, 255, 1})
	f.Add([]byte{13, 80, 4, 80, 4, 80, 4, 130, 130, 170, 20, 130, 230, 165, 11})
	f.Fuzz(func(t *testing.T, program []byte) {
		if len(program) == 0 {
			return
		}
		spec := limiterSpecs[int(program[0]/2)%len(limiterSpecs)]
		named := program[0]%2 == 0
		synctest.Test(t, func(t *testing.T) {
			if report := runProgram(spec, named, &byteChooser{b: program[1:]}); report != "" {
				t.Error(report)
			}
		})
	})
}
