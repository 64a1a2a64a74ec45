//go:build ignore

// A plausible wrong answer to lab 08: Done is called on the way out of a
// success, not on the error path. The failed key stays in the processing
// set: its AddRateLimited only marks it dirty, nothing ever queues it again,
// and the Foo is never reconciled again.

package controller

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
	objRef, shutdown := c.workqueue.Get()
	if shutdown {
		return false
	}
	if c.workqueue.ShuttingDown() {
		c.workqueue.Done(objRef)
		return false
	}
	if err := c.sync(ctx, objRef); err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Error syncing; requeuing for later retry", "objectReference", objRef)
		c.workqueue.AddRateLimited(objRef)
		return true
	}
	c.workqueue.Forget(objRef)
	c.workqueue.Done(objRef)
	klog.FromContext(ctx).Info("Successfully synced", "objectName", objRef)
	return true
}
