package workqueue

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	testingclock "k8s.io/utils/clock/testing"
)

// What a queue does with an item added once its shutdown has begun, after
// ShutDown or while ShutDownWithDrain waits, with each way in: Add,
// AddAfter with no delay and with one, and AddRateLimited. client-go
// v0.37.2 defines it (util/workqueue/delaying_queue.go: AddAfter returns at
// once when the queue is shutting down; rate_limiting_queue.go:
// AddRateLimited asks the limiter first), and ours must do the same.

// afterShutdown is what one side showed.
type afterShutdown struct {
	Len         int
	NumRequeues map[string]int
	Whens       []string
	Metrics     map[string][]string
	Storage     []string
	Got         []string // what Get handed out once the item in processing was Done
}

// addAfterShutdown runs the scenario on one side: an item in processing and
// one waiting a minute in the delaying queue's heap; the shutdown begins
// (drain: a ShutDownWithDrain that waits for the item in processing); an
// item comes in by each way; the clock passes every delay; the item in
// processing is Done.
func addAfterShutdown(s *side, drain bool) afterShutdown {
	s.q.Add("held")
	s.q.Get()
	s.q.AddAfter("waiting", time.Minute)
	synctest.Wait()
	drained := make(chan struct{})
	if drain {
		go func() { s.q.ShutDownWithDrain(); close(drained) }()
	} else {
		s.q.ShutDown()
		close(drained)
	}
	synctest.Wait()
	s.limiter.take()
	s.storage.take()
	s.metrics.take()

	s.q.Add("added")
	s.q.AddAfter("now", 0)
	s.q.AddAfter("later", time.Second)
	s.q.AddRateLimited("retried")
	synctest.Wait()
	s.clock.Step(2 * time.Minute)
	time.Sleep(2 * time.Minute) // the token bucket's time
	synctest.Wait()

	var got afterShutdown
	got.Len = s.q.Len()
	for _, k := range []string{"added", "now", "later", "retried", "waiting"} {
		if n := s.q.NumRequeues(k); n != 0 {
			if got.NumRequeues == nil {
				got.NumRequeues = map[string]int{}
			}
			got.NumRequeues[k] = n
		}
	}
	got.Whens = s.limiter.take()
	got.Metrics = s.metrics.take()
	got.Storage = s.storage.take()
	s.q.Done("held")
	<-drained
	for {
		item, shutdown := s.q.Get()
		if shutdown {
			break
		}
		got.Got = append(got.Got, item)
		s.q.Done(item)
	}
	s.q.ShutDown()
	return got
}

// TestNothingIsAddedOnceShutDownHasBegun: once the shutdown has begun,
// nothing is added by any way in, whatever its delay, and the item that
// was waiting in the heap is dropped. AddRateLimited still asks the
// limiter, which counts a requeue (NumRequeues is 1): client-go asks before
// it hands the delay to AddAfter, and ours does the same. No retry is
// counted in the metrics: AddAfter returns before it counts one.
func TestNothingIsAddedOnceShutDownHasBegun(t *testing.T) {
	want := afterShutdown{
		NumRequeues: map[string]int{"retried": 1},
		Whens:       []string{"When(retried)=5ms"},
	}
	for _, drain := range []bool{false, true} {
		name := "after ShutDown"
		if drain {
			name = "during ShutDownWithDrain"
		}
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				spec := limiterSpecs[0] // the default controller rate limiter
				theirs := addAfterShutdown(newClientGoSide(spec, true, testingclock.NewFakeClock(time.Now())), drain)
				ours := addAfterShutdown(newOurSide(spec, true, testingclock.NewFakeClock(time.Now())), drain)
				if diff := cmp.Diff(theirs, ours); diff != "" {
					t.Errorf("(-client-go +ours):\n%s", diff)
				}
				if diff := cmp.Diff(want, ours); diff != "" {
					t.Errorf("ours (-want +got):\n%s", diff)
				}
			})
		})
	}
}

// lateAdder is the queue inside a delaying queue. When the delaying queue
// calls its ShutDownWithDrain, it first lets two AddAfter calls in, as if a
// handler's had come at that moment: after the delaying queue has begun
// its ShutDownWithDrain and stopped its waiting loop.
type lateAdder struct {
	TypedInterface[string]
	outer TypedDelayingInterface[string]
}

func (q *lateAdder) ShutDownWithDrain() {
	q.outer.AddAfter("now", 0)
	q.outer.AddAfter("later", time.Second)
	q.TypedInterface.ShutDownWithDrain()
}

// TestAddAfterDuringADrainAddsNothing: ours has a ShutDownWithDrain of its
// own, which stops the waiting loop before the queue inside drains
// (client-go's has none: see TestShutDownWithDrainStopsTheWaitingLoop).
// The queue inside must refuse new items before that: an AddAfter that
// comes once the drain has begun adds nothing and counts no retry, as
// client-go's, whose queue inside refuses from the drain's first line.
func TestAddAfterDuringADrainAddsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		metrics := newMetricsRecorder()
		inner := &lateAdder{TypedInterface: NewTypedWithConfig(TypedQueueConfig[string]{Name: "q", MetricsProvider: ourProvider{metrics}})}
		q := NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[string]{Name: "q", MetricsProvider: ourProvider{metrics}, Queue: inner})
		inner.outer = q
		q.ShutDownWithDrain()
		if n := q.Len(); n != 0 {
			t.Errorf("an AddAfter with no delay, made once the drain had begun, added its item: Len %d, want 0", n)
		}
		if got := metrics.take()["retries/q"]; len(got) != 0 {
			t.Errorf("AddAfter counted retries once the drain had begun: %v", got)
		}
	})
}
