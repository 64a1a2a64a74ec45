package chaos_test

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	cgdynamicinformer "k8s.io/client-go/dynamic/dynamicinformer"
	cgdynamiclister "k8s.io/client-go/dynamic/dynamiclister"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	cgworkqueue "k8s.io/client-go/util/workqueue"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/workqueue"
	"informer-from-scratch/internal/crd"
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

func (s ourController) Run(ctx context.Context, cfg *rest.Config, ns string, observe controller.Observer) error {
	kube, dyn, err := clients(cfg)
	if err != nil {
		return err
	}
	infs := controller.NewInformers(kube, dyn, ns)
	opts := controller.Options{Observer: observe, Recorder: &record.FakeRecorder{}}
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
	c, err := controller.NewController(kube, dyn, infs, opts)
	if err != nil {
		return err
	}
	return c.Run(ctx, workers)
}

// clientGoController is the same controller on client-go's stack: its
// informers factory and dynamicinformer behind controller.Informers, and
// util/workqueue's rate-limited queue and default controller rate limiter.
// Everything that feeds the reconcile keys and objects is client-go's.
type clientGoController struct{}

func (clientGoController) Name() string { return "client-go" }

func (clientGoController) Run(ctx context.Context, cfg *rest.Config, ns string, observe controller.Observer) error {
	kube, dyn, err := clients(cfg)
	if err != nil {
		return err
	}
	c, err := controller.NewController(kube, dyn, newClientGoInformers(kube, dyn, ns), controller.Options{
		Observer:    observe,
		Recorder:    &record.FakeRecorder{},
		RateLimiter: cgworkqueue.DefaultTypedControllerRateLimiter[informer.ObjectName](),
		NewQueue: func(limiter controller.RateLimiter) controller.Queue {
			return cgworkqueue.NewTypedRateLimitingQueueWithConfig[informer.ObjectName](limiter,
				cgworkqueue.TypedRateLimitingQueueConfig[informer.ObjectName]{Name: controller.QueueName + "-client-go"})
		},
	})
	if err != nil {
		return err
	}
	return c.Run(ctx, workers)
}

func clients(cfg *rest.Config) (kubernetes.Interface, dynamic.Interface, error) {
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg)
	return kube, dyn, err
}

// cgInformers is controller.Informers on client-go's informers factory
// (Deployments) and dynamicinformer (Foos), in one namespace.
type cgInformers struct {
	factory        informers.SharedInformerFactory
	dynamicFactory cgdynamicinformer.DynamicSharedInformerFactory
	deployments    appslisters.DeploymentLister
	foos           informers.GenericInformer
	fooLister      cgdynamiclister.Lister
	registrations  []cache.ResourceEventHandlerRegistration
}

func newClientGoInformers(kube kubernetes.Interface, dyn dynamic.Interface, ns string) *cgInformers {
	f := informers.NewSharedInformerFactoryWithOptions(kube, 0, informers.WithNamespace(ns))
	df := cgdynamicinformer.NewFilteredDynamicSharedInformerFactory(dyn, 0, ns, nil)
	foos := df.ForResource(crd.Foo.GVR())
	return &cgInformers{
		factory:        f,
		dynamicFactory: df,
		deployments:    f.Apps().V1().Deployments().Lister(),
		foos:           foos,
		fooLister:      cgdynamiclister.New(foos.Informer().GetIndexer(), crd.Foo.GVR()),
	}
}

func (i *cgInformers) AddEventHandlers(foos, deployments informer.ResourceEventHandler) error {
	for _, h := range []struct {
		inf cache.SharedIndexInformer
		h   informer.ResourceEventHandler
	}{{i.foos.Informer(), foos}, {i.factory.Apps().V1().Deployments().Informer(), deployments}} {
		reg, err := h.inf.AddEventHandler(translateTombstones{h.h})
		if err != nil {
			return err
		}
		i.registrations = append(i.registrations, reg)
	}
	return nil
}

func (i *cgInformers) GetFoo(namespace, name string) (*unstructured.Unstructured, error) {
	return i.fooLister.Namespace(namespace).Get(name)
}

func (i *cgInformers) GetDeployment(namespace, name string) (*appsv1.Deployment, error) {
	return i.deployments.Deployments(namespace).Get(name)
}

func (i *cgInformers) Start(ctx context.Context) {
	i.factory.StartWithContext(ctx)
	i.dynamicFactory.Start(ctx.Done())
}

func (i *cgInformers) WaitForCacheSync(ctx context.Context) bool {
	if i.factory.WaitForCacheSyncWithContext(ctx).AsError() != nil {
		return false
	}
	for _, synced := range i.dynamicFactory.WaitForCacheSync(ctx.Done()) {
		if !synced {
			return false
		}
	}
	checkers := make([]cache.DoneChecker, 0, len(i.registrations))
	for _, reg := range i.registrations {
		checkers = append(checkers, reg.HasSyncedChecker())
	}
	return cache.WaitFor(ctx, "the controller's handlers", checkers...)
}

func (i *cgInformers) Shutdown() {
	i.factory.Shutdown()
	i.dynamicFactory.Shutdown()
}

// translateTombstones hands the controller's handlers client-go's
// deliveries, with client-go's DeletedFinalStateUnknown turned into ours:
// the one type the two stacks differ in on the way to a handler, and the
// one a relist after a cut watch or a 410 produces.
type translateTombstones struct{ informer.ResourceEventHandler }

func (t translateTombstones) OnDelete(obj any) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = informer.DeletedFinalStateUnknown{Key: d.Key, Obj: d.Obj}
	}
	t.ResourceEventHandler.OnDelete(obj)
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
