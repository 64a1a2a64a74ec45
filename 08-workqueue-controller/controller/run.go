// Mirrors kubernetes/sample-controller controller.go: Run, runWorker and
// processNextWorkItem; and main.go's start and stop of the informer
// factories, which Run does here so that the whole shutdown is in one
// place and in one order.

package controller

import (
	"context"
	"fmt"
	"sync"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
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
//     cut off; DrainTimeout bounds the wait, then cancels that context;
//  3. stop the informers, and wait for every goroutine they, the workers
//     and the event recorder started.
//
// It returns nil after a shutdown, or an error if the caches never synced
// (ctx ended first); either way the queue is shut down when it returns. A
// Controller runs once (lifecycle.go).
func (c *Controller) Run(ctx context.Context, workers int) error {
	defer utilruntime.HandleCrash()
	if err := c.claim(); err != nil {
		return err
	}
	defer c.workqueue.ShutDown()
	logger := klog.FromContext(ctx)
	defer c.startRecorder()()

	// Start the informers. They outlive ctx: they stop in step 3.
	informerCtx, stopInformers := context.WithCancel(context.WithoutCancel(ctx))
	defer func() {
		stopInformers()
		c.informers.Shutdown()
		logger.Info("Informers stopped")
	}()
	c.informers.Start(informerCtx)
	logger.Info("Starting Foo controller")

	logger.Info("Waiting for informer caches to sync")
	if ok := c.informers.WaitForCacheSync(ctx); !ok {
		return fmt.Errorf("controller: failed to wait for caches to sync: %w", context.Cause(ctx))
	}

	// The reconciles' context: not ctx, which ends when shutdown begins,
	// but one that ends after the drain.
	workCtx, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	logger.Info("Starting workers", "count", workers)
	var wg sync.WaitGroup
	for i := 1; i <= workers; i++ {
		// Each worker logs with its number.
		workerCtx := klog.NewContext(workCtx, klog.LoggerWithValues(logger, "worker", i))
		wg.Go(func() { c.runWorker(workerCtx) })
	}
	logger.Info("Started workers")
	<-ctx.Done()
	logger.Info("Shutting down workers")

	drained := make(chan struct{})
	go func() { c.workqueue.ShutDownWithDrain(); close(drained) }()
	select {
	case <-drained:
		logger.Info("Drained: no reconcile in flight")
	case <-time.After(c.drainTimeout):
		logger.Info("Drain timed out: cancelling the reconciles still running", "timeout", c.drainTimeout)
	}
	cancelWork()
	// Ends a drain cut short; after a drain, it stops client-go's waiting
	// loop at once (its drain leaves it to its next wake-up).
	c.workqueue.ShutDown()
	<-drained
	wg.Wait()
	logger.Info("Workers returned")
	return nil
}

// runWorker processes keys until the queue shuts down.
func (c *Controller) runWorker(ctx context.Context) {
	for c.processNextWorkItem(ctx) {
	}
}

// processNextWorkItem takes one key off the queue and reconciles it by
// calling the syncHandler: on success it Forgets the key (its next failure
// starts from the shortest delay again), on error it re-queues it with the
// rate limiter. Either way it calls Done, without which the key would never
// be handed out again.
//
// It returns false when the worker should stop: when Get reports the
// shutdown, and when Get hands out a key once the shutdown has begun (the
// queue still hands out what it holds, and a Get that was waiting can
// return a key as the drain begins). Such a key is handed back
// unreconciled, and Done like any other: a shutdown finishes the
// reconciles in flight, it starts none (Run, step 1).
//
//lab:08
func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	objRef, shutdown := c.workqueue.Get()
	logger := klog.FromContext(ctx)
	if shutdown {
		return false
	}
	defer c.workqueue.Done(objRef)
	if c.workqueue.ShuttingDown() {
		logger.V(4).Info("Shutting down: not reconciled", "objectName", objRef)
		return false
	}

	err := c.syncHandler(ctx, objRef)
	if err == nil {
		c.workqueue.Forget(objRef)
		logger.Info("Successfully synced", "objectName", objRef)
		return true
	}
	utilruntime.HandleErrorWithContext(ctx, err, "Error syncing; requeuing for later retry", "objectReference", objRef)
	c.workqueue.AddRateLimited(objRef)
	return true
}
