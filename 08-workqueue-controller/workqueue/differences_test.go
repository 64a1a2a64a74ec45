package workqueue

import (
	"runtime"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	cgworkqueue "k8s.io/client-go/util/workqueue"
	testingclock "k8s.io/utils/clock/testing"
)

// The deliberate differences from client-go (doc.go lists them), each shown
// on both sides: what client-go does, read from its code and checked here,
// and what ours does instead. If client-go changes, the client-go half of a
// test fails and the difference should be revisited.

// TestDoneOfAnItemNotBeingProcessed: Done for an item that was added but
// never handed out. client-go pushes the item again, because it is dirty: it
// is then in the queue twice, and two workers get it at once. Ours ignores
// the Done.
func TestDoneOfAnItemNotBeingProcessed(t *testing.T) {
	theirs, ours := cgworkqueue.NewTyped[string](), NewTyped[string]()
	defer theirs.ShutDown()
	defer ours.ShutDown()
	for _, q := range []TypedInterface[string]{theirs, ours} {
		q.Add("a")
		q.Done("a") // a mistake: nobody Got "a"
	}
	if got := theirs.Len(); got != 2 {
		t.Errorf("client-go: Len after the stray Done = %d; it used to be 2 (the item queued twice)", got)
	}
	if got := ours.Len(); got != 1 {
		t.Errorf("ours: Len after the stray Done = %d, want 1", got)
	}

	first, _ := theirs.Get()
	second, _ := theirs.Get() // returns at once: "a" is still queued
	if first != "a" || second != "a" {
		t.Errorf("client-go: two Gets returned %q and %q; they used to both return \"a\", held by two workers at once", first, second)
	}
	if item, _ := ours.Get(); item != "a" || ours.Len() != 0 {
		t.Errorf("ours: Get returned %q and left %d items, want \"a\" and 0", item, ours.Len())
	}
}

// Concurrent drains (every one returns here, one in client-go): see
// TestConcurrentShutDownWithDrainsAllReturn in drain_test.go.

// TestShutDownEndsADrainAfterAnEarlierShutDown: ShutDown, then
// ShutDownWithDrain waiting for an item in processing, then ShutDown again
// to stop waiting. On a Typed queue both implementations stop waiting. On a
// delaying queue client-go's ShutDown runs only once (sync.Once), so the
// second does not reach the queue inside and the drain waits on; ours does.
func TestShutDownEndsADrainAfterAnEarlierShutDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk := testingclock.NewFakeClock(time.Now())
		for _, tc := range []struct {
			side       string
			q          TypedDelayingInterface[string]
			wantReturn bool
		}{
			{"client-go", cgworkqueue.NewTypedDelayingQueueWithConfig(cgworkqueue.TypedDelayingQueueConfig[string]{Clock: clk}), false},
			{"ours", NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[string]{Clock: clk}), true},
		} {
			tc.q.Add("a")
			item, _ := tc.q.Get()
			tc.q.ShutDown()
			returned := make(chan struct{})
			go func() { tc.q.ShutDownWithDrain(); close(returned) }()
			synctest.Wait()
			tc.q.ShutDown()
			synctest.Wait()
			if got := isClosed(returned); got != tc.wantReturn {
				t.Errorf("%s: ShutDownWithDrain returned after the second ShutDown: %v, want %v", tc.side, got, tc.wantReturn)
			}
			tc.q.Done(item) // ends client-go's drain
			<-returned
		}
	})
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// TestShutDownWithDrainStopsTheWaitingLoop: client-go's delaying queue has no
// ShutDownWithDrain of its own; the queue inside it drains, and the waiting
// loop goes on until its next wake-up (a due item, or the 10s heartbeat)
// notices. Ours stops the loop before ShutDownWithDrain returns. Real clock,
// outside a bubble: client-go's loop would otherwise wait for ever for a fake
// heartbeat.
func TestShutDownWithDrainStopsTheWaitingLoop(t *testing.T) {
	theirs := cgworkqueue.NewTypedDelayingQueue[string]()
	for !clientGoWaitingLoopRunning() {
		runtime.Gosched() // until the loop's goroutine has started
	}
	theirs.ShutDownWithDrain()
	if !clientGoWaitingLoopRunning() {
		t.Errorf("client-go: its waiting loop had stopped right after ShutDownWithDrain; it used to run until the next heartbeat")
	}
	theirs.ShutDown() // closes its stop channel: the loop returns

	ours := NewTypedDelayingQueue[string]()
	ours.ShutDownWithDrain()
	if !isClosed(ours.(*delayingType[string]).loopDone) {
		t.Errorf("ours: the waiting loop had not returned when ShutDownWithDrain did")
	}
}

// clientGoWaitingLoopRunning reports whether a client-go waiting loop started
// by the calling goroutine is running. (Loops of earlier tests may still be
// on their way out; they were started by other goroutines.)
func clientGoWaitingLoopRunning() bool {
	buf := make([]byte, 1<<20)
	self, _, _ := strings.Cut(string(buf[:runtime.Stack(buf, false)]), " [")
	createdBy := "created by k8s.io/client-go/util/workqueue.newDelayingQueue[...] in " + self + "\n"
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "client-go/util/workqueue.(*delayingType[...]).waitingLoop(") && strings.Contains(g, createdBy) {
			return true
		}
	}
	return false
}

// panics reports whether f panics.
func panics(f func()) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	f()
	return false
}

// TestNilAndZeroRateLimiters: client-go panics on a nil limiter wherever one
// is called, and on the zero value of the bucket and exponential limiters.
// Ours treats a missing limiter as one that never waits, and its zero values
// work.
func TestNilAndZeroRateLimiters(t *testing.T) {
	cases := []struct {
		name           string
		theirs, ourOne func() time.Duration
		want           time.Duration
	}{
		{"max-of with a nil limiter",
			func() time.Duration {
				return cgworkqueue.NewTypedMaxOfRateLimiter(nil, cgworkqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)).When("a")
			},
			func() time.Duration {
				return NewTypedMaxOfRateLimiter(nil, NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)).When("a")
			},
			time.Millisecond},
		{"with-max-wait of nil",
			func() time.Duration {
				return cgworkqueue.NewTypedWithMaxWaitRateLimiter[string](nil, time.Second).When("a")
			},
			func() time.Duration { return NewTypedWithMaxWaitRateLimiter[string](nil, time.Second).When("a") },
			0},
		{"zero with-max-wait",
			func() time.Duration { return cgworkqueue.TypedWithMaxWaitRateLimiter[string]{}.When("a") },
			func() time.Duration { return TypedWithMaxWaitRateLimiter[string]{}.When("a") },
			0},
		{"zero bucket",
			func() time.Duration { return (&cgworkqueue.TypedBucketRateLimiter[string]{}).When("a") },
			func() time.Duration { return (&TypedBucketRateLimiter[string]{}).When("a") },
			0},
		{"zero exponential",
			func() time.Duration { return (&cgworkqueue.TypedItemExponentialFailureRateLimiter[string]{}).When("a") },
			func() time.Duration { return (&TypedItemExponentialFailureRateLimiter[string]{}).When("a") },
			0},
		{"zero fast-slow",
			func() time.Duration { return (&cgworkqueue.TypedItemFastSlowRateLimiter[string]{}).When("a") },
			func() time.Duration { return (&TypedItemFastSlowRateLimiter[string]{}).When("a") },
			0},
	}
	for _, tc := range cases {
		if !panics(func() { tc.theirs() }) {
			t.Errorf("%s: client-go did not panic; it used to", tc.name)
		}
		var got time.Duration
		if panics(func() { got = tc.ourOne() }) {
			t.Errorf("%s: ours panicked", tc.name)
		} else if got != tc.want {
			t.Errorf("%s: ours waited %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestRateLimitingQueueWithoutALimiter: client-go's AddRateLimited, Forget
// and NumRequeues panic when the queue was made with a nil limiter; ours
// adds at once and counts nothing.
func TestRateLimitingQueueWithoutALimiter(t *testing.T) {
	theirs := cgworkqueue.NewTypedRateLimitingQueue[string](nil)
	defer theirs.ShutDown()
	if !panics(func() { theirs.AddRateLimited("a") }) {
		t.Errorf("client-go: AddRateLimited with a nil limiter did not panic; it used to")
	}
	ours := NewTypedRateLimitingQueue[string](nil)
	defer ours.ShutDown()
	ours.AddRateLimited("a")
	ours.Forget("a")
	if ours.Len() != 1 || ours.NumRequeues("a") != 0 {
		t.Errorf("ours: after AddRateLimited, Len %d and NumRequeues %d; want 1 and 0", ours.Len(), ours.NumRequeues("a"))
	}
}
