// Mirrors kubernetes/sample-controller main.go: the clients it makes for
// the controller (NewForConfig) and the settings its flags give (Options).
// Seams are ours: sample-controller is watched through its logs.

package controller

import (
	"cmp"
	"context"
	"errors"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/workqueue"
)

// QueueName names the workqueue, and so its metrics.
const QueueName = "Foos"

// DefaultDrainTimeout is how long, at shutdown, the reconciles in flight
// are given to finish before their context is cancelled.
const DefaultDrainTimeout = 30 * time.Second

// Queue is the controller's workqueue: rate-limited, of Foo keys. Ours
// (08-workqueue-controller/workqueue) by default; client-go's satisfies the
// same interface, which the tests use.
type Queue = workqueue.TypedRateLimitingInterface[informer.ObjectName]

// RateLimiter decides how long a failed key waits before it is retried.
type RateLimiter = workqueue.TypedRateLimiter[informer.ObjectName]

// Options are a Controller's optional settings.
type Options struct {
	// Namespace limits NewForConfig's informers to one namespace; "" is
	// every namespace. (NewController takes the Informers as they are.)
	Namespace string
	// RateLimiter is the queue's; nil means our
	// workqueue.DefaultTypedControllerRateLimiter.
	RateLimiter RateLimiter
	// NewQueue builds the workqueue around the rate limiter it is given.
	// nil means ours, named QueueName, reporting to MetricsProvider.
	NewQueue func(limiter RateLimiter) Queue
	// MetricsProvider receives the default queue's metrics; nil means the
	// one given to workqueue.SetProvider (by default, none).
	MetricsProvider workqueue.MetricsProvider
	// Recorder records the controller's Events; nil means one that writes
	// them to the API server through the kube client (and that Run shuts
	// down when it returns).
	Recorder record.EventRecorder
	// DrainTimeout bounds the wait for the reconciles in flight at
	// shutdown; 0 means DefaultDrainTimeout.
	DrainTimeout time.Duration
	// Seams let a watcher wrap the controller's parts as they are
	// assembled. Ours only: sample-controller is watched through its logs.
	Seams Seams
}

// Seams are where a watcher may wrap the parts of a Controller as
// NewController assembles them, so that a demo's timeline, a test or the
// live view can watch each part at work while the controller itself says
// nothing about being watched (08-workqueue-controller/observe fills them).
// Each is optional.
// With NewQueue and RateLimiter above, and the logger in Run's context and
// the transport of NewForConfig's rest.Config, they are every seam a
// watcher needs. A seam left nil costs nothing; a wrapper in one runs on
// the controller's goroutines and adds whatever synchronisation it takes
// (observe's doc.go says exactly what its Tracer adds), so the race checks
// run unwatched too.
type Seams struct {
	// Informers wraps the informers: their handlers and their reads.
	Informers func(Informers) Informers
	// Recorder wraps the event recorder, given or made by Run.
	Recorder func(record.EventRecorder) record.EventRecorder
	// Sync wraps a worker's reconcile of one key: syncFoo, recovered
	// from panics; the Controller's syncHandler is what it returns.
	Sync func(SyncFunc) SyncFunc
}

// SyncFunc is a reconcile of one key, as processNextWorkItem calls it.
type SyncFunc func(ctx context.Context, objectRef informer.ObjectName) error

// drainTimeout is DrainTimeout, or its default.
func (o Options) drainTimeout() time.Duration {
	return cmp.Or(max(o.DrainTimeout, 0), DefaultDrainTimeout)
}

// wrap applies a seam when it is set.
func wrap[T any](seam func(T) T, part T) T {
	if seam == nil {
		return part
	}
	return seam(part)
}

// queue builds the workqueue: NewQueue around RateLimiter, or their
// defaults (sample-controller's NewController builds its queue and rate
// limiter in place).
func (o Options) queue() Queue {
	limiter, newQueue := o.RateLimiter, o.NewQueue
	if limiter == nil {
		limiter = DefaultRateLimiter()
	}
	if newQueue == nil {
		newQueue = DefaultQueue(o.MetricsProvider)
	}
	return newQueue(limiter)
}

// DefaultRateLimiter is the rate limiter a Controller uses unless Options
// give one: the workqueue's DefaultTypedControllerRateLimiter.
func DefaultRateLimiter() RateLimiter {
	return workqueue.DefaultTypedControllerRateLimiter[informer.ObjectName]()
}

// DefaultQueue builds the workqueue a Controller uses unless Options give
// a NewQueue: ours, named QueueName, reporting to provider.
func DefaultQueue(provider workqueue.MetricsProvider) func(RateLimiter) Queue {
	return func(limiter RateLimiter) Queue {
		return workqueue.NewTypedRateLimitingQueueWithConfig(limiter, workqueue.TypedRateLimitingQueueConfig[informer.ObjectName]{
			Name:            QueueName,
			MetricsProvider: provider,
		})
	}
}

// NewForConfig returns a controller on our stages for the cluster cfg
// points at: its clients, NewInformers (in opts.Namespace) and, unless
// opts says otherwise, our workqueue. Any rest.Config works, so a caller
// can put a proxy between the controller and the API server (the demo's
// fault injection; the chaos harness).
func NewForConfig(cfg *rest.Config, opts Options) (*Controller, error) {
	if cfg == nil {
		return nil, errors.New("controller: NewForConfig needs a rest.Config")
	}
	kubeClient, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	dynamicClient, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return NewController(kubeClient, dynamicClient, NewInformers(kubeClient, dynamicClient, opts.Namespace), opts)
}
