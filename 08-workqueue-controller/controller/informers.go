// Mirrors the informer half of kubernetes/sample-controller main.go:
// kubeinformers.NewSharedInformerFactory, the generated Foo informer
// factory, Start and WaitForCacheSync; built here on stage 07
// (07-factory's SharedInformerFactory for Deployments, and its
// dynamicinformer for Foos).

package controller

import (
	"context"
	"errors"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	informer "informer-from-scratch/06-sharedinformer"
	factory "informer-from-scratch/07-factory"
	"informer-from-scratch/07-factory/dynamicinformer"
	"informer-from-scratch/07-factory/dynamiclister"
	appsv1listers "informer-from-scratch/07-factory/listers/apps/v1"
	"informer-from-scratch/internal/crd"
)

// Informers is the informer stack a Controller runs on: an informer of
// Foos and one of Deployments, their listers, and their lifecycle.
//
// The controller depends on this and not on stage 07's types so that the
// same reconcile logic can run on client-go's informers too: the tests
// implement it with client-go's informers factory and dynamicinformer, and
// compare the two controllers' worlds. Non-test code has one
// implementation, NewInformers, on our stages.
type Informers interface {
	// AddEventHandlers registers the controller's handlers: foos on the
	// Foo informer, deployments on the Deployment informer; both, or on an
	// error neither (a failure of the second removes the first). The handlers
	// understand our tombstone (informer.DeletedFinalStateUnknown); a stack
	// whose informers deliver another must unwrap it first.
	AddEventHandlers(foos, deployments informer.ResourceEventHandler) error
	// FoosLister and DeploymentsLister read the caches, never the server
	// (sample-controller's fooInformer.Lister() and
	// deploymentInformer.Lister()).
	FoosLister() FooLister
	DeploymentsLister() DeploymentLister
	// Start runs the informers until ctx ends; it does not block.
	Start(ctx context.Context)
	// WaitForCacheSync waits until both informers have synced and both
	// handlers have been called for everything in their first list, or ctx
	// ends.
	WaitForCacheSync(ctx context.Context) bool
	// Shutdown waits until every informer goroutine has returned; cancel
	// Start's context first.
	Shutdown()
}

// FooLister is what the controller reads Foos with: the part of
// sample-controller's generated FooLister it uses, for Foos as the dynamic
// informer caches them. A missing Foo is the API's NotFound error.
type FooLister interface {
	Foos(namespace string) NamespaceGetter[*unstructured.Unstructured]
}

// DeploymentLister is what the controller reads Deployments with: the part
// of client-go's appslisters.DeploymentLister (and of stage 07's) it uses.
type DeploymentLister interface {
	Deployments(namespace string) NamespaceGetter[*appsv1.Deployment]
}

// NamespaceGetter is a namespace lister's Get: every generated namespace
// lister, ours and client-go's, has it. The object returned is the cache's
// own: read it, never change it.
type NamespaceGetter[T any] interface {
	Get(name string) (T, error)
}

// FooListerFunc is a FooLister made of a function that reads one Foo: how a
// stack (or a wrapper around one) whose lister has another shape gives one.
type FooListerFunc func(namespace, name string) (*unstructured.Unstructured, error)

// Foos returns the getter of one namespace.
func (f FooListerFunc) Foos(namespace string) NamespaceGetter[*unstructured.Unstructured] {
	return getter[*unstructured.Unstructured]{namespace, f}
}

// DeploymentListerFunc is a DeploymentLister made of a function that reads
// one Deployment.
type DeploymentListerFunc func(namespace, name string) (*appsv1.Deployment, error)

// Deployments returns the getter of one namespace.
func (f DeploymentListerFunc) Deployments(namespace string) NamespaceGetter[*appsv1.Deployment] {
	return getter[*appsv1.Deployment]{namespace, f}
}

// getter is one namespace of a lister made of a function.
type getter[T any] struct {
	namespace string
	get       func(namespace, name string) (T, error)
}

func (g getter[T]) Get(name string) (T, error) { return g.get(g.namespace, name) }

// ourInformers is Informers on stages 01-07.
type ourInformers struct {
	factory        factory.SharedInformerFactory
	dynamicFactory dynamicinformer.DynamicSharedInformerFactory
	deployments    appsv1listers.DeploymentLister
	foos           factory.GenericInformer
	fooLister      dynamiclister.Lister
	registrations  []informer.ResourceEventHandlerRegistration
}

// NewInformers returns the informers a Controller needs, built on our
// stages: Deployments from stage 07's SharedInformerFactory, Foos from its
// dynamic factory (the clientset has no Go type for a CustomResource). With
// a namespace, both see only that namespace; "" is every namespace.
func NewInformers(kubeClient kubernetes.Interface, dynamicClient dynamic.Interface, namespace string) Informers {
	f := factory.NewSharedInformerFactoryWithOptions(kubeClient, 0, factory.WithNamespace(namespace))
	df := dynamicinformer.NewFilteredDynamicSharedInformerFactory(dynamicClient, 0, namespace, nil)
	foos := df.ForResource(crd.Foo.GVR())
	return &ourInformers{
		factory:        f,
		dynamicFactory: df,
		deployments:    f.Apps().V1().Deployments().Lister(),
		foos:           foos,
		fooLister:      dynamiclister.New(foos.Informer().GetIndexer(), crd.Foo.GVR()),
	}
}

func (i *ourInformers) AddEventHandlers(foos, deployments informer.ResourceEventHandler) error {
	fooReg, err := i.foos.Informer().AddEventHandler(foos)
	if err != nil {
		return err
	}
	deploymentReg, err := i.factory.Apps().V1().Deployments().Informer().AddEventHandler(deployments)
	if err != nil {
		// Take the Foo handler back: a controller that failed to build
		// must not be called by an informer someone else starts.
		return errors.Join(err, i.foos.Informer().RemoveEventHandler(fooReg))
	}
	i.registrations = append(i.registrations, fooReg, deploymentReg)
	return nil
}

func (i *ourInformers) FoosLister() FooLister {
	return FooListerFunc(func(namespace, name string) (*unstructured.Unstructured, error) {
		return i.fooLister.Namespace(namespace).Get(name)
	})
}

func (i *ourInformers) DeploymentsLister() DeploymentLister {
	return DeploymentListerFunc(func(namespace, name string) (*appsv1.Deployment, error) {
		return i.deployments.Deployments(namespace).Get(name)
	})
}

func (i *ourInformers) Start(ctx context.Context) {
	i.factory.StartWithContext(ctx)
	i.dynamicFactory.Start(ctx.Done())
}

func (i *ourInformers) WaitForCacheSync(ctx context.Context) bool {
	if err := i.factory.WaitForCacheSyncWithContext(ctx).AsError(); err != nil {
		return false
	}
	for _, synced := range i.dynamicFactory.WaitForCacheSync(ctx.Done()) {
		if !synced {
			return false
		}
	}
	// The informers hold their first lists; wait until the handlers have
	// been called for all of it too, so that every existing Foo is queued
	// before the workers start (stage 06: a registration's HasSynced).
	checkers := make([]informer.DoneChecker, 0, len(i.registrations))
	for _, reg := range i.registrations {
		checkers = append(checkers, reg.HasSyncedChecker())
	}
	return informer.WaitFor(ctx, "the controller's handlers", checkers...)
}

func (i *ourInformers) Shutdown() {
	i.factory.Shutdown()
	i.dynamicFactory.Shutdown()
}
