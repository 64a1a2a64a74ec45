// Mirrors kubernetes/sample-controller controller.go: controllerAgentName,
// the Event reasons and messages, FieldManager, Controller and
// NewController.

package controller

import (
	"sync/atomic"
	"time"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"

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

	// The listers read the informers' caches, never the server.
	deploymentsLister DeploymentLister
	foosLister        FooLister
	// informers start, sync and stop the informers the listers read
	// (sample-controller's main.go does it with its factories).
	informers Informers

	// workqueue is a rate limited work queue. This is used to queue work to
	// be processed instead of performing it as soon as a change happens.
	// It ensures a fixed number of workers and that no key is processed by
	// two workers at once.
	workqueue Queue
	// recorder records Events on Foos: Options.Recorder, or one Run makes
	// on an event broadcaster and shuts down when it returns.
	recorder record.EventRecorder

	// syncHandler reconciles one key: syncFoo, recovered from panics and
	// wrapped by Options.Seams.Sync. A field, as kube-controller-manager's
	// controllers have it, to allow injection for testing.
	syncHandler SyncFunc

	// Ours: the recorder's seam, the drain's bound and the run-once guard
	// (lifecycle.go).
	wrapRecorder func(record.EventRecorder) record.EventRecorder
	drainTimeout time.Duration
	claimed      atomic.Bool
}

// NewController returns a controller on the given clients and informers.
// It registers its event handlers on the informers (Run starts them) and
// builds the workqueue, whose waiting loop runs until Run returns; a
// Controller that will not run must be given back with ShutDown. On an
// error, nothing is left registered or running.
func NewController(kubeClient kubernetes.Interface, dynamicClient dynamic.Interface, informers Informers, opts Options) (*Controller, error) {
	informers = wrap(opts.Seams.Informers, informers)
	c := &Controller{
		kubeclientset:     kubeClient,
		fooclient:         dynamicClient.Resource(crd.Foo.GVR()),
		deploymentsLister: informers.DeploymentsLister(),
		foosLister:        informers.FoosLister(),
		informers:         informers,
		workqueue:         opts.queue(),
		recorder:          opts.Recorder,
		wrapRecorder:      opts.Seams.Recorder,
		drainTimeout:      opts.drainTimeout(),
	}
	c.syncHandler = wrap(opts.Seams.Sync, recovered(c.syncFoo))

	if err := informers.AddEventHandlers(c.fooHandler(), c.deploymentHandler()); err != nil {
		c.workqueue.ShutDown()
		return nil, err
	}
	return c, nil
}
