// Not a mirror of client-go or sample-controller: the controller's trace.
// sample-controller logs with klog at each of these points; ours hands a
// Step to an Observer instead, so that a demo can print each key's path as
// a timeline, a test can check what happened in what order, and a browser
// view or a chaos harness can follow the same rows.

package controller

import (
	"time"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/workqueue"
)

// The layers a Step comes from, in the order a key travels through them.
const (
	// LayerHandler: an informer called one of the controller's event
	// handlers, which turned the object into a key (or ignored it).
	LayerHandler = "handler"
	// LayerQueue: the workqueue took or handed out a key.
	LayerQueue = "workqueue"
	// LayerWorker: a worker started or finished a reconcile.
	LayerWorker = "worker"
	// LayerLister: the reconcile read a cache.
	LayerLister = "lister"
	// LayerWrite: the reconcile wrote to the API server (or recorded an
	// Event).
	LayerWrite = "write"
	// LayerController: the controller as a whole (caches synced, workers
	// started, each stage of the shutdown).
	LayerController = "controller"
)

// Step is one thing the controller did, for its Observer.
type Step struct {
	Layer string
	// Op is what happened: OnAdd, Add, Get, Forget, CREATE, ShutDownWithDrain…
	Op string
	// Key is the Foo this step is about, "namespace/name"; empty for a
	// step of the whole controller or a handler call that mapped to no
	// Foo.
	Key string
	// Object is what the step touched when it is not the Foo itself:
	// "Deployment stage08/example-web".
	Object string
	// Worker is the worker (1 to N) for a worker's steps, 0 otherwise.
	Worker int
	// Detail is free text for a person: a resourceVersion, a replica count.
	Detail string
	// Len is the workqueue's Len() right after a workqueue step (-1 for
	// other steps): the keys waiting, not counting those being processed.
	Len int
	// Delay is how long AddRateLimited made the key wait, and Requeues how
	// many times it has been rate-limited since it was last forgotten.
	Delay    time.Duration
	Requeues int
	// Err is the error of a failed read, write or reconcile.
	Err error
}

// Observer receives every Step, synchronously, on the goroutine that took
// it (an informer's handler goroutine or a worker). It must return quickly
// and must not call back into the controller.
type Observer func(Step)

// step hands s to the observer, if there is one.
func (c *Controller) step(s Step) {
	if c.observe != nil {
		c.observe(s)
	}
}

// queueStep is a workqueue step, with the queue's length after it.
func (c *Controller) queueStep(op string, key informer.ObjectName, worker int, detail string) {
	if c.observe == nil {
		return
	}
	c.observe(Step{Layer: LayerQueue, Op: op, Key: key.String(), Worker: worker, Detail: detail, Len: c.workqueue.Len()})
}

// lockQueueRows makes a workqueue call and its Step one thing, for an
// observer: Add and its row, Done and its row, AddRateLimited and the
// limiter's row, and the row of a Get that has returned. Without it a
// worker's Get can return between another goroutine's Add and that Add's
// row, and the timeline would show the key handed out before it was
// queued. Get is never called under the lock (it blocks); only its row is.
// Without an observer nothing is locked: the workqueue's own concurrency is
// untouched.
func (c *Controller) lockQueueRows() {
	if c.observe != nil {
		c.queueRows.Lock()
	}
}

func (c *Controller) unlockQueueRows() {
	if c.observe != nil {
		c.queueRows.Unlock()
	}
}

// observedLimiter is the queue's rate limiter with a window on it: it
// reports each delay it hands out, which AddRateLimited does not return.
// It wraps whichever limiter the caller chose (ours or client-go's: the
// interfaces have the same methods).
type observedLimiter struct {
	workqueue.TypedRateLimiter[informer.ObjectName]
	c *Controller
}

// When asks the wrapped limiter and reports its answer.
func (l observedLimiter) When(key informer.ObjectName) time.Duration {
	delay := l.TypedRateLimiter.When(key)
	l.c.step(Step{Layer: LayerQueue, Op: "AddRateLimited", Key: key.String(), Delay: delay,
		Requeues: l.TypedRateLimiter.NumRequeues(key), Len: -1})
	return delay
}
