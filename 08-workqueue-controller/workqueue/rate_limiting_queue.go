// Mirrors k8s.io/client-go v0.37.2 util/workqueue/rate_limiting_queue.go:
// TypedRateLimitingInterface, TypedRateLimitingQueueConfig,
// NewTypedRateLimitingQueue, NewTypedRateLimitingQueueWithConfig and
// rateLimitingType with AddRateLimited, NumRequeues and Forget.

package workqueue

import "k8s.io/utils/clock"

// TypedRateLimitingInterface is the queue a controller uses: a delaying work
// queue whose retries wait as long as a rate limiter says.
//
// The worker's contract, after Get:
//
//	err := reconcile(key)
//	switch {
//	case err == nil:         queue.Forget(key)         // success: reset its backoff
//	case retriable(err):     queue.AddRateLimited(key) // again, after a growing wait
//	default:                 queue.Forget(key)         // give up
//	}
//	queue.Done(key) // always: without it the key is never handed out again
//
// Forget and Done are independent: Forget touches only the rate limiter, Done
// only the queue.
type TypedRateLimitingInterface[T comparable] interface {
	TypedDelayingInterface[T]

	// AddRateLimited adds item after the wait the rate limiter gives it.
	AddRateLimited(item T)

	// Forget tells the rate limiter to stop tracking item, after a success or
	// when giving up. It does not take the item out of the queue: call Done
	// too.
	Forget(item T)

	// NumRequeues is how many times item was rate-limited since it was last
	// forgotten.
	NumRequeues(item T) int
}

// TypedRateLimitingQueueConfig holds the optional settings of a rate-limiting
// queue.
type TypedRateLimitingQueueConfig[T comparable] struct {
	// Name names the metrics; an unnamed queue reports none.
	Name string

	// MetricsProvider makes the metrics; nil means the global one.
	MetricsProvider MetricsProvider

	// Clock decides when delayed items are due; nil means the real clock.
	// (A token bucket limiter reads the real time regardless.)
	Clock clock.WithTicker

	// DelayingQueue is the queue retries go to; nil means a new delaying
	// queue with this config's name, provider and clock.
	DelayingQueue TypedDelayingInterface[T]
}

// NewTypedRateLimitingQueue returns a rate-limiting queue with no metrics.
// Remember to call Forget, or the limiter remembers every item that ever
// failed.
func NewTypedRateLimitingQueue[T comparable](rateLimiter TypedRateLimiter[T]) TypedRateLimitingInterface[T] {
	return NewTypedRateLimitingQueueWithConfig(rateLimiter, TypedRateLimitingQueueConfig[T]{})
}

// NewTypedRateLimitingQueueWithConfig returns a rate-limiting queue with the
// given settings. A nil rateLimiter means no rate limiting: AddRateLimited
// adds at once (client-go's panics at the first AddRateLimited).
func NewTypedRateLimitingQueueWithConfig[T comparable](rateLimiter TypedRateLimiter[T], config TypedRateLimitingQueueConfig[T]) TypedRateLimitingInterface[T] {
	if config.Clock == nil {
		config.Clock = clock.RealClock{}
	}
	if config.DelayingQueue == nil {
		config.DelayingQueue = NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{
			Name:            config.Name,
			MetricsProvider: config.MetricsProvider,
			Clock:           config.Clock,
		})
	}
	if rateLimiter == nil {
		rateLimiter = noRateLimiter[T]{}
	}
	return &rateLimitingType[T]{
		TypedDelayingInterface: config.DelayingQueue,
		rateLimiter:            rateLimiter,
		items:                  newItemCheck[T](),
	}
}

// rateLimitingType is a delaying queue plus a rate limiter: AddRateLimited is
// AddAfter with the limiter's When.
type rateLimitingType[T comparable] struct {
	TypedDelayingInterface[T]

	rateLimiter TypedRateLimiter[T]
	items       itemCheck[T]
}

// AddRateLimited asks the limiter how long item should wait (counting a
// retry), then adds it after that long. After ShutDown the limiter is still
// asked, and counts the requeue, and AddAfter then drops the item, as
// client-go's does. An item that cannot be a map key is refused before
// the limiter sees it (a per-item limiter would panic on it).
func (q *rateLimitingType[T]) AddRateLimited(item T) {
	if q.items.refused(item) {
		return
	}
	q.AddAfter(item, q.rateLimiter.When(item))
}

// NumRequeues is the limiter's count for item.
func (q *rateLimitingType[T]) NumRequeues(item T) int {
	return q.rateLimiter.NumRequeues(item)
}

// Forget clears item's count in the limiter.
func (q *rateLimitingType[T]) Forget(item T) {
	q.rateLimiter.Forget(item)
}
