// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go: resyncChan and
// startResync.

package reflector

import (
	"context"
	"time"
)

// resyncChan returns a channel that fires after one resync period, and the
// function that stops its timer. With no period it never fires.
func (r *Reflector) resyncChan() (<-chan time.Time, func() bool) {
	if r.resyncPeriod == 0 {
		return nil, func() bool { return false }
	}
	// A fresh timer per period, stopped on the way out: when watches keep
	// failing, ListAndWatch runs often, and timers left running would pile up.
	t := r.clock.NewTimer(r.resyncPeriod)
	return t.C(), t.Stop
}

// startResync calls the store's Resync every resync period (if ShouldResync
// agrees) until ctx ends. Resync does not talk to the apiserver: it asks the
// store to deliver what it already holds again, which lets a controller
// re-check every object periodically without a single request. An error
// from Resync is sent on resyncerrc, which ends the current watch.
func (r *Reflector) startResync(ctx context.Context, resyncerrc chan error) {
	resyncCh, cleanup := r.resyncChan()
	defer func() { cleanup() }()
	for {
		select {
		case <-resyncCh:
		case <-ctx.Done():
			return
		}
		if r.ShouldResync == nil || r.ShouldResync() {
			if err := r.store.Resync(); err != nil {
				resyncerrc <- err
				return
			}
		}
		cleanup()
		resyncCh, cleanup = r.resyncChan()
	}
}
