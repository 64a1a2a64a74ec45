// Mirrors k8s.io/client-go v0.37.2 util/workqueue/default_rate_limiters.go:
// TypedItemExponentialFailureRateLimiter,
// NewTypedItemExponentialFailureRateLimiter, DefaultTypedItemBasedRateLimiter,
// TypedItemFastSlowRateLimiter and NewTypedItemFastSlowRateLimiter: the
// limiters that count failures per item.

package workqueue

import (
	"math"
	"sync"
	"time"
)

// failureCounts counts When calls per item, for the per-item limiters. The
// zero value is ready to use.
type failureCounts[T comparable] struct {
	failuresLock sync.Mutex
	failures     map[T]int
}

// next counts one more failure of item and returns how many came before it.
func (c *failureCounts[T]) next(item T) int {
	c.failuresLock.Lock()
	defer c.failuresLock.Unlock()
	if c.failures == nil {
		c.failures = map[T]int{}
	}
	n := c.failures[item]
	c.failures[item] = n + 1
	return n
}

func (c *failureCounts[T]) count(item T) int {
	c.failuresLock.Lock()
	defer c.failuresLock.Unlock()
	return c.failures[item]
}

func (c *failureCounts[T]) forget(item T) {
	c.failuresLock.Lock()
	defer c.failuresLock.Unlock()
	delete(c.failures, item)
}

// TypedItemExponentialFailureRateLimiter makes an item that has failed n
// times before wait baseDelay·2^n, at most maxDelay. It never forgets by
// itself: giving up after some number of failures, or expiring old ones, is
// the caller's business (Forget).
type TypedItemExponentialFailureRateLimiter[T comparable] struct {
	counts failureCounts[T]

	baseDelay time.Duration
	maxDelay  time.Duration
}

var _ TypedRateLimiter[string] = &TypedItemExponentialFailureRateLimiter[string]{}

// NewTypedItemExponentialFailureRateLimiter returns a limiter that waits
// baseDelay, then twice that, and so on, up to maxDelay.
func NewTypedItemExponentialFailureRateLimiter[T comparable](baseDelay time.Duration, maxDelay time.Duration) TypedRateLimiter[T] {
	return &TypedItemExponentialFailureRateLimiter[T]{baseDelay: baseDelay, maxDelay: maxDelay}
}

// DefaultTypedItemBasedRateLimiter is the exponential limiter from 1ms to
// 1000s.
func DefaultTypedItemBasedRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedItemExponentialFailureRateLimiter[T](time.Millisecond, 1000*time.Second)
}

// When returns baseDelay·2^n for an item that failed n times before, at most
// maxDelay, and counts this failure.
func (r *TypedItemExponentialFailureRateLimiter[T]) When(item T) time.Duration {
	return exponentialBackoff(r.baseDelay, r.maxDelay, r.counts.next(item))
}

// exponentialBackoff is base·2^exp, capped at maxDelay.
//
// It is computed in float64, as client-go does, so the two agree to the
// nanosecond (float64(base) rounds bases above 2^53ns, about 104 days).
// math.Ldexp multiplies by 2^exp exactly and, unlike base·math.Pow(2, exp),
// gives 0 rather than NaN for a zero base past 2^1023. Any product from 2^63ns
// up does not fit in a Duration and means maxDelay; client-go tests "greater
// than math.MaxInt64", which as a float64 is 2^63 itself, so a power-of-two
// base that lands exactly on 2^63 slips through and is converted to whatever
// the CPU makes of an out-of-range float (on amd64, the most negative
// Duration: "retry now").
func exponentialBackoff(base, maxDelay time.Duration, exp int) time.Duration {
	backoff := math.Ldexp(float64(base), exp)
	if backoff >= math.MaxInt64 { // the constant rounds to 2^63 as a float64
		return maxDelay
	}
	if backoff <= math.MinInt64 { // a negative base, doubled past the range
		return min(math.MinInt64, maxDelay)
	}
	return min(time.Duration(backoff), maxDelay)
}

// NumRequeues is the number of failures counted for item.
func (r *TypedItemExponentialFailureRateLimiter[T]) NumRequeues(item T) int {
	return r.counts.count(item)
}

// Forget clears item's failures: its next wait is baseDelay again.
func (r *TypedItemExponentialFailureRateLimiter[T]) Forget(item T) {
	r.counts.forget(item)
}

// TypedItemFastSlowRateLimiter retries an item quickly (fastDelay) for its
// first maxFastAttempts failures, then slowly (slowDelay).
type TypedItemFastSlowRateLimiter[T comparable] struct {
	counts failureCounts[T]

	maxFastAttempts int
	fastDelay       time.Duration
	slowDelay       time.Duration
}

var _ TypedRateLimiter[string] = &TypedItemFastSlowRateLimiter[string]{}

// NewTypedItemFastSlowRateLimiter returns a limiter that waits fastDelay for
// the first maxFastAttempts failures of an item, slowDelay after.
func NewTypedItemFastSlowRateLimiter[T comparable](fastDelay, slowDelay time.Duration, maxFastAttempts int) TypedRateLimiter[T] {
	return &TypedItemFastSlowRateLimiter[T]{fastDelay: fastDelay, slowDelay: slowDelay, maxFastAttempts: maxFastAttempts}
}

// When counts a failure of item and returns fastDelay while the count is
// within maxFastAttempts, slowDelay after.
func (r *TypedItemFastSlowRateLimiter[T]) When(item T) time.Duration {
	if r.counts.next(item)+1 <= r.maxFastAttempts {
		return r.fastDelay
	}
	return r.slowDelay
}

// NumRequeues is the number of failures counted for item.
func (r *TypedItemFastSlowRateLimiter[T]) NumRequeues(item T) int {
	return r.counts.count(item)
}

// Forget clears item's failures: it gets maxFastAttempts fast retries again.
func (r *TypedItemFastSlowRateLimiter[T]) Forget(item T) {
	r.counts.forget(item)
}
