package observe

import "time"

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

// Step is one thing the controller did.
type Step struct {
	Layer string
	// Op is what happened: OnAdd, Add, Get, CREATE, ShutDownWithDrain…
	Op string
	// Key is the Foo this step is about, "namespace/name"; empty for a
	// step of the whole controller or a handler call that mapped to no
	// Foo.
	Key string
	// Object is what the step touched when it is not the Foo itself:
	// "Deployment stage08/example-web".
	Object string
	// Worker is the worker (1 to N) that holds the key, 0 for none.
	Worker int
	// Detail is free text for a person: a resourceVersion, a replica count.
	Detail string
	// Len is the workqueue's length on a Get row and on the controller's
	// Synced and ShutDownWithDrain rows (-1 elsewhere, and when the Tracer
	// did not build the queue): the keys waiting, not counting those being
	// processed, as the queue's storage last counted them.
	Len int
	// Delay is how long AddRateLimited made the key wait, and Requeues how
	// many times it has been rate-limited since it was last forgotten
	// (counted by the Tracer: the limiter's When calls since its Forget).
	Delay    time.Duration
	Requeues int
	// Err is the error of a failed read, write or reconcile.
	Err error
	// Sent marks a write's first row, made when its request left: its
	// answer is a second row, with the same Op, made when it came back.
	Sent bool
}

// Observer receives every Step, synchronously, on the goroutine that took
// it (an informer's handler goroutine, a worker, or Run's), holding none of
// the controller's locks. It must return quickly (the goroutine waits for
// it) and must not call back into the controller.
type Observer func(Step)
