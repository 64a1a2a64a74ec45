//go:build conformance

// Adapter for client-go's util/workqueue tests (queue_test.go, an external
// test package; delaying_queue_test.go, default_rate_limiters_test.go,
// rate_limiting_queue_test.go and metrics_test.go, internal ones), run in
// package workqueue by proving-ground/conformance. Stage 08's queue keeps
// client-go's names, the unexported ones the internal tests use included
// (newQueue, newQueueWithConfig, newRetryMetrics, waitFor, and the fields of
// delayingType, which TestRateLimitingQueue fills in by hand), so nothing
// needs renaming: queue_test.go only has its import of client-go's package
// pointed at ours, and the others compile as they are. The file is here so
// that a later rename is a change to this file only.
//
// Below are the deprecated, untyped names of client-go's util/workqueue
// (queue.go, delaying_queue.go, rate_limiting_queue.go,
// default_rate_limiters.go): Interface, Type, New, NewNamedRateLimitingQueue,
// DefaultControllerRateLimiter and the rest, each the typed one at T = any.
// client-go's tests use them; stage 08 teaches the typed names only, so they
// live here, compiled into the package only when those tests run.

package workqueue

import (
	"time"

	"k8s.io/utils/clock"
)

// Interface is TypedInterface of any.
//
// Deprecated: use TypedInterface.
type Interface TypedInterface[any]

// Type is the untyped work queue.
//
// Deprecated: use Typed.
type Type = Typed[any]

// QueueConfig configures an untyped work queue.
//
// Deprecated: use TypedQueueConfig.
type QueueConfig = TypedQueueConfig[any]

// New returns an untyped work queue.
//
// Deprecated: use NewTyped.
func New() *Type { return NewWithConfig(QueueConfig{}) }

// NewWithConfig returns an untyped work queue with the given settings.
//
// Deprecated: use NewTypedWithConfig.
func NewWithConfig(config QueueConfig) *Type { return NewTypedWithConfig(config) }

// NewNamed returns an untyped work queue whose metrics are named name.
//
// Deprecated: use NewWithConfig.
func NewNamed(name string) *Type { return NewWithConfig(QueueConfig{Name: name}) }

// DelayingInterface is TypedDelayingInterface of any.
//
// Deprecated: use TypedDelayingInterface.
type DelayingInterface TypedDelayingInterface[any]

// DelayingQueueConfig configures an untyped delaying queue.
//
// Deprecated: use TypedDelayingQueueConfig.
type DelayingQueueConfig = TypedDelayingQueueConfig[any]

// NewDelayingQueue returns an untyped delaying queue with no metrics.
//
// Deprecated: use NewTypedDelayingQueue.
func NewDelayingQueue() DelayingInterface {
	return NewDelayingQueueWithConfig(DelayingQueueConfig{})
}

// NewDelayingQueueWithConfig returns an untyped delaying queue.
//
// Deprecated: use NewTypedDelayingQueueWithConfig.
func NewDelayingQueueWithConfig(config DelayingQueueConfig) DelayingInterface {
	return NewTypedDelayingQueueWithConfig(config)
}

// TypedNewDelayingQueue is NewTypedDelayingQueue under an older name.
//
// Deprecated: use NewTypedDelayingQueueWithConfig.
func TypedNewDelayingQueue[T comparable]() TypedDelayingInterface[T] {
	return NewTypedDelayingQueue[T]()
}

// NewDelayingQueueWithCustomQueue returns an untyped delaying queue that adds
// due items to q.
//
// Deprecated: use NewDelayingQueueWithConfig.
func NewDelayingQueueWithCustomQueue(q Interface, name string) DelayingInterface {
	return NewDelayingQueueWithConfig(DelayingQueueConfig{Name: name, Queue: q})
}

// NewNamedDelayingQueue returns an untyped delaying queue named name.
//
// Deprecated: use NewDelayingQueueWithConfig.
func NewNamedDelayingQueue(name string) DelayingInterface {
	return NewDelayingQueueWithConfig(DelayingQueueConfig{Name: name})
}

// NewDelayingQueueWithCustomClock returns an untyped delaying queue on clock.
//
// Deprecated: use NewDelayingQueueWithConfig.
func NewDelayingQueueWithCustomClock(clock clock.WithTicker, name string) DelayingInterface {
	return NewDelayingQueueWithConfig(DelayingQueueConfig{Name: name, Clock: clock})
}

// RateLimitingInterface is TypedRateLimitingInterface of any.
//
// Deprecated: use TypedRateLimitingInterface.
type RateLimitingInterface TypedRateLimitingInterface[any]

// RateLimitingQueueConfig configures an untyped rate-limiting queue.
//
// Deprecated: use TypedRateLimitingQueueConfig.
type RateLimitingQueueConfig = TypedRateLimitingQueueConfig[any]

// NewRateLimitingQueue returns an untyped rate-limiting queue with no metrics.
//
// Deprecated: use NewTypedRateLimitingQueue.
func NewRateLimitingQueue(rateLimiter RateLimiter) RateLimitingInterface {
	return NewRateLimitingQueueWithConfig(rateLimiter, RateLimitingQueueConfig{})
}

// NewRateLimitingQueueWithConfig returns an untyped rate-limiting queue.
//
// Deprecated: use NewTypedRateLimitingQueueWithConfig.
func NewRateLimitingQueueWithConfig(rateLimiter RateLimiter, config RateLimitingQueueConfig) RateLimitingInterface {
	return NewTypedRateLimitingQueueWithConfig[any](rateLimiter, config)
}

// NewNamedRateLimitingQueue returns an untyped rate-limiting queue named name.
//
// Deprecated: use NewRateLimitingQueueWithConfig.
func NewNamedRateLimitingQueue(rateLimiter RateLimiter, name string) RateLimitingInterface {
	return NewRateLimitingQueueWithConfig(rateLimiter, RateLimitingQueueConfig{Name: name})
}

// NewRateLimitingQueueWithDelayingInterface returns an untyped rate-limiting
// queue whose retries go to di.
//
// Deprecated: use NewRateLimitingQueueWithConfig.
func NewRateLimitingQueueWithDelayingInterface(di DelayingInterface, rateLimiter RateLimiter) RateLimitingInterface {
	return NewRateLimitingQueueWithConfig(rateLimiter, RateLimitingQueueConfig{DelayingQueue: di})
}

// RateLimiter is TypedRateLimiter of any.
//
// Deprecated: use TypedRateLimiter.
type RateLimiter TypedRateLimiter[any]

// DefaultControllerRateLimiter is DefaultTypedControllerRateLimiter of any.
//
// Deprecated: use DefaultTypedControllerRateLimiter.
func DefaultControllerRateLimiter() RateLimiter {
	return DefaultTypedControllerRateLimiter[any]()
}

// BucketRateLimiter is the untyped token bucket.
//
// Deprecated: use TypedBucketRateLimiter.
type BucketRateLimiter = TypedBucketRateLimiter[any]

// ItemExponentialFailureRateLimiter is the untyped exponential limiter.
//
// Deprecated: use TypedItemExponentialFailureRateLimiter.
type ItemExponentialFailureRateLimiter = TypedItemExponentialFailureRateLimiter[any]

// NewItemExponentialFailureRateLimiter returns an untyped exponential limiter.
//
// Deprecated: use NewTypedItemExponentialFailureRateLimiter.
func NewItemExponentialFailureRateLimiter(baseDelay time.Duration, maxDelay time.Duration) RateLimiter {
	return NewTypedItemExponentialFailureRateLimiter[any](baseDelay, maxDelay)
}

// DefaultItemBasedRateLimiter is the untyped exponential limiter from 1ms to
// 1000s.
//
// Deprecated: use DefaultTypedItemBasedRateLimiter.
func DefaultItemBasedRateLimiter() RateLimiter {
	return DefaultTypedItemBasedRateLimiter[any]()
}

// ItemFastSlowRateLimiter is the untyped fast-slow limiter.
//
// Deprecated: use TypedItemFastSlowRateLimiter.
type ItemFastSlowRateLimiter = TypedItemFastSlowRateLimiter[any]

// NewItemFastSlowRateLimiter returns an untyped fast-slow limiter.
//
// Deprecated: use NewTypedItemFastSlowRateLimiter.
func NewItemFastSlowRateLimiter(fastDelay, slowDelay time.Duration, maxFastAttempts int) RateLimiter {
	return NewTypedItemFastSlowRateLimiter[any](fastDelay, slowDelay, maxFastAttempts)
}

// MaxOfRateLimiter is the untyped max-of limiter.
//
// Deprecated: use TypedMaxOfRateLimiter.
type MaxOfRateLimiter = TypedMaxOfRateLimiter[any]

// NewMaxOfRateLimiter returns an untyped max-of limiter.
//
// Deprecated: use NewTypedMaxOfRateLimiter.
func NewMaxOfRateLimiter(limiters ...TypedRateLimiter[any]) RateLimiter {
	return NewTypedMaxOfRateLimiter(limiters...)
}

// WithMaxWaitRateLimiter is the untyped capping limiter.
//
// Deprecated: use TypedWithMaxWaitRateLimiter.
type WithMaxWaitRateLimiter = TypedWithMaxWaitRateLimiter[any]

// NewWithMaxWaitRateLimiter returns an untyped capping limiter.
//
// Deprecated: use NewTypedWithMaxWaitRateLimiter.
func NewWithMaxWaitRateLimiter(limiter RateLimiter, maxDelay time.Duration) RateLimiter {
	return NewTypedWithMaxWaitRateLimiter[any](limiter, maxDelay)
}

var (
	_ RateLimiter = &BucketRateLimiter{}
	_ RateLimiter = &ItemExponentialFailureRateLimiter{}
	_ RateLimiter = &ItemFastSlowRateLimiter{}
	_ RateLimiter = &MaxOfRateLimiter{}
	_ RateLimiter = &WithMaxWaitRateLimiter{}
)
