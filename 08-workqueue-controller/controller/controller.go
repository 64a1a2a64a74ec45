// Mirrors kubernetes/sample-controller controller.go: controllerAgentName,
// the Event reasons and messages, FieldManager, Controller and
// NewController; and main.go's clients, for NewForConfig.

package controller

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/workqueue"
	"informer-from-scratch/internal/crd"
)

// controllerAgentName names the controller in the Events it records.
const controllerAgentName = "sample-controller"

const (
	// SuccessSynced is the reason of the Event recorded when a reconcile
	// changed something and succeeded.
	SuccessSynced = "Synced"
	// ErrResourceExists is the reason of the Event recorded when a Foo's
	// Deployment exists but is not controlled by that Foo.
	ErrResourceExists = "ErrResourceExists"

	// MessageResourceExists is that Event's message.
	MessageResourceExists = "Resource %q already exists and is not managed by Foo"
	// MessageResourceSynced is the message of the SuccessSynced Event.
	MessageResourceSynced = "Foo synced successfully"
	// FieldManager is the field manager of every write the controller
	// makes, so the server's managedFields say which fields it owns.
	FieldManager = controllerAgentName
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
	// Observer, if set, receives every Step: each key's path from handler
	// to write.
	Observer Observer
	// RateLimiter is the queue's; nil means our
	// workqueue.DefaultTypedControllerRateLimiter.
	RateLimiter RateLimiter
	// NewQueue builds the workqueue around the rate limiter it is given (the
	// controller wraps RateLimiter to observe it). nil means ours, named
	// QueueName, reporting to MetricsProvider.
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
}

// Controller is the controller implementation for Foo resources: it keeps,
// for every Foo, a Deployment called spec.deploymentName with spec.replicas
// replicas, controlled by the Foo, and reports the Deployment's available
// replicas in the Foo's status.
//
//	informers ──handlers──▶ workqueue ──Get──▶ worker 1..N ──▶ syncHandler
//	(Foo, Deployment)        (keys)              │               reads listers,
//	                           ▲                 │               writes the API
//	                           └─AddRateLimited──┘ on error; Forget on success
//
// Handlers only turn objects into keys ("namespace/name" of a Foo; a
// Deployment into the key of the Foo that controls it); workers take keys,
// read the current objects from the listers and make the world match. The
// queue hands a key to one worker at a time, so no two workers reconcile
// one Foo at once, and a key that changes many times while it waits is
// reconciled once.
//
// The price of level-triggering: a reconcile sees only the latest state,
// never the event that woke it, so it must be able to work from the state
// alone; and every change of any Deployment a Foo controls costs a
// reconcile of that Foo, most of which find nothing to do.
type Controller struct {
	// kubeclientset writes Deployments (and Events).
	kubeclientset kubernetes.Interface
	// fooclient writes Foos' status: the dynamic client, as the Foo
	// informer reads through it (sample-controller has a generated
	// clientset for its group).
	fooclient dynamic.NamespaceableResourceInterface

	// informers gives the listers and their HasSynced; the reconcile reads
	// only from them.
	informers Informers

	// workqueue is a rate limited work queue. This is used to queue work to
	// be processed instead of performing it as soon as a change happens.
	// It ensures a fixed number of workers and that no key is processed by
	// two workers at once.
	workqueue Queue
	// recorder records Events on Foos: Options.Recorder, or one Run makes
	// on an event broadcaster and shuts down when it returns.
	recorder record.EventRecorder

	observe Observer
	// queueRows orders the workqueue's Steps, when there is an observer:
	// see lockQueueRows.
	queueRows    sync.Mutex
	drainTimeout time.Duration
	// state is stateNew until Run or ShutDown claims the controller.
	state atomic.Int32
}

// A Controller's states: each moves once, from stateNew.
const (
	stateNew      int32 = iota // built: the queue's goroutine runs
	stateRunning               // Run has begun; it shuts the queue down when it returns
	stateShutDown              // ShutDown released it without a Run
)

// NewController returns a controller on the given clients and informers.
// It registers its event handlers on the informers (Run starts them) and
// builds the workqueue, whose waiting loop runs until Run returns; a
// Controller that will not run must be given back with ShutDown. On an
// error, nothing is left registered or running.
func NewController(kubeClient kubernetes.Interface, dynamicClient dynamic.Interface, informers Informers, opts Options) (*Controller, error) {
	switch {
	case kubeClient == nil:
		return nil, errors.New("controller: NewController needs a kube client")
	case dynamicClient == nil:
		return nil, errors.New("controller: NewController needs a dynamic client")
	case informers == nil:
		return nil, errNoInformers
	}
	c := &Controller{
		kubeclientset: kubeClient,
		fooclient:     dynamicClient.Resource(crd.Foo.GVR()),
		informers:     informers,
		recorder:      opts.Recorder,
		observe:       opts.Observer,
		drainTimeout:  opts.DrainTimeout,
	}
	if c.drainTimeout <= 0 {
		c.drainTimeout = DefaultDrainTimeout
	}
	limiter := opts.RateLimiter
	if limiter == nil {
		limiter = workqueue.DefaultTypedControllerRateLimiter[informer.ObjectName]()
	}
	newQueue := opts.NewQueue
	if newQueue == nil {
		newQueue = func(limiter RateLimiter) Queue {
			return workqueue.NewTypedRateLimitingQueueWithConfig(limiter, workqueue.TypedRateLimitingQueueConfig[informer.ObjectName]{
				Name:            QueueName,
				MetricsProvider: opts.MetricsProvider,
			})
		}
	}
	c.workqueue = newQueue(observedLimiter{TypedRateLimiter: limiter, c: c})

	if err := informers.AddEventHandlers(c.fooHandler(), c.deploymentHandler()); err != nil {
		c.workqueue.ShutDown()
		return nil, err
	}
	return c, nil
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
