package controller

import informer "informer-from-scratch/06-sharedinformer"

// Enqueue puts a key on the queue as the handlers do, for the benchmark.
func (c *Controller) Enqueue(key informer.ObjectName) { c.workqueue.Add(key) }

// Handlers are the event handlers NewController registered, for the tests
// that hand them what no informer should.
func (c *Controller) Handlers() (foos, deployments informer.ResourceEventHandler) {
	return c.fooHandler(), c.deploymentHandler()
}

// QueueLen is the workqueue's Len.
func (c *Controller) QueueLen() int { return c.workqueue.Len() }
