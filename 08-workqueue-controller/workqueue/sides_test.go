package workqueue

import (
	"time"

	"golang.org/x/time/rate"
	cgworkqueue "k8s.io/client-go/util/workqueue"
	testingclock "k8s.io/utils/clock/testing"
)

// limiterSpec builds the same rate limiter from each package.
type limiterSpec struct {
	name     string
	clientGo func() limiter
	ours     func() limiter
}

// limiterSpecs covers every limiter, alone and combined. The bucket's burst
// is small so the random programs run out of tokens and see its delays.
var limiterSpecs = []limiterSpec{
	{
		"default-controller",
		func() limiter { return cgworkqueue.DefaultTypedControllerRateLimiter[string]() },
		func() limiter { return DefaultTypedControllerRateLimiter[string]() },
	},
	{
		"default-item-based",
		func() limiter { return cgworkqueue.DefaultTypedItemBasedRateLimiter[string]() },
		func() limiter { return DefaultTypedItemBasedRateLimiter[string]() },
	},
	{
		"exponential-1ms-1s",
		func() limiter {
			return cgworkqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)
		},
		func() limiter {
			return NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)
		},
	},
	{
		"fast-slow-5ms-1s-3",
		func() limiter {
			return cgworkqueue.NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, time.Second, 3)
		},
		func() limiter { return NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, time.Second, 3) },
	},
	{
		"bucket-10qps-burst-2",
		func() limiter { return &cgworkqueue.TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(10, 2)} },
		func() limiter { return &TypedBucketRateLimiter[string]{Limiter: rate.NewLimiter(10, 2)} },
	},
	{
		"max-of(fast-slow,exponential)",
		func() limiter {
			return cgworkqueue.NewTypedMaxOfRateLimiter(
				cgworkqueue.NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, 3*time.Second, 3),
				cgworkqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second))
		},
		func() limiter {
			return NewTypedMaxOfRateLimiter(
				NewTypedItemFastSlowRateLimiter[string](5*time.Millisecond, 3*time.Second, 3),
				NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second))
		},
	},
	{
		"with-max-wait(exponential,50ms)",
		func() limiter {
			return cgworkqueue.NewTypedWithMaxWaitRateLimiter(
				cgworkqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, 1000*time.Second), 50*time.Millisecond)
		},
		func() limiter {
			return NewTypedWithMaxWaitRateLimiter(
				NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, 1000*time.Second), 50*time.Millisecond)
		},
	},
}

// queueUnderTest is TypedRateLimitingInterface[string] of either package.
type queueUnderTest interface {
	Add(item string)
	Len() int
	Get() (item string, shutdown bool)
	Done(item string)
	ShutDown()
	ShutDownWithDrain()
	ShuttingDown() bool
	AddAfter(item string, duration time.Duration)
	AddRateLimited(item string)
	Forget(item string)
	NumRequeues(item string) int
}

// side is one implementation, built as a chain a test can watch: a Typed
// queue on recorded storage, inside a delaying queue, inside a rate-limiting
// queue with a recorded limiter, all on one fake clock and one recorded
// metrics provider.
type side struct {
	name    string
	q       queueUnderTest
	clock   *testingclock.FakeClock
	limiter *recordingLimiter
	storage *recordingStorage
	metrics *metricsRecorder
}

// queueName names the queues of a side whose metrics are on; "" turns them
// off, as in a queue made without a name.
func queueName(named bool) string {
	if named {
		return "q"
	}
	return ""
}

func newClientGoSide(spec limiterSpec, named bool, clk *testingclock.FakeClock) *side {
	s := &side{
		name:    "client-go",
		clock:   clk,
		limiter: &recordingLimiter{inner: spec.clientGo()},
		storage: &recordingStorage{inner: cgworkqueue.DefaultQueue[string]()},
		metrics: newMetricsRecorder(),
	}
	name, provider := queueName(named), clientGoProvider{s.metrics}
	base := cgworkqueue.NewTypedWithConfig(cgworkqueue.TypedQueueConfig[string]{
		Name: name, MetricsProvider: provider, Clock: clk, Queue: s.storage,
	})
	delaying := cgworkqueue.NewTypedDelayingQueueWithConfig(cgworkqueue.TypedDelayingQueueConfig[string]{
		Name: name, MetricsProvider: provider, Clock: clk, Queue: base,
	})
	s.q = cgworkqueue.NewTypedRateLimitingQueueWithConfig[string](s.limiter, cgworkqueue.TypedRateLimitingQueueConfig[string]{
		Name: name, MetricsProvider: provider, Clock: clk, DelayingQueue: delaying,
	})
	return s
}

func newOurSide(spec limiterSpec, named bool, clk *testingclock.FakeClock) *side {
	s := &side{
		name:    "ours",
		clock:   clk,
		limiter: &recordingLimiter{inner: spec.ours()},
		storage: &recordingStorage{inner: DefaultQueue[string]()},
		metrics: newMetricsRecorder(),
	}
	name, provider := queueName(named), ourProvider{s.metrics}
	base := NewTypedWithConfig(TypedQueueConfig[string]{
		Name: name, MetricsProvider: provider, Clock: clk, Queue: s.storage,
	})
	delaying := NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[string]{
		Name: name, MetricsProvider: provider, Clock: clk, Queue: base,
	})
	s.q = NewTypedRateLimitingQueueWithConfig[string](s.limiter, TypedRateLimitingQueueConfig[string]{
		Name: name, MetricsProvider: provider, Clock: clk, DelayingQueue: delaying,
	})
	return s
}
