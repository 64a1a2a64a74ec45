package chaos_test

import (
	"context"
	"fmt"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/record"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/08-workqueue-controller/workqueue"
	"informer-from-scratch/proving-ground/clientgostack"
)

// workers is how many workers each controller runs: more than one, so
// that the queue's one-worker-per-key rule is under load too.
const workers = 2

// ourController is stage 08's controller on our stack: stage 07's
// factories (controller.NewInformers) and stage 08's workqueue, the
// controller's defaults. breakIt, if set, breaks it on purpose (the
// -chaos.break flag), to see the run go red.
type ourController struct{ breakIt string }

func (ourController) Name() string { return "ours" }

func (s ourController) Run(ctx context.Context, cfg *rest.Config, ns string, tracer *observe.Tracer) error {
	kube, dyn, err := clients(tracer.Config(cfg))
	if err != nil {
		return err
	}
	infs := controller.NewInformers(kube, dyn, ns)
	opts := controller.Options{Recorder: &record.FakeRecorder{}}
	switch s.breakIt {
	case "":
	case "drop-retries":
		// A failed reconcile is never retried: the key waits for the
		// next event about its Foo, which may never come.
		opts.NewQueue = func(limiter controller.RateLimiter) controller.Queue {
			return dropRetries{workqueue.NewTypedRateLimitingQueueWithConfig(limiter,
				workqueue.TypedRateLimitingQueueConfig[informer.ObjectName]{Name: controller.QueueName})}
		}
	case "no-deployment-events":
		// The controller does not hear of its Deployments: one deleted or
		// edited behind its back stays so.
		infs = deafToDeployments{infs}
	default:
		return fmt.Errorf("-chaos.break=%q: want drop-retries or no-deployment-events", s.breakIt)
	}
	c, err := controller.NewController(kube, dyn, infs, tracer.Options(opts))
	if err != nil {
		return err
	}
	return c.Run(tracer.Context(ctx), workers)
}

// clientGoController is the same controller on client-go's stack: its
// informers factory and dynamicinformer behind controller.Informers, and
// util/workqueue's rate-limited queue and default controller rate limiter.
// Everything that feeds the reconcile keys and objects is client-go's.
type clientGoController struct{}

func (clientGoController) Name() string { return "client-go" }

func (clientGoController) Run(ctx context.Context, cfg *rest.Config, ns string, tracer *observe.Tracer) error {
	kube, dyn, err := clients(tracer.Config(cfg))
	if err != nil {
		return err
	}
	c, err := controller.NewController(kube, dyn, clientgostack.NewInformers(kube, dyn, ns), tracer.Options(controller.Options{
		Recorder:    &record.FakeRecorder{},
		RateLimiter: clientgostack.RateLimiter(),
		NewQueue:    clientgostack.NewQueue(controller.QueueName + "-client-go"),
	}))
	if err != nil {
		return err
	}
	return c.Run(tracer.Context(ctx), workers)
}

func clients(cfg *rest.Config) (kubernetes.Interface, dynamic.Interface, error) {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	return kube, dyn, err
}

// dropRetries is a queue that loses every key handed to AddRateLimited:
// the bug -chaos.break=drop-retries plants.
type dropRetries struct{ controller.Queue }

func (dropRetries) AddRateLimited(informer.ObjectName) {}

// deafToDeployments registers a handler that hears nothing in place of
// the controller's Deployment handler: the bug
// -chaos.break=no-deployment-events plants.
type deafToDeployments struct{ controller.Informers }

func (d deafToDeployments) AddEventHandlers(foos, _ informer.ResourceEventHandler) error {
	return d.Informers.AddEventHandlers(foos, informer.ResourceEventHandlerFuncs{})
}
