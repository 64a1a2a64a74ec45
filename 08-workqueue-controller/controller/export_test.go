package controller

import informer "informer-from-scratch/06-sharedinformer"

// Enqueue puts a key on the queue as the handlers do, for the benchmark.
func (c *Controller) Enqueue(key informer.ObjectName) { c.enqueue(key) }
