// Mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go: processorListener,
// newProcessListener, add, pop, run, watchSynced, HasSynced, HasSyncedChecker,
// ShutdownChan.

package processor

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"informer-from-scratch/internal/nilpointer"
)

// InitialBufferSize is how many notifications a listener's ring holds before
// it first grows, as in client-go.
const InitialBufferSize = 1024

// ResourceEventHandlerRegistration is the handle AddListener returns (and an
// informer's AddEventHandler will return): give it back to RemoveListener, or
// ask it whether its handler has synced.
type ResourceEventHandlerRegistration interface {
	// HasSynced reports whether the source has synced and this handler has
	// been called for every item of the initial list.
	HasSynced() bool
	// HasSyncedChecker is HasSynced as a channel to wait on.
	HasSyncedChecker() DoneChecker
}

// ProcessorListener relays notifications from a SharedProcessor to one
// ResourceEventHandler, using three goroutines, two unbuffered channels and an
// unbounded ring buffer:
//
//		distribute ──Add──▶ addCh ──▶ pop ⇄ pendingNotifications ──▶ nextCh ──▶ run ──▶ handler
//
//	  - Add (called by the distributor) sends on addCh. pop is always ready to
//	    receive, so Add returns almost at once however slow the handler is.
//	  - pop moves notifications from addCh to nextCh, parking them in the ring
//	    while run is busy. It keeps one notification "in hand" and offers it on
//	    nextCh; the select case for nextCh is switched off (nil channel) when
//	    there is nothing to offer.
//	  - run receives from nextCh and calls the handler, one notification at a
//	    time, in order.
//	  - watchSynced, the third goroutine, waits for the source's HasSynced and
//	    tells the sync tracker, which then computes this handler's HasSynced.
//
// The ring never refuses a notification: a stalled handler makes it grow
// until the process runs out of memory. That is the price of "never block the
// distributor, never drop, never reorder".
//
// A ProcessorListener is also the ResourceEventHandlerRegistration for its
// handler. It belongs to the first processor it is added to, and cannot be
// added again once removed or stopped.
type ProcessorListener struct {
	nextCh      chan Notification
	addCh       chan Notification
	done        chan struct{} // closed when pop returns: tells watchSynced to stop
	runFinished chan struct{} // closed when run returns

	handler     ResourceEventHandler
	handlerName string

	syncTracker       *SingleFileTracker
	upstreamHasSynced DoneChecker

	// owner is the processor the listener was first added to; it is never
	// added to another, nor again once removed (see SharedProcessor.takeOwnership).
	owner atomic.Pointer[SharedProcessor]

	// pendingNotifications is touched only by pop. Its length and capacity are
	// copied into atomics so other goroutines (run's tracing in client-go, our
	// demo's depth gauge) can read them without a lock.
	pendingNotifications       RingGrowing[Notification]
	pendingNotificationsLength atomic.Int64
	pendingNotificationsCap    atomic.Int64

	// onPanic, when set, recovers a handler's panic instead of crashing the
	// process (ProcessorOptions.OnHandlerPanic). Set before run starts.
	onPanic func(HandlerPanic)

	// unbuffered is a teaching switch (WithoutBuffer): pop holds at most one
	// notification and parks none in the ring. Never set by default.
	unbuffered bool

	// awaitingInitialList holds watchSynced back for a listener added with
	// AddLateListener until StartWatchSynced; watchingSynced records that
	// watchSynced has started. Both are guarded by the processor's
	// listenersLock.
	awaitingInitialList, watchingSynced bool

	// requestedResyncPeriod is what the handler asked for, after the
	// informer's adjustments (see HandlerResyncPeriod); it is kept so the
	// period can be recomputed if the resync check period changes before the
	// informer starts.
	requestedResyncPeriod time.Duration
	// resyncPeriod is the period actually used: zero when the informer does
	// not resync at all.
	resyncPeriod time.Duration
	// nextResync is the earliest time this listener wants its next resync.
	nextResync time.Time
	resyncLock sync.Mutex
}

var _ ResourceEventHandlerRegistration = &ProcessorListener{}

// NewProcessListener returns a listener for handler that is not running yet:
// SharedProcessor.AddListener (or Run) starts its goroutines.
// requestedResyncPeriod and resyncPeriod are computed by the informer (see
// HandlerResyncPeriod and DetermineResyncPeriod); now starts the resync
// clock; bufferSize is the ring's initial capacity; hasSynced is the source's
// own "has synced", which this handler's HasSynced waits for.
//
// Unlike client-go's, it returns an error instead of a listener that panics
// later (or a panic now) when the handler, a pointer handler or the source's
// checker is nil, and instead of a listener that resyncs on every tick when a
// resync period is negative.
func NewProcessListener(handler ResourceEventHandler, requestedResyncPeriod, resyncPeriod time.Duration, now time.Time, bufferSize int, hasSynced DoneChecker) (*ProcessorListener, error) {
	if handler == nil {
		return nil, errors.New("processor: a nil ResourceEventHandler cannot be registered")
	}
	if nilpointer.Is(handler) {
		// A typed nil, such as (*ResourceEventHandlerFuncs)(nil): its
		// methods would dereference it on the first notification.
		return nil, fmt.Errorf("processor: a nil %T cannot be registered as a ResourceEventHandler", handler)
	}
	if hasSynced == nil {
		return nil, errors.New("processor: the listener needs the source's HasSynced checker, got nil")
	}
	if requestedResyncPeriod < 0 || resyncPeriod < 0 {
		// A negative period puts the next resync in the past after every
		// one: the handler would be resynced on every tick.
		return nil, fmt.Errorf("processor: resync periods must not be negative (requested %v, actual %v); use 0 for no resync", requestedResyncPeriod, resyncPeriod)
	}
	handlerName := nameForHandler(handler)
	ret := &ProcessorListener{
		nextCh:                make(chan Notification),
		addCh:                 make(chan Notification),
		done:                  make(chan struct{}),
		runFinished:           make(chan struct{}),
		handler:               handler,
		handlerName:           handlerName,
		upstreamHasSynced:     hasSynced,
		syncTracker:           NewSingleFileTracker(fmt.Sprintf("%s + event handler %s", hasSynced.Name(), handlerName)),
		pendingNotifications:  *NewRingGrowing[Notification](bufferSize),
		requestedResyncPeriod: requestedResyncPeriod,
		resyncPeriod:          resyncPeriod,
	}
	ret.pendingNotificationsCap.Store(int64(ret.pendingNotifications.Cap()))
	ret.determineNextResync(now)
	return ret, nil
}

// HasSynced reports whether the source has synced and this handler has
// returned from OnAdd for every item of the initial list.
func (p *ProcessorListener) HasSynced() bool { return p.syncTracker.HasSynced() }

// HasSyncedChecker is HasSynced as a channel to wait on.
func (p *ProcessorListener) HasSyncedChecker() DoneChecker { return p.syncTracker }

// ShutdownChan is closed once the handler will not be called any more: after
// RemoveListener or the processor's stop, when the call in progress returns.
func (p *ProcessorListener) ShutdownChan() <-chan struct{} { return p.runFinished }

// PendingNotifications is how many notifications wait in the ring (not
// counting the one pop holds, nor the one run is handling). Ours only: the
// demo's depth gauge.
func (p *ProcessorListener) PendingNotifications() int64 {
	return p.pendingNotificationsLength.Load()
}

// BufferCapacity is the ring's current capacity; it only ever grows. Ours
// only: it shows what a burst leaves behind.
func (p *ProcessorListener) BufferCapacity() int64 { return p.pendingNotificationsCap.Load() }

// Add hands a notification to the listener. It blocks only until pop takes
// it, which pop is always ready to do once the listener runs. An initial-list
// add is counted by the sync tracker before it is queued, so HasSynced can
// never be true while it is still on its way.
//
// The distributor calls Add; an informer calls it directly only to replay its
// cache to a handler added late, holding the lock that keeps Distribute out.
// Add must not be called after RemoveListener or after the processor stopped.
func (p *ProcessorListener) Add(notification Notification) {
	if a, ok := notification.(AddNotification); ok && a.IsInInitialList {
		p.syncTracker.Start()
	}
	p.addCh <- notification
}

// WithoutBuffer is a teaching switch, not in client-go: it takes away this
// listener's ring, so pop holds at most one notification, and Add waits
// while the handler is busy with the one before. Stage 06's demo
// (--break=blocking-listener) uses it to show what the ring is for: the
// distributor, and with it the informer's processLoop, its cache and every
// other handler, then wait for the slowest handler. Call it before the
// listener is added to a processor; a handler that never returns then keeps
// the processor from stopping, as it would keep the informer from moving.
func (p *ProcessorListener) WithoutBuffer() { p.unbuffered = true }

// WrapHandler is a watcher's seam, not in client-go: from now on the
// listener calls wrap(handler) where it called handler, so that a wrapper
// can see each call (stage 06's Seams.Handler). The listener keeps the name
// it gave the handler (in its errors, its HasSynced checker and its
// HandlerPanic), so a watched handler is named as an unwatched one. Call it
// before the listener is added to a processor.
func (p *ProcessorListener) WrapHandler(wrap func(ResourceEventHandler) ResourceEventHandler) {
	p.handler = wrap(p.handler)
}

// pop pumps notifications from addCh to nextCh, parking them in the ring
// while run is busy: it is always ready to receive (but for WithoutBuffer's
// listener while it holds one), and offers run every notification once, in
// order. It returns when addCh is closed, dropping whatever is still
// buffered (a removed or stopped listener gets no more calls), and closes
// done and nextCh on its way out.
//
//lab:05
func (p *ProcessorListener) pop() {
	defer utilruntime.HandleCrash()
	defer close(p.nextCh) // tells run to stop
	defer close(p.done)   // tells watchSynced to stop

	// nextCh is nil (a select case that never fires) while there is nothing
	// to offer; notification is the one in hand.
	var nextCh chan<- Notification
	var notification Notification
	for {
		addCh := p.addCh
		if p.unbuffered && notification != nil {
			addCh = nil // WithoutBuffer: no room for a second one
		}
		select {
		case nextCh <- notification:
			// run took it: take the next one from the ring, if any.
			var ok bool
			notification, ok = p.pendingNotifications.ReadOne()
			if ok {
				p.pendingNotificationsLength.Add(-1)
			} else {
				nextCh = nil
			}
		case notificationToAdd, ok := <-addCh:
			if !ok {
				return
			}
			if notification == nil {
				// Nothing in hand, so the ring is empty too: skip it.
				notification = notificationToAdd
				nextCh = p.nextCh
			} else {
				p.pendingNotifications.WriteOne(notificationToAdd)
				p.pendingNotificationsLength.Add(1)
				p.pendingNotificationsCap.Store(int64(p.pendingNotifications.Cap()))
			}
		}
	}
}

// run calls the handler, through deliver, for each notification, in order,
// until nextCh is closed, and then closes runFinished. A panicking handler
// is dealt with in deliver; if deliver reports a crash it survived (only
// when panics do not crash the process), run waits a second before the next
// call, as client-go's wait.Until does before it restarts its loop, so a
// handler that panics on everything does not spin.
//
//lab:05
func (p *ProcessorListener) run() {
	defer close(p.runFinished)
	crashed := false
	for next := range p.nextCh {
		if crashed {
			time.Sleep(time.Second)
		}
		crashed = p.deliver(next)
	}
}

// watchSynced tells the tracker when the source has synced, or gives up when
// the listener stops first.
func (p *ProcessorListener) watchSynced() {
	select {
	case <-p.upstreamHasSynced.Done():
		p.syncTracker.UpstreamHasSynced()
	case <-p.done:
	}
}
