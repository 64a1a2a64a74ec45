//go:build ignore

// A plausible wrong answer to lab 08: the branches swapped. A success is
// re-queued with AddRateLimited, a failure Forgotten and dropped. Every
// synced Foo is reconciled again and again, each time a little later, and
// a failure is never retried.

package controller

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	objRef, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	defer c.workqueue.Done(objRef)
	if c.workqueue.ShuttingDown() {
		return false
	}
	if err := c.sync(ctx, objRef); err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Error syncing", "objectReference", objRef)
		c.workqueue.Forget(objRef)
		return true
	}
	klog.FromContext(ctx).Info("Successfully synced", "objectName", objRef)
	c.workqueue.AddRateLimited(objRef)
	return true
}
