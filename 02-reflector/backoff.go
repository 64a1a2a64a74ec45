// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go: the delayHandler
// built by NewReflectorWithOptions and isWatchErrorRetriable. The delay
// itself is the algorithm of k8s.io/apimachinery's wait.Backoff.Step and
// wait.Backoff.DelayWithReset, rebuilt here so it can be read in one place.

package reflector

import (
	"math/rand/v2"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	utilnet "k8s.io/apimachinery/pkg/util/net"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/clock"
)

// delayWithReset hands out exponentially growing delays and starts again
// from the initial one when resetInterval has passed since it last did.
//
// Note what "reset" means, because it is easy to misread: the clock for the
// reset starts when the backoff is created or last reset, not when the last
// failure happened. A reflector that fails once after a quiet hour starts
// again at 800ms; so does one that has been failing without a pause for two
// minutes.
type delayWithReset struct {
	mu            sync.Mutex
	clock         clock.Clock
	initial       wait.Backoff
	current       wait.Backoff
	resetInterval time.Duration
	lastStart     time.Time
}

// newDelayWithReset returns the function the reflector calls for each delay.
// Like wait.Backoff.DelayWithReset, it never resets when Factor is not
// positive (the delay cannot grow), and never grows when resetInterval is
// not positive.
func newDelayWithReset(b wait.Backoff, c clock.Clock, resetInterval time.Duration) func() time.Duration {
	if b.Factor <= 0 {
		return stepper(b)
	}
	if resetInterval <= 0 {
		b.Steps, b.Factor = 0, 0
		return stepper(b)
	}
	d := &delayWithReset{clock: c, initial: b, current: b, resetInterval: resetInterval, lastStart: c.Now()}
	return d.next
}

func (d *delayWithReset) next() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	if now := d.clock.Now(); now.Sub(d.lastStart) > d.resetInterval {
		d.current = d.initial
		d.lastStart = now
	}
	return step(&d.current)
}

// stepper is a delay function without resets (wait.Backoff.DelayFunc).
func stepper(b wait.Backoff) func() time.Duration {
	return func() time.Duration { return step(&b) }
}

// step returns the current delay, jittered, and moves b to the next one:
// Duration×Factor, up to Cap, for at most Steps steps. Once the steps are
// used up (or the cap is hit) the delay stays where it is.
func step(b *wait.Backoff) time.Duration {
	if b.Steps < 1 {
		if b.Jitter > 0 {
			return jitter(b.Duration, b.Jitter)
		}
		return b.Duration
	}
	b.Steps--
	d := b.Duration
	if b.Factor != 0 {
		next := time.Duration(float64(d) * b.Factor)
		if b.Cap > 0 && next > b.Cap {
			next = b.Cap
			b.Steps = 0
		}
		b.Duration = next
	}
	if b.Jitter > 0 {
		d = jitter(d, b.Jitter)
	}
	return d
}

// jitter returns a random duration in [d, d+maxFactor×d): reflectors that
// failed together should not all retry together.
func jitter(d time.Duration, maxFactor float64) time.Duration {
	if maxFactor <= 0 {
		maxFactor = 1
	}
	return d + time.Duration(rand.Float64()*maxFactor*float64(d))
}

// isWatchErrorRetriable reports whether a failed watch request should be
// retried in place after a backoff. Connection refused means the apiserver is
// down or restarting, and 429 means it is shedding load: relisting
// everything would only make it worse, and the watch can resume where it was.
func isWatchErrorRetriable(err error) bool {
	return utilnet.IsConnectionRefused(err) || apierrors.IsTooManyRequests(err)
}
