// Mirrors k8s.io/client-go v0.37.2 util/workqueue/default_rate_limiters.go:
// TypedRateLimiter, DefaultTypedControllerRateLimiter,
// TypedBucketRateLimiter, TypedMaxOfRateLimiter, NewTypedMaxOfRateLimiter,
// TypedWithMaxWaitRateLimiter and NewTypedWithMaxWaitRateLimiter. The
// per-item limiters are in item_rate_limiters.go.

package workqueue

import (
	"time"

	"golang.org/x/time/rate"
)

// TypedRateLimiter decides how long an item waits before it is retried.
//
// When is asked once per retry (AddRateLimited calls it) and usually counts
// the retry; Forget says the item succeeded, or was given up, so its count
// starts again at zero. A controller that never calls Forget keeps every key
// that ever failed in the limiter's map, and the next failure of that key,
// months later, waits the maximum.
type TypedRateLimiter[T comparable] interface {
	// When returns how long item should wait, and counts a retry.
	When(item T) time.Duration
	// Forget clears what the limiter knows about item.
	Forget(item T)
	// NumRequeues returns the retries counted for item since it was last
	// forgotten.
	NumRequeues(item T) int
}

// DefaultTypedControllerRateLimiter is the limiter controllers use unless
// they pick another: the slower of
//
//   - per item, 5ms·2^n after n earlier failures, capped at 1000s (the cap
//     is reached at the 19th retry: 5ms·2^18 = 1310.72s), and
//   - overall, a token bucket of 100 that refills 10 per second, so a storm of
//     failures across many keys is retried at 10 per second after the first
//     100.
func DefaultTypedControllerRateLimiter[T comparable]() TypedRateLimiter[T] {
	return NewTypedMaxOfRateLimiter(
		NewTypedItemExponentialFailureRateLimiter[T](5*time.Millisecond, 1000*time.Second),
		&TypedBucketRateLimiter[T]{Limiter: rate.NewLimiter(rate.Limit(10), 100)},
	)
}

// TypedBucketRateLimiter is a token bucket shared by every item: each When
// takes a token and returns how long until that token exists. It counts no
// retries and forgets nothing. The bucket reads the real time (time.Now),
// whatever clock the queue was given.
type TypedBucketRateLimiter[T comparable] struct {
	*rate.Limiter
}

var _ TypedRateLimiter[string] = &TypedBucketRateLimiter[string]{}

// When reserves a token. A nil Limiter (the zero TypedBucketRateLimiter)
// never makes an item wait; client-go's panics.
func (r *TypedBucketRateLimiter[T]) When(T) time.Duration {
	if r.Limiter == nil {
		return 0
	}
	return r.Limiter.Reserve().Delay()
}

// NumRequeues is always 0: the bucket does not count per item.
func (r *TypedBucketRateLimiter[T]) NumRequeues(T) int { return 0 }

// Forget does nothing: the bucket does not track items.
func (r *TypedBucketRateLimiter[T]) Forget(T) {}

// TypedMaxOfRateLimiter asks every limiter and returns the longest wait. Every
// limiter counts the retry, whatever it answered. Combined with a token
// bucket, an item held back by another limiter still took its token, so the
// bucket's burst can seem exceeded.
type TypedMaxOfRateLimiter[T comparable] struct {
	limiters []TypedRateLimiter[T]
}

// NewTypedMaxOfRateLimiter combines limiters. Nil limiters are skipped
// (client-go's panics on them at the first When); with none, every wait is 0.
func NewTypedMaxOfRateLimiter[T comparable](limiters ...TypedRateLimiter[T]) TypedRateLimiter[T] {
	r := &TypedMaxOfRateLimiter[T]{}
	for _, l := range limiters {
		if l != nil {
			r.limiters = append(r.limiters, l)
		}
	}
	return r
}

// When asks every limiter, so each counts the retry, and returns the longest
// wait.
func (r *TypedMaxOfRateLimiter[T]) When(item T) time.Duration {
	var longest time.Duration
	for _, l := range r.limiters {
		longest = max(longest, l.When(item))
	}
	return longest
}

// NumRequeues is the highest count any of the limiters keeps.
func (r *TypedMaxOfRateLimiter[T]) NumRequeues(item T) int {
	var most int
	for _, l := range r.limiters {
		most = max(most, l.NumRequeues(item))
	}
	return most
}

// Forget forgets item in every limiter.
func (r *TypedMaxOfRateLimiter[T]) Forget(item T) {
	for _, l := range r.limiters {
		l.Forget(item)
	}
}

// TypedWithMaxWaitRateLimiter caps another limiter's waits at maxDelay.
type TypedWithMaxWaitRateLimiter[T comparable] struct {
	limiter  TypedRateLimiter[T]
	maxDelay time.Duration
}

// NewTypedWithMaxWaitRateLimiter caps limiter's waits at maxDelay. A nil
// limiter answers 0 (client-go's panics).
func NewTypedWithMaxWaitRateLimiter[T comparable](limiter TypedRateLimiter[T], maxDelay time.Duration) TypedRateLimiter[T] {
	if limiter == nil {
		limiter = noRateLimiter[T]{}
	}
	return &TypedWithMaxWaitRateLimiter[T]{limiter: limiter, maxDelay: maxDelay}
}

// When is the wrapped limiter's wait, at most maxDelay.
func (w TypedWithMaxWaitRateLimiter[T]) When(item T) time.Duration {
	if w.limiter == nil { // the zero value
		return 0
	}
	return min(w.limiter.When(item), w.maxDelay)
}

// Forget forgets item in the wrapped limiter.
func (w TypedWithMaxWaitRateLimiter[T]) Forget(item T) {
	if w.limiter != nil {
		w.limiter.Forget(item)
	}
}

// NumRequeues is the wrapped limiter's count.
func (w TypedWithMaxWaitRateLimiter[T]) NumRequeues(item T) int {
	if w.limiter == nil {
		return 0
	}
	return w.limiter.NumRequeues(item)
}

// noRateLimiter never makes an item wait; it stands in for a nil limiter.
type noRateLimiter[T comparable] struct{}

func (noRateLimiter[T]) When(T) time.Duration { return 0 }
func (noRateLimiter[T]) Forget(T)             {}
func (noRateLimiter[T]) NumRequeues(T) int    { return 0 }
