//go:build ignore

// A plausible wrong answer to lab 08: the worker asks ShuttingDown before
// its Get instead of after. A Get can still hand out a key once the
// shutdown has begun (the shutdown begins between the check and the Get,
// or a Done re-queues a key just as the drain begins and wakes a waiting
// Get), and that key is reconciled: a new reconcile, started during the
// drain.

package controller

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	if c.workqueue.ShuttingDown() {
		return false
	}
	objRef, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	defer c.workqueue.Done(objRef)
	if err := c.sync(ctx, objRef); err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Error syncing; requeuing for later retry", "objectReference", objRef)
		c.workqueue.AddRateLimited(objRef)
		return true
	}
	c.workqueue.Forget(objRef)
	klog.FromContext(ctx).Info("Successfully synced", "objectName", objRef)
	return true
}
