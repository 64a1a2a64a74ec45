//go:build ignore

// A plausible wrong answer to lab 08: the key is handed back at shutdown
// before the deferred Done is set up, so that path never calls Done. The
// key stays in the processing set, and ShutDownWithDrain waits for it
// until the controller's DrainTimeout cuts the drain short: every shutdown
// that finds a key queued takes the whole timeout.

package controller

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	objRef, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	if c.workqueue.ShuttingDown() {
		klog.FromContext(ctx).V(4).Info("Shutting down: not reconciled", "objectName", objRef)
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
