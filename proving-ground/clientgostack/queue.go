// Not a mirror of client-go: controller.Queue and controller.RateLimiter on
// client-go's util/workqueue.

package clientgostack

import (
	cgworkqueue "k8s.io/client-go/util/workqueue"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
)

// RateLimiter is client-go's default controller rate limiter
// (DefaultTypedControllerRateLimiter), for the controller's keys.
func RateLimiter() controller.RateLimiter {
	return cgworkqueue.DefaultTypedControllerRateLimiter[informer.ObjectName]()
}

// NewQueue returns a controller.Options.NewQueue that builds client-go's
// rate-limited workqueue named name (the name a MetricsProvider labels the
// queue's metrics with).
func NewQueue(name string) func(controller.RateLimiter) controller.Queue {
	return func(limiter controller.RateLimiter) controller.Queue {
		return cgworkqueue.NewTypedRateLimitingQueueWithConfig[informer.ObjectName](limiter,
			cgworkqueue.TypedRateLimitingQueueConfig[informer.ObjectName]{Name: name})
	}
}
