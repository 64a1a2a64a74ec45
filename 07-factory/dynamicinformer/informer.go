// Mirrors k8s.io/client-go v0.37.2 dynamic/dynamicinformer/informer.go:
// NewDynamicSharedInformerFactory, NewFilteredDynamicSharedInformerFactory,
// dynamicSharedInformerFactory (ForResource, Start, WaitForCacheSync,
// Shutdown), NewFilteredDynamicInformer, dynamicInformer.

package dynamicinformer

import (
	"context"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	indexer "informer-from-scratch/04-indexer"
	informer "informer-from-scratch/06-sharedinformer"
	factory "informer-from-scratch/07-factory"
	"informer-from-scratch/07-factory/dynamiclister"
	"informer-from-scratch/07-factory/internalinterfaces"
)

// NewDynamicSharedInformerFactory returns a factory for every namespace.
func NewDynamicSharedInformerFactory(client dynamic.Interface, defaultResync time.Duration) DynamicSharedInformerFactory {
	return NewFilteredDynamicSharedInformerFactory(client, defaultResync, metav1.NamespaceAll, nil)
}

// NewFilteredDynamicSharedInformerFactory returns a factory whose informers
// see only namespace, with tweakListOptions applied to every LIST and WATCH.
// A nil client is accepted; its informers' requests fail with
// internalinterfaces.ErrNilClient (client-go's crash the process).
func NewFilteredDynamicSharedInformerFactory(client dynamic.Interface, defaultResync time.Duration, namespace string, tweakListOptions TweakListOptionsFunc) DynamicSharedInformerFactory {
	return &dynamicSharedInformerFactory{
		client:           client,
		defaultResync:    defaultResync,
		namespace:        namespace,
		informers:        map[schema.GroupVersionResource]factory.GenericInformer{},
		startedInformers: map[schema.GroupVersionResource]bool{},
		tweakListOptions: tweakListOptions,
	}
}

// dynamicSharedInformerFactory is the typed factory's shape keyed by
// resource: its Start, WaitForCacheSync and Shutdown follow the same rules.
type dynamicSharedInformerFactory struct {
	client           dynamic.Interface
	defaultResync    time.Duration
	namespace        string
	tweakListOptions TweakListOptionsFunc

	lock             sync.Mutex
	informers        map[schema.GroupVersionResource]factory.GenericInformer
	startedInformers map[schema.GroupVersionResource]bool
	wg               sync.WaitGroup
	shuttingDown     bool
}

var _ DynamicSharedInformerFactory = &dynamicSharedInformerFactory{}

// ForResource returns the informer of gvr, building it (indexed by
// namespace) the first time gvr is asked for.
func (f *dynamicSharedInformerFactory) ForResource(gvr schema.GroupVersionResource) factory.GenericInformer {
	f.lock.Lock()
	defer f.lock.Unlock()

	if inf, exists := f.informers[gvr]; exists {
		return inf
	}
	inf := NewFilteredDynamicInformer(f.client, gvr, f.namespace, f.defaultResync, informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc}, f.tweakListOptions)
	f.informers[gvr] = inf
	return inf
}

// Start runs every informer requested and not started yet until stopCh is
// closed; after Shutdown it does nothing.
func (f *dynamicSharedInformerFactory) Start(stopCh <-chan struct{}) {
	f.lock.Lock()
	defer f.lock.Unlock()

	if f.shuttingDown {
		return
	}
	for gvr, inf := range f.informers {
		if f.startedInformers[gvr] {
			continue
		}
		run := inf.Informer().Run
		f.wg.Go(func() { run(stopCh) })
		f.startedInformers[gvr] = true
	}
}

// WaitForCacheSync waits until every started informer has synced or stopCh
// is closed. Like client-go's, it polls each informer in turn every 100ms
// (stage 06's WaitForCacheSync); the typed factory waits on channels.
func (f *dynamicSharedInformerFactory) WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool {
	started := func() map[schema.GroupVersionResource]informer.SharedIndexInformer {
		f.lock.Lock()
		defer f.lock.Unlock()
		started := map[schema.GroupVersionResource]informer.SharedIndexInformer{}
		for gvr, inf := range f.informers {
			if f.startedInformers[gvr] {
				started[gvr] = inf.Informer()
			}
		}
		return started
	}()

	res := map[schema.GroupVersionResource]bool{}
	for gvr, inf := range started {
		res[gvr] = informer.WaitForCacheSync(stopCh, inf.HasSynced)
	}
	return res
}

// Shutdown makes Start a no-op and waits for every informer goroutine.
func (f *dynamicSharedInformerFactory) Shutdown() {
	f.lock.Lock()
	f.shuttingDown = true
	f.lock.Unlock()
	f.wg.Wait()
}

// NewFilteredDynamicInformer returns an informer of gvr's objects in
// namespace, of its own (not shared): a stage 06 informer over the dynamic
// client's LIST and WATCH, whose objects are *unstructured.Unstructured.
func NewFilteredDynamicInformer(client dynamic.Interface, gvr schema.GroupVersionResource, namespace string, resyncPeriod time.Duration, indexers informer.Indexers, tweakListOptions TweakListOptionsFunc) factory.GenericInformer {
	lw := internalinterfaces.NewListWatch(client, gvr.String(), internalinterfaces.TweakListOptionsFunc(tweakListOptions),
		func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
			return client.Resource(gvr).Namespace(namespace).List(ctx, options)
		},
		func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
			return client.Resource(gvr).Namespace(namespace).Watch(ctx, options)
		})
	return &dynamicInformer{
		gvr: gvr,
		informer: informer.NewSharedIndexInformerWithOptions(lw, &unstructured.Unstructured{}, informer.SharedIndexInformerOptions{
			ResyncPeriod:      resyncPeriod,
			Indexers:          indexers,
			ObjectDescription: gvr.String(),
		}),
	}
}

type dynamicInformer struct {
	informer informer.SharedIndexInformer
	gvr      schema.GroupVersionResource
}

var _ factory.GenericInformer = &dynamicInformer{}

// Informer returns the shared informer.
func (d *dynamicInformer) Informer() informer.SharedIndexInformer {
	return d.informer
}

// Lister returns a lister over the informer's cache, as a GenericLister.
func (d *dynamicInformer) Lister() indexer.GenericLister {
	return dynamiclister.NewRuntimeObjectShim(dynamiclister.New(d.informer.GetIndexer(), d.gvr))
}
