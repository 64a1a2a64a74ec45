// Mirrors k8s.io/client-go v0.37.2 informers/factory.go: SharedInformerFactory,
// sharedInformerFactory, NewSharedInformerFactory,
// NewFilteredSharedInformerFactory, NewSharedInformerFactoryWithOptions, and
// the group accessors Apps and Core.

package factory

import (
	"context"
	"reflect"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/07-factory/apps"
	"informer-from-scratch/07-factory/core"
	"informer-from-scratch/07-factory/internalinterfaces"
)

// SharedInformerFactory hands out one shared informer per type, and starts,
// waits for and stops them together.
//
// Every part of a program asks it for the informer of a type
// (factory.Core().V1().Pods().Informer(), or ForResource, or InformerFor)
// and gets the same one: one cache, one LIST and one WATCH per type for the
// whole process, however many controllers read it. It is typically used
// like this:
//
//	factory := NewSharedInformerFactory(client, resync)
//	defer factory.Shutdown()                     // returns at once if nothing was started
//	pods := factory.Core().V1().Pods()           // ask first: only requested informers run
//	handle, err := pods.Informer().AddEventHandler(handler)
//	factory.StartWithContext(ctx)                // starts what was requested, once each
//	if err := factory.WaitForCacheSyncWithContext(ctx).AsError(); err != nil { … }
//	informer.WaitFor(ctx, "handler", handle.HasSyncedChecker())
//	pods.Lister().Pods("default").List(selector) // answered from the cache
//
// An informer requested after Start does not run until Start is called
// again; after Shutdown, Start does nothing.
type SharedInformerFactory interface {
	internalinterfaces.SharedInformerFactory

	// Start starts every requested informer not started yet, each in a
	// goroutine that runs until stopCh is closed. It does not block.
	Start(stopCh <-chan struct{})
	// StartWithContext is Start until ctx is cancelled.
	StartWithContext(ctx context.Context)

	// Shutdown marks the factory as shutting down, so that Start does
	// nothing from now on, and waits until every informer goroutine Start
	// began has returned. Those goroutines end when the stop channel or
	// context they were started with ends: close it before or while
	// Shutdown waits. It may be called many times, also concurrently.
	Shutdown()

	// WaitForCacheSync waits until every started informer has synced, or
	// stopCh is closed, and says per type which have.
	WaitForCacheSync(stopCh <-chan struct{}) map[reflect.Type]bool
	// WaitForCacheSyncWithContext is WaitForCacheSync until ctx ends, with
	// the reason when not every informer synced.
	WaitForCacheSyncWithContext(ctx context.Context) SyncResult

	// ForResource returns the informer of a resource this factory knows,
	// as a GenericInformer; for any other resource, an error.
	ForResource(resource schema.GroupVersionResource) (GenericInformer, error)

	// InformerFor returns the informer of obj's type, building it with
	// newFunc the first time a type is asked for.
	InformerFor(obj runtime.Object, newFunc internalinterfaces.NewInformerFunc) informer.SharedIndexInformer

	// Apps gives the informers of the apps API group.
	Apps() apps.Interface
	// Core gives the informers of the core API group ("", /api/v1).
	Core() core.Interface
}

// sharedInformerFactory holds the informers, keyed by the Go type of their
// objects, and which of them have been started.
type sharedInformerFactory struct {
	client           kubernetes.Interface
	namespace        string
	tweakListOptions internalinterfaces.TweakListOptionsFunc
	defaultResync    time.Duration
	customResync     map[reflect.Type]time.Duration
	transform        informer.TransformFunc

	// lock guards the maps and shuttingDown.
	lock      sync.Mutex
	informers map[reflect.Type]informer.SharedIndexInformer
	// startedInformers makes Start safe to call again: it starts only
	// the informers requested since.
	startedInformers map[reflect.Type]bool
	// wg counts the informer goroutines Start began; Shutdown waits for it.
	wg sync.WaitGroup
	// shuttingDown is set by Shutdown, which may still be waiting.
	shuttingDown bool
}

var _ SharedInformerFactory = &sharedInformerFactory{}

// NewSharedInformerFactory returns a factory for every namespace, whose
// informers resync their handlers every defaultResync (0: never).
func NewSharedInformerFactory(client kubernetes.Interface, defaultResync time.Duration) SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(client, defaultResync)
}

// NewFilteredSharedInformerFactory returns a factory whose informers see
// only namespace (metav1.NamespaceAll: every one), with tweakListOptions
// applied to every LIST and WATCH.
//
// Deprecated: use NewSharedInformerFactoryWithOptions with WithNamespace and
// WithTweakListOptions, as client-go says.
func NewFilteredSharedInformerFactory(client kubernetes.Interface, defaultResync time.Duration, namespace string, tweakListOptions internalinterfaces.TweakListOptionsFunc) SharedInformerFactory {
	return NewSharedInformerFactoryWithOptions(client, defaultResync, WithNamespace(namespace), WithTweakListOptions(tweakListOptions))
}

// NewSharedInformerFactoryWithOptions returns a factory with options
// applied in order. A nil client is accepted, as in client-go, but its
// informers' requests fail with internalinterfaces.ErrNilClient (client-go's
// crash the process).
func NewSharedInformerFactoryWithOptions(client kubernetes.Interface, defaultResync time.Duration, options ...SharedInformerOption) SharedInformerFactory {
	factory := &sharedInformerFactory{
		client:           client,
		namespace:        metav1.NamespaceAll,
		defaultResync:    defaultResync,
		informers:        map[reflect.Type]informer.SharedIndexInformer{},
		startedInformers: map[reflect.Type]bool{},
		customResync:     map[reflect.Type]time.Duration{},
	}
	for _, opt := range options {
		if opt != nil {
			factory = opt(factory)
		}
	}
	return factory
}

// Apps gives the informers of the apps group, with the factory's namespace
// and tweak.
func (f *sharedInformerFactory) Apps() apps.Interface {
	return apps.New(f, f.namespace, f.tweakListOptions)
}

// Core gives the informers of the core group, with the factory's namespace
// and tweak.
func (f *sharedInformerFactory) Core() core.Interface {
	return core.New(f, f.namespace, f.tweakListOptions)
}
