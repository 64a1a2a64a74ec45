// Mirrors k8s.io/client-go v0.37.2 tools/cache/retry_with_deadline.go:
// RetryWithDeadline and NewRetryWithDeadline.

package reflector

import (
	"time"

	"k8s.io/utils/clock"
)

// RetryWithDeadline decides whether an error is retried: yes while the
// errors of one "episode" have lasted at most maxRetryDuration. An episode
// ends when no retryable error is seen for minResetPeriod.
//
// The Reflector uses it for 500 Internal Error on a watch: an etcd leader
// election makes every watch fail for a few seconds, and restarting the
// watch in place is far cheaper than every reflector relisting at once.
type RetryWithDeadline interface {
	// After records the outcome of one attempt (err may be nil).
	After(err error)
	// ShouldRetry reports whether to retry after the last error.
	ShouldRetry() bool
}

type retryWithDeadline struct {
	firstErrorTime   time.Time
	lastErrorTime    time.Time
	maxRetryDuration time.Duration
	minResetPeriod   time.Duration
	isRetryable      func(error) bool
	clock            clock.Clock
}

// NewRetryWithDeadline returns a RetryWithDeadline. A maxRetryDuration of
// zero or less never retries.
func NewRetryWithDeadline(maxRetryDuration, minResetPeriod time.Duration, isRetryable func(error) bool, clock clock.Clock) RetryWithDeadline {
	return &retryWithDeadline{
		maxRetryDuration: maxRetryDuration,
		minResetPeriod:   minResetPeriod,
		isRetryable:      isRetryable,
		clock:            clock,
	}
}

func (r *retryWithDeadline) reset() {
	r.firstErrorTime = time.Time{}
	r.lastErrorTime = time.Time{}
}

func (r *retryWithDeadline) After(err error) {
	if !r.isRetryable(err) {
		return
	}
	now := r.clock.Now()
	// A long enough gap since the last error starts a new episode.
	if now.Sub(r.lastErrorTime) >= r.minResetPeriod {
		r.reset()
	}
	if r.firstErrorTime.IsZero() {
		r.firstErrorTime = now
	}
	r.lastErrorTime = now
}

func (r *retryWithDeadline) ShouldRetry() bool {
	if r.maxRetryDuration <= 0 {
		return false
	}
	if r.clock.Now().Sub(r.firstErrorTime) <= r.maxRetryDuration {
		return true
	}
	r.reset()
	return false
}
