// Not a mirror of client-go: controller.Informers on client-go's informers.

package clientgostack

import (
	"context"
	"errors"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/dynamic/dynamiclister"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	appslisters "k8s.io/client-go/listers/apps/v1"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/internal/crd"
)

// Informers is controller.Informers on client-go's informers factory
// (Deployments) and dynamicinformer (Foos), in one namespace: what
// controller.NewInformers builds from stage 07, built from client-go.
type Informers struct {
	factory        informers.SharedInformerFactory
	dynamicFactory dynamicinformer.DynamicSharedInformerFactory
	deployments    appslisters.DeploymentLister
	foos           informers.GenericInformer
	fooLister      dynamiclister.Lister
	registrations  []cache.ResourceEventHandlerRegistration
}

var _ controller.Informers = &Informers{}

// NewInformers has the shape of controller.NewInformers, so that a test can
// hold either in the same field.
func NewInformers(kube kubernetes.Interface, dyn dynamic.Interface, namespace string) controller.Informers {
	f := informers.NewSharedInformerFactoryWithOptions(kube, 0, informers.WithNamespace(namespace))
	df := dynamicinformer.NewFilteredDynamicSharedInformerFactory(dyn, 0, namespace, nil)
	foos := df.ForResource(crd.Foo.GVR())
	return &Informers{
		factory:        f,
		dynamicFactory: df,
		deployments:    f.Apps().V1().Deployments().Lister(),
		foos:           foos,
		fooLister:      dynamiclister.New(foos.Informer().GetIndexer(), crd.Foo.GVR()),
	}
}

// AddEventHandlers registers the controller's handlers, each behind
// Tombstones, and keeps the registrations for WaitForCacheSync. On an
// error it removes what it had registered, as the interface asks.
func (i *Informers) AddEventHandlers(foos, deployments informer.ResourceEventHandler) error {
	type added struct {
		inf cache.SharedIndexInformer
		reg cache.ResourceEventHandlerRegistration
	}
	var done []added
	for _, h := range []struct {
		inf     cache.SharedIndexInformer
		handler informer.ResourceEventHandler
	}{{i.foos.Informer(), foos}, {i.factory.Apps().V1().Deployments().Informer(), deployments}} {
		reg, err := h.inf.AddEventHandler(Tombstones{h.handler})
		if err != nil {
			for _, a := range done {
				err = errors.Join(err, a.inf.RemoveEventHandler(a.reg))
			}
			return err
		}
		done = append(done, added{h.inf, reg})
	}
	for _, a := range done {
		i.registrations = append(i.registrations, a.reg)
	}
	return nil
}

// FoosLister reads Foos from the dynamic informer's cache.
func (i *Informers) FoosLister() controller.FooLister {
	return controller.FooListerFunc(func(namespace, name string) (*unstructured.Unstructured, error) {
		return i.fooLister.Namespace(namespace).Get(name)
	})
}

// DeploymentsLister reads Deployments from the typed informer's cache.
func (i *Informers) DeploymentsLister() controller.DeploymentLister {
	return controller.DeploymentListerFunc(func(namespace, name string) (*appsv1.Deployment, error) {
		return i.deployments.Deployments(namespace).Get(name)
	})
}

// Start starts both factories' informers.
func (i *Informers) Start(ctx context.Context) {
	i.factory.StartWithContext(ctx)
	i.dynamicFactory.Start(ctx.Done())
}

// WaitForCacheSync waits for both factories' caches and then for the
// handlers' registrations: a handler has synced once it has been handed
// the initial list, which may come after the cache has it.
func (i *Informers) WaitForCacheSync(ctx context.Context) bool {
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

// Shutdown stops both factories and waits for their informers.
func (i *Informers) Shutdown() {
	i.factory.Shutdown()
	i.dynamicFactory.Shutdown()
}

// Tombstones hands the controller's handlers client-go's deliveries, with
// client-go's DeletedFinalStateUnknown turned into ours: the one type the
// two stacks differ in on the way to a handler, and the one a relist after
// a cut watch or a 410 produces.
type Tombstones struct{ informer.ResourceEventHandler }

// OnDelete translates a tombstone and passes the delete on.
func (t Tombstones) OnDelete(obj any) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = informer.DeletedFinalStateUnknown{Key: d.Key, Obj: d.Obj}
	}
	t.ResourceEventHandler.OnDelete(obj)
}
