// Mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go:
// sharedIndexInformer.Run, RunWithContext, HasStarted, HasSynced,
// HasSyncedChecker, sharedIndexInformerDone, LastSyncResourceVersion,
// IsStopped; and sharedProcessorRunHook, its tests' hook, as processorRunHook.

package informer

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
)

// Run is RunWithContext with a stop channel.
func (s *sharedIndexInformer) Run(stopCh <-chan struct{}) {
	s.RunWithContext(wait.ContextForChannel(stopCh))
}

// RunWithContext assembles the informer and runs it until ctx ends:
//
//	stage 01 ListerWatcher ─▶ stage 02 Reflector ─▶ stage 03 queue ─▶ processLoop
//	    ─▶ handleDeltas: stage 04 cache write, then stage 05 Distribute ─▶ listeners ─▶ handlers
//
// The queue is built here, so SetTransform and the watch error handler must
// come before. The processor starts first and stops last, with a context of
// its own: listeners keep draining until the controller has stopped
// producing. When RunWithContext returns, every goroutine it started has
// ended, and the informer is stopped for good.
//
// A panic on processLoop's goroutine (in an IndexFunc, say: the cache write
// is its) comes out of RunWithContext once the processor has stopped, also
// before the first sync; the reflector then stops when ctx ends, as in
// client-go. client-go's goroutine that closes synced waits only for ctx
// until the first sync, so there its deferred wait holds such a panic until
// the caller cancels a context it has no reason to cancel; ours also stops
// waiting once the controller has returned. (client-go's
// controller.RunWithContext avoids that trap for its own goroutines by not
// deferring its wait, as ours does.)
//
// A second call reports the mistake through utilruntime.HandleError and
// returns at once. client-go's returns at once too, but only logs it, at
// info level ("Warning: the sharedIndexInformer has started, run more than
// once is not allowed"), through the context's logger. Ours also tells the
// first call from the second in one step under startedLock (start), where
// client-go checks HasStarted, lets go of the lock, and takes it again to
// start: two concurrent calls can both pass there, both start a controller,
// and the second to sync closes synced again and panics.
func (s *sharedIndexInformer) RunWithContext(ctx context.Context) {
	defer utilruntime.HandleCrashWithContext(ctx)
	if err := s.start(); errors.Is(err, errRunTwice) {
		utilruntime.HandleErrorWithContext(ctx, err, "Informer not run again")
		return
	} else if err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Informer not started")
		return
	}

	processorStopCtx, stopProcessor := context.WithCancelCause(context.WithoutCancel(ctx))
	var wg wait.Group
	defer wg.Wait()                                         // for the processor and the sync watcher
	defer stopProcessor(errors.New("informer is stopping")) // after the controller returned
	wg.StartWithContext(processorStopCtx, s.runProcessor)
	wg.Start(func() {
		select {
		case <-ctx.Done():
		case <-processorStopCtx.Done(): // the controller returned unsynced (it panicked): ctx may live on
		case <-s.controller.HasSyncedChecker().Done():
			close(s.synced)
		}
	})
	defer func() {
		s.startedLock.Lock()
		defer s.startedLock.Unlock()
		s.stopped = true // no new handlers from now on
	}()
	s.controller.RunWithContext(ctx)
}

// processorRunHook, set by tests only, runs on the processor's goroutine
// before the processor starts its listeners: client-go's
// sharedProcessorRunHook, with which its tests make the processor start
// late. client-go's sits in sharedProcessor.run; ours where the informer
// starts the processor, which is another package.
var processorRunHook atomic.Pointer[func()]

// runProcessor runs stage 05's processor until ctx ends.
func (s *sharedIndexInformer) runProcessor(ctx context.Context) {
	if hook := processorRunHook.Load(); hook != nil {
		(*hook)()
	}
	s.processor.Run(ctx)
}

// errRunTwice is what start answers the second Run, in client-go's words.
var errRunTwice = errors.New("the sharedIndexInformer has started, run more than once is not allowed")

// start claims the one run and builds the queue and the controller, in one
// step under startedLock: of two concurrent Runs, exactly one gets past it.
// After it, the settings it read can no longer change.
func (s *sharedIndexInformer) start() error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.started {
		return errRunTwice
	}

	fifo, err := newQueueFIFO(s.queueKind, s.objectType, s.indexer, s.transform)
	if err != nil {
		s.started, s.stopped = true, true // it will never run
		return err
	}
	cfg := &Config{
		Queue:             s.seams.queue(fifo),
		ListerWatcher:     s.listerWatcher,
		ObjectType:        s.objectType,
		ObjectDescription: s.objectDescription,
		FullResyncPeriod:  s.resyncCheckPeriod,
		ShouldResync:      s.processor.ShouldResync,
		Process:           s.handleDeltas,
		ProcessBatch:      s.handleBatchDeltas,
		UseWatchList:      s.useWatchList,

		WatchErrorHandlerWithContext: s.watchErrorHandler,
	}
	c := New(cfg).(*controller)
	c.clock = s.clock
	s.controller = c
	s.started = true
	return nil
}

// HasStarted reports whether Run has been called.
func (s *sharedIndexInformer) HasStarted() bool {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	return s.started
}

// IsStopped reports whether Run has returned (or refused to start).
func (s *sharedIndexInformer) IsStopped() bool {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	return s.stopped
}

// HasSynced reports whether the cache holds the first complete list, and
// the notifications for it have been handed to the processor.
func (s *sharedIndexInformer) HasSynced() bool {
	select {
	case <-s.synced:
		return true
	default:
		return false
	}
}

// HasSyncedChecker is HasSynced as a channel to wait on. Every listener's
// HasSynced waits for it before counting its own initial adds.
func (s *sharedIndexInformer) HasSyncedChecker() DoneChecker { return sharedIndexInformerDone{s} }

// sharedIndexInformerDone is the informer's DoneChecker (client-go's, by name).
type sharedIndexInformerDone struct{ s *sharedIndexInformer }

func (d sharedIndexInformerDone) Name() string {
	return fmt.Sprintf("SharedIndexInformer %T", d.s.objectType)
}

func (d sharedIndexInformerDone) Done() <-chan struct{} { return d.s.synced }

// LastSyncResourceVersion is the reflector's, or "" before Run.
func (s *sharedIndexInformer) LastSyncResourceVersion() string {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.controller == nil {
		return ""
	}
	return s.controller.LastSyncResourceVersion()
}
