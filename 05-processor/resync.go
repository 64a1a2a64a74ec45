// Mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go: minimumResyncPeriod,
// determineResyncPeriod, the resync arithmetic of
// sharedIndexInformer.AddEventHandlerWithOptions, sharedProcessor.shouldResync,
// sharedProcessor.resyncCheckPeriodChanged, processorListener.shouldResync,
// determineNextResync, setResyncPeriod.

package processor

import (
	"fmt"
	"time"
)

// A resync replays the informer's cache to handlers as updates whose old and
// new objects are the same; it does not talk to the apiserver (that is a
// relist, done by the reflector when a watch cannot resume). Three periods are
// involved:
//
//   - the resync check period: how often the reflector asks ShouldResync. It
//     is the informer's default resync period, lowered to the shortest period
//     a handler requests before the informer starts;
//   - each listener's resync period: how often that handler wants a replay;
//   - MinimumResyncPeriod: the floor for any non-zero request.
//
// A handler's period is never shorter than the check period (it could not be
// honoured), and is zero when the informer does not resync at all.

// MinimumResyncPeriod is the shortest resync period a handler can get.
const MinimumResyncPeriod = 1 * time.Second

// DetermineResyncPeriod is the period a listener actually uses given the one
// it wants and the informer's check period: zero stays zero (no resync), no
// check period means no resync at all, and a period shorter than the check
// period is raised to it. client-go also logs a warning for the last two.
func DetermineResyncPeriod(desired, check time.Duration) time.Duration {
	switch {
	case desired == 0:
		return 0
	case check == 0:
		return 0
	case desired < check:
		return check
	}
	return desired
}

// HandlerResyncPeriod is the resync arithmetic client-go's
// sharedIndexInformer.AddEventHandlerWithOptions does before it creates a
// listener, kept here so the informer (stage 06) and the tests share it. Given
// the period a handler requests, the informer's current check period and
// whether the informer has started, it returns the listener's requested
// period and the check period from now on:
//
//   - a non-zero request under MinimumResyncPeriod is raised to it;
//   - a request under the check period either lowers the check period (the
//     informer has not started: the reflector will tick faster) or is raised
//     to it (the informer runs: the tick rate is fixed).
//
// When the returned check period differs, the informer stores it and calls
// SharedProcessor.ResyncCheckPeriodChanged. A negative request is an error
// here; client-go silently gives such a handler the check period.
func HandlerResyncPeriod(requested, checkPeriod time.Duration, started bool) (period, newCheckPeriod time.Duration, err error) {
	if requested < 0 {
		return 0, checkPeriod, fmt.Errorf("processor: resync period %v is negative; use 0 for no resync", requested)
	}
	period, newCheckPeriod = requested, checkPeriod
	if period == 0 {
		return period, newCheckPeriod, nil
	}
	period = max(period, MinimumResyncPeriod)
	if period < checkPeriod {
		if started {
			period = checkPeriod
		} else {
			newCheckPeriod = period
		}
	}
	return period, newCheckPeriod, nil
}

// ShouldResync is called by the reflector on every resync tick. It asks every
// listener whether its resync is due, remembers the answer for the sync
// notifications that follow, moves each due listener's next resync one period
// on, and reports whether anyone is due (if not, the reflector skips the
// resync).
func (p *SharedProcessor) ShouldResync() bool {
	// A write lock: the answers are stored in the listeners map.
	p.listenersLock.Lock()
	defer p.listenersLock.Unlock()

	resyncNeeded := false
	now := p.clock.Now()
	for listener := range p.listeners {
		// Ask every listener, not just until the first yes: each one's flag
		// must be set for the distribution that follows.
		shouldResync := listener.shouldResync(now)
		p.listeners[listener] = shouldResync
		if shouldResync {
			resyncNeeded = true
			listener.determineNextResync(now)
		}
	}
	return resyncNeeded
}

// ResyncCheckPeriodChanged recomputes every listener's period after the
// informer lowered its check period (only possible before it starts).
func (p *SharedProcessor) ResyncCheckPeriodChanged(resyncCheckPeriod time.Duration) {
	p.listenersLock.RLock()
	defer p.listenersLock.RUnlock()
	for listener := range p.listeners {
		listener.setResyncPeriod(DetermineResyncPeriod(listener.requestedResyncPeriod, resyncCheckPeriod))
	}
}

// shouldResync reports whether the listener's resync is due at now. A zero
// period never is.
func (p *ProcessorListener) shouldResync(now time.Time) bool {
	p.resyncLock.Lock()
	defer p.resyncLock.Unlock()
	if p.resyncPeriod == 0 {
		return false
	}
	return !now.Before(p.nextResync)
}

// determineNextResync schedules the next resync one period after now.
func (p *ProcessorListener) determineNextResync(now time.Time) {
	p.resyncLock.Lock()
	defer p.resyncLock.Unlock()
	p.nextResync = now.Add(p.resyncPeriod)
}

// setResyncPeriod changes the listener's period; the next due date is left
// alone, as in client-go.
func (p *ProcessorListener) setResyncPeriod(resyncPeriod time.Duration) {
	p.resyncLock.Lock()
	defer p.resyncLock.Unlock()
	p.resyncPeriod = resyncPeriod
}

// ResyncPeriod is the period the listener uses (zero: no resync). Ours only,
// for tests and the demo.
func (p *ProcessorListener) ResyncPeriod() time.Duration {
	p.resyncLock.Lock()
	defer p.resyncLock.Unlock()
	return p.resyncPeriod
}
