//go:build ignore

// A plausible wrong answer to lab 08: sample-controller's
// processNextWorkItem, as chapter 08a draws it. Once Run's shutdown has
// begun it still reconciles every key the queue hands out (the queue hands
// out what was queued before the shutdown), where ours hands such a key
// back unreconciled: a shutdown is to finish the reconciles in flight, not
// to start new ones.

package controller

func (c *Controller) processNextWorkItem(ctx context.Context) bool {
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
