package workqueue

import (
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/time/rate"
	cgworkqueue "k8s.io/client-go/util/workqueue"
	testingclock "k8s.io/utils/clock/testing"
)

// Each benchmark runs client-go's queue and ours as sub-benchmarks of one
// run, on the same workload:
//
//	go test -run '^$' -bench . -benchmem ./08-workqueue-controller/workqueue/

// benchQueue is TypedInterface of either package.
type benchQueue[T comparable] interface {
	Add(item T)
	Get() (item T, shutdown bool)
	Done(item T)
	Len() int
	ShutDown()
}

// BenchmarkQueue is client-go's BenchmarkQueue (util/workqueue/queue_test.go)
// on both: a new queue, then 100 rounds of Add, Get, Done on one goroutine.
// It measures the bookkeeping of the two sets and the FIFO.
func BenchmarkQueue(b *testing.B) {
	keys := make([]string, 100)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%d", i)
	}
	for _, impl := range []struct {
		name string
		make func() benchQueue[string]
	}{
		{"client-go", func() benchQueue[string] {
			return cgworkqueue.NewTypedWithConfig(cgworkqueue.TypedQueueConfig[string]{})
		}},
		{"ours", func() benchQueue[string] { return NewTypedWithConfig(TypedQueueConfig[string]{}) }},
	} {
		b.Run(impl.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				q := impl.make()
				b.StartTimer()
				for _, key := range keys {
					q.Add(key)
					item, _ := q.Get()
					q.Done(item)
				}
			}
		})
	}
}

// BenchmarkQueueParallel: GOMAXPROCS×5 goroutines each Add a new item, Get
// one and finish it, so producers and workers contend for the queue's lock.
// Items are unique ints: every Get is matched by an earlier Add, so none
// waits for ever.
//
// Read its ns/op with care on a shared machine. It is wall time, and with
// that many goroutines taking turns at one mutex much of it goes to parking
// and waking them and their threads, so it measures the neighbours too: the
// same code's ns/op varies fivefold between runs, and a single pair of runs
// can put either side twice as fast as the other. And -count runs
// client-go's sub-benchmark N times and only then ours N times, so a change
// of load between the two blocks reads as a difference between the queues.
// Compare the sides in turn, one pair per run (the chapter's benchmark
// section has the loop).
func BenchmarkQueueParallel(b *testing.B) {
	for _, impl := range []struct {
		name string
		make func() benchQueue[int64]
	}{
		{"client-go", func() benchQueue[int64] { return cgworkqueue.NewTyped[int64]() }},
		{"ours", func() benchQueue[int64] { return NewTyped[int64]() }},
	} {
		b.Run(impl.name, func(b *testing.B) {
			q := impl.make()
			defer q.ShutDown()
			var next atomic.Int64
			b.SetParallelism(5)
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					q.Add(next.Add(1))
					item, _ := q.Get()
					q.Done(item)
				}
			})
		})
	}
}

// benchDelaying is TypedDelayingInterface of either package.
type benchDelaying interface {
	benchQueue[string]
	AddAfter(item string, d time.Duration)
}

// BenchmarkDelayingQueue_AddAfter is client-go's benchmark of that name
// (util/workqueue/delaying_queue_test.go) on both: b.N items added with
// random delays of up to 10 minutes on a fake clock (each goes through the
// waiting loop's channel and heap), then the clock jumps 11 minutes and every
// item is taken out with Get.
func BenchmarkDelayingQueue_AddAfter(b *testing.B) {
	for _, impl := range []struct {
		name string
		make func(*testingclock.FakeClock) benchDelaying
	}{
		{"client-go", func(c *testingclock.FakeClock) benchDelaying {
			return cgworkqueue.NewTypedDelayingQueueWithConfig(cgworkqueue.TypedDelayingQueueConfig[string]{Clock: c})
		}},
		{"ours", func(c *testingclock.FakeClock) benchDelaying {
			return NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[string]{Clock: c})
		}},
	} {
		b.Run(impl.name, func(b *testing.B) {
			clk := testingclock.NewFakeClock(time.Now())
			q := impl.make(clk)
			defer q.ShutDown()
			rng := rand.New(rand.NewPCG(1, 2))
			data := make([]string, b.N)
			delays := make([]time.Duration, b.N)
			for n := range data {
				data[n] = fmt.Sprint(n)
				delays[n] = time.Duration(rng.Int64N(int64(10 * time.Minute)))
			}
			b.ReportAllocs()
			b.ResetTimer()
			for n := range b.N {
				q.AddAfter(data[n], delays[n])
			}
			var gotten atomic.Int64
			defer unstick(clk, 11*time.Minute, &gotten)()
			clk.Step(11 * time.Minute)
			for range b.N {
				q.Get()
				gotten.Add(1)
			}
		})
	}
}

// benchRateLimiting is TypedRateLimitingInterface of either package.
type benchRateLimiting interface {
	benchDelaying
	AddRateLimited(item string)
	Forget(item string)
}

// BenchmarkRateLimitingQueue_AddRateLimited: the retry path of a controller,
// on a fake clock. Rounds of 100 failing keys: each is retried
// (AddRateLimited: a max-of limiter asking an exponential limiter and a token
// bucket, then the waiting loop), the clock steps past the backoff, and each
// is taken, forgotten and finished. b.N counts retries.
//
// The limiter is the default controller limiter's shape with an unlimited
// bucket: a 10 qps bucket (it reads the real time) would fall minutes behind
// at a million retries per second, and stepping the fake clock that far
// makes the fake clock, not the queue, the thing measured.
func BenchmarkRateLimitingQueue_AddRateLimited(b *testing.B) {
	keys := make([]string, 100)
	for i := range keys {
		keys[i] = fmt.Sprintf("key-%d", i)
	}
	for _, impl := range []struct {
		name string
		make func(*testingclock.FakeClock) benchRateLimiting
	}{
		{"client-go", func(c *testingclock.FakeClock) benchRateLimiting {
			limiter := cgworkqueue.NewTypedMaxOfRateLimiter(
				cgworkqueue.NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second),
				&cgworkqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Inf, 100)})
			return cgworkqueue.NewTypedRateLimitingQueueWithConfig(limiter, cgworkqueue.TypedRateLimitingQueueConfig[string]{Clock: c})
		}},
		{"ours", func(c *testingclock.FakeClock) benchRateLimiting {
			limiter := NewTypedMaxOfRateLimiter(
				NewTypedItemExponentialFailureRateLimiter[string](5*time.Millisecond, 1000*time.Second),
				&TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(rate.Inf, 100)})
			return NewTypedRateLimitingQueueWithConfig(limiter, TypedRateLimitingQueueConfig[string]{Clock: c})
		}},
	} {
		b.Run(impl.name, func(b *testing.B) {
			clk := testingclock.NewFakeClock(time.Now())
			q := impl.make(clk)
			defer q.ShutDown()
			var gotten atomic.Int64
			defer unstick(clk, time.Second, &gotten)()
			b.ReportAllocs()
			for n := 0; n < b.N; n += len(keys) {
				round := keys[:min(len(keys), b.N-n)]
				for _, key := range round {
					q.AddRateLimited(key)
				}
				clk.Step(time.Second) // past the 5ms backoff: every key is forgotten
				for range round {
					key, _ := q.Get()
					gotten.Add(1)
					q.Forget(key)
					q.Done(key)
				}
			}
		})
	}
}

// unstick is a safety net for the benchmarks on a fake clock. A step that
// lands while a waiting loop is between reading the clock and setting its
// timer delays that timer by the step (a fake-clock artefact, on either
// side: a real clock does not jump), and a Get would wait for ever. unstick
// watches a progress counter and steps the clock again when it has not moved
// for 100ms of real time, until stop is called. It wakes ten times a second,
// so it costs the benchmark nothing measurable.
func unstick(clk *testingclock.FakeClock, step time.Duration, progress *atomic.Int64) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		ticker := time.NewTicker(100 * time.Millisecond)
		defer ticker.Stop()
		last := progress.Load()
		for {
			select {
			case <-done:
				return
			case <-ticker.C:
				if now := progress.Load(); now == last {
					clk.Step(step)
				} else {
					last = now
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}
