// Mirrors kubernetes/sample-controller controller.go: Run, runWorker and
// processNextWorkItem; and main.go's start and stop of the informer
// factories, which Run does here so that the whole shutdown is in one
// place and in one order.

package controller

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	informer "informer-from-scratch/06-sharedinformer"
)

// Run starts the informers, waits for their caches and handlers to sync,
// starts workers workers, and blocks until ctx ends. Then it shuts down
// gracefully, in this order:
//
//  1. stop taking keys: the queue refuses new ones, and no worker starts a
//     reconcile it has not started yet (the keys still queued are dropped:
//     the next start lists everything again and reconciles it all);
//  2. drain: wait, with the queue's ShutDownWithDrain, for every reconcile
//     in flight to finish. Their context is not ctx but one that stays
//     alive until the drain is over, so a write half done is finished, not
//     cut off; DrainTimeout bounds the wait;
//  3. stop the informers, and wait for every goroutine they, the workers
//     and the event recorder started.
//
// It returns nil after a shutdown, or an error if the caches never synced
// (ctx ended first) or workers < 1; either way the queue is shut down when
// it returns. A Controller runs once: a second Run, whatever its workers,
// returns an error and leaves the first one running as it was, and Run
// after ShutDown is an error too.
func (c *Controller) Run(ctx context.Context, workers int) error {
	// Claim the controller before anything else: a second Run must not
	// reach the queue the first one is using.
	if !c.state.CompareAndSwap(stateNew, stateRunning) {
		if c.state.Load() == stateShutDown {
			return errors.New("controller: Run after ShutDown")
		}
		return errors.New("controller: Run was called twice")
	}
	if workers < 1 {
		c.workqueue.ShutDown()
		return fmt.Errorf("controller: Run needs at least one worker, got %d", workers)
	}
	logger := klog.FromContext(ctx)
	stopRecorder := c.startRecorder()
	defer stopRecorder()

	// The informers outlive ctx: they stop in step 3, after the drain.
	informerCtx, stopInformers := context.WithCancel(context.WithoutCancel(ctx))
	defer func() {
		stopInformers()
		c.informers.Shutdown()
		logger.Info("Informers stopped")
	}()
	c.informers.Start(informerCtx)
	logger.Info("Starting Foo controller")

	logger.Info("Waiting for informer caches to sync")
	if !c.informers.WaitForCacheSync(ctx) {
		c.workqueue.ShutDown()
		return fmt.Errorf("controller: failed to wait for caches to sync: %w", context.Cause(ctx))
	}

	// The reconciles' context: not ctx, which ends when shutdown begins,
	// but one that ends after the drain.
	workCtx, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	logger.Info("Starting workers", "count", workers)
	var wg sync.WaitGroup
	for i := 1; i <= workers; i++ {
		// Each worker logs with its number, so that its lines tell whose
		// reconcile they are.
		workerCtx := klog.NewContext(workCtx, klog.LoggerWithValues(logger, "worker", i))
		wg.Go(func() { c.runWorker(workerCtx) })
	}
	logger.Info("Started workers")

	<-ctx.Done()
	logger.Info("Shutting down workers")
	// A drain that outlasts its bound is cut short: cancel the reconciles
	// and end the wait (ShutDown ends a ShutDownWithDrain).
	timedOut := make(chan struct{})
	timeout := time.AfterFunc(c.drainTimeout, func() {
		defer close(timedOut)
		logger.Info("Drain timed out: cancelling the reconciles still running", "timeout", c.drainTimeout)
		cancelWork()
		c.workqueue.ShutDown()
	})
	c.workqueue.ShutDownWithDrain()
	if timeout.Stop() {
		// Drained within the bound. ShutDown as well: client-go's delaying
		// queue stops its waiting loop at once only on ShutDown; after a
		// ShutDownWithDrain it sees the shutdown at its next wake-up, within
		// its 10s heartbeat (ours stops it on either; see the workqueue's
		// doc.go). It is harmless once drained.
		c.workqueue.ShutDown()
		logger.Info("Drained: no reconcile in flight")
	} else {
		// The bound passed: its callback has begun, maybe just as the
		// drain ended. Stop does not wait for it; Run does, so that
		// nothing of Run's happens after Run has returned.
		<-timedOut
	}
	// If the bound cut the drain short, the reconciles still running have
	// been cancelled, and the wait below is for them to return.
	cancelWork()
	wg.Wait()
	logger.Info("Workers returned")
	return nil
}

// ShutDown releases a Controller that will not run: it shuts its
// workqueue down, which ends the delaying queue's goroutine NewController
// started (a sample-controller user would call the queue's ShutDown). Run
// afterwards returns an error. Once Run has begun, ShutDown does nothing:
// Run shuts the queue down itself when it returns, after its drain; to stop
// a running Controller, end Run's context. Calling it more than once is
// harmless.
func (c *Controller) ShutDown() {
	if c.state.CompareAndSwap(stateNew, stateShutDown) {
		c.workqueue.ShutDown()
	}
}

// startRecorder makes the default event recorder, unless Options gave one,
// and returns what stops it.
func (c *Controller) startRecorder() (stop func()) {
	stop = func() {}
	if c.recorder == nil {
		broadcaster := record.NewBroadcaster()
		broadcaster.StartRecordingToSink(&typedcorev1.EventSinkImpl{Interface: c.kubeclientset.CoreV1().Events("")})
		c.recorder = broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: controllerAgentName})
		stop = broadcaster.Shutdown
	}
	if c.wrapRecorder != nil {
		c.recorder = c.wrapRecorder(c.recorder)
	}
	return stop
}

// runWorker processes keys until the queue shuts down.
func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

// processNextWorkItem takes one key off the queue and reconciles it: on
// success it Forgets the key (its next failure starts from the shortest
// delay again), on error it re-queues it with the rate limiter. Either way
// it calls Done, without which the key would never be handed out again.
// It returns false when the worker should stop.
//
//lab:08
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	objRef, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	defer c.workqueue.Done(objRef)
	if c.workqueue.ShuttingDown() {
		// Shutdown has begun: start nothing new (Run, step 1).
		klog.FromContext(ctx).V(4).Info("Shutting down: not reconciled", "objectName", objRef)
		return false
	}

	err := c.sync(ctx, objRef)
	if err == nil {
		c.workqueue.Forget(objRef)
		klog.FromContext(ctx).Info("Successfully synced", "objectName", objRef)
		return true
	}
	utilruntime.HandleErrorWithContext(ctx, err, "Error syncing; requeuing for later retry", "objectReference", objRef)
	c.workqueue.AddRateLimited(objRef)
	return true
}

// syncHandlerWithRecover runs syncHandler, turning a panic into an error,
// so that a bug in one reconcile retries one key instead of ending the
// process. (sample-controller calls syncHandler directly, and a panic ends
// the process.)
func (c *Controller) syncHandlerWithRecover(ctx context.Context, objRef informer.ObjectName) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("controller: the reconcile of %s panicked: %v", objRef, r)
		}
	}()
	return c.syncHandler(ctx, objRef)
}
