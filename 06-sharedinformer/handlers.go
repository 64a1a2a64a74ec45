// Mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go:
// sharedIndexInformer.AddEventHandler, AddEventHandlerWithResyncPeriod,
// AddEventHandlerWithOptions, RemoveEventHandler, and ShutDownEventHandler.

package informer

import (
	"fmt"
	"time"

	processor "informer-from-scratch/05-processor"
)

// AddEventHandler registers handler with the informer's default resync
// period.
func (s *sharedIndexInformer) AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{})
}

// AddEventHandlerWithResyncPeriod registers handler asking for resyncs every
// resyncPeriod.
func (s *sharedIndexInformer) AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error) {
	return s.AddEventHandlerWithOptions(handler, HandlerOptions{ResyncPeriod: &resyncPeriod})
}

// AddEventHandlerWithOptions registers handler: stage 05 builds it a
// listener (its goroutines, its ring, its resync period, its HasSynced),
// and the processor adds it to the fan-out. Before Run that is all: the
// handler will see the initial list like everyone. After Run, the handler
// joins late, and must be told what the cache already holds: joinLate.
//
// The resync arithmetic (client-go's, inline here) is stage 05's
// HandlerResyncPeriod, in 05-processor/resync.go. Unlike client-go, the
// listener is built, and the handler checked, before the informer's check
// period changes: a handler refused as nil changes nothing.
//
// After the informer stopped, handlers are refused, as in client-go.
func (s *sharedIndexInformer) AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error) {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()

	if s.stopped {
		return nil, fmt.Errorf("handler %v was not added to shared informer because it has stopped already", handler)
	}

	requested := s.defaultEventHandlerResyncPeriod
	if options.ResyncPeriod != nil {
		requested = *options.ResyncPeriod
	}
	period, checkPeriod, err := processor.HandlerResyncPeriod(requested, s.resyncCheckPeriod, s.started)
	if err != nil {
		return nil, err
	}
	listener, err := processor.NewProcessListener(handler, period,
		processor.DetermineResyncPeriod(period, checkPeriod), s.clock.Now(),
		processor.InitialBufferSize, s.HasSyncedChecker())
	if err != nil {
		return nil, err
	}
	if checkPeriod != s.resyncCheckPeriod {
		s.resyncCheckPeriod = checkPeriod
		s.processor.ResyncCheckPeriodChanged(checkPeriod)
	}
	s.seams.listener(listener, options.Name) // a watcher's wrapper, a teaching switch (seams.go)

	if !s.started {
		handle, _, err := s.processor.AddListener(listener)
		return handle, err
	}

	return s.joinLate(listener, handler, options.Name)
}

// joinLate adds the listener of a handler added after Run (handler, with
// its HandlerOptions.Name) and gives it the state it missed. (client-go
// writes this inline, at the end of AddEventHandlerWithOptions.)
//
// The handler gets one add (isInInitialList=true) per object in the cache,
// then every change processed after them, whatever processLoop does
// meanwhile: nothing missed, nothing twice, and never a change before the
// replayed state it follows. The replay comes from the cache, not the queue: the queue
// holds changes, not state. Its registration's HasSynced turns true only
// once the handler has returned from every replayed add, also when the
// processor's goroutine starts the listeners in the middle of the replay
// (client-go's turns true too early then: see stage 05's AddLateListener).
// It runs under startedLock, on the caller's goroutine, and never calls
// the handler itself: every call reaches it through its listener.
//
//lab:06
func (s *sharedIndexInformer) joinLate(listener *processor.ProcessorListener, handler ResourceEventHandler, name string) (ResourceEventHandlerRegistration, error) {
	// handleDeltas holds blockDeltas while it processes an item, so while
	// we hold it no item is half processed: what was processed is in the
	// cache and was distributed without this listener, what was not waits
	// for the replay and will be distributed to it too.
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	// Late: the listener does not watch its upstream's HasSynced until
	// StartWatchSynced, even if the processor starts it meanwhile.
	handle, err := s.processor.AddLateListener(listener)
	if err != nil {
		return nil, err
	}
	for _, item := range s.indexer.List() {
		s.seams.replay(handler, name, item)
		listener.Add(processor.AddNotification{NewObj: item, IsInInitialList: true})
	}
	// The replay is counted; only now may the listener learn that its
	// upstream has synced (see stage 05's SingleFileTracker), also when the
	// processor's goroutine started it only during the replay.
	s.processor.StartWatchSynced(listener)
	return handle, nil
}

// RemoveEventHandler stops delivery to handle's handler: no notification is
// queued for it from now on, the call in progress finishes, and what its
// buffer still holds may or may not be delivered. It holds blockDeltas so
// that no item is half distributed meanwhile.
//
// As in client-go, removing a registration twice, or one that another
// informer returned, does nothing and is not an error: the processor only
// looks the listener up among its own. A value that is no registration at
// all is an error: nil or another type, as in client-go ("invalid key
// type"), and also a nil listener pointer, which client-go ignores.
func (s *sharedIndexInformer) RemoveEventHandler(handle ResourceEventHandlerRegistration) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return s.processor.RemoveListener(handle)
}

// ShutDownEventHandler removes handle from informer and waits until its
// handler will not be called again: RemoveEventHandler, then its listener's
// ShutdownChan. Use it before releasing what the handler uses.
func ShutDownEventHandler(informer SharedInformer, handle ResourceEventHandlerRegistration) error {
	if err := informer.RemoveEventHandler(handle); err != nil {
		return err
	}
	s, ok := handle.(interface{ ShutdownChan() <-chan struct{} })
	if !ok {
		return fmt.Errorf("handle does not support ShutdownChan()")
	}
	<-s.ShutdownChan()
	return nil
}
