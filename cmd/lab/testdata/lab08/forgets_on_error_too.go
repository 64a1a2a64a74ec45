//go:build ignore

// A plausible wrong answer to lab 08: the worker calls Forget whatever
// happened, then AddRateLimited on an error. Forget resets the key's count
// of failures, so every retry waits the first delay (5ms) and the backoff
// never grows: a key that keeps failing is retried two hundred times a
// second for as long as it fails.

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
	err := c.sync(ctx, objRef)
	c.workqueue.Forget(objRef)
	if err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Error syncing; requeuing for later retry", "objectReference", objRef)
		c.workqueue.AddRateLimited(objRef)
		return true
	}
	klog.FromContext(ctx).Info("Successfully synced", "objectName", objRef)
	return true
}
