// Mirrors k8s.io/client-go v0.37.2 dynamic/dynamicinformer/interface.go:
// DynamicSharedInformerFactory, TweakListOptionsFunc.

package dynamicinformer

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	factory "informer-from-scratch/07-factory"
)

// DynamicSharedInformerFactory hands out one shared informer per resource.
type DynamicSharedInformerFactory interface {
	// Start starts every requested informer not started yet, each in a
	// goroutine that runs until stopCh is closed. It does not block.
	Start(stopCh <-chan struct{})

	// ForResource returns the informer of gvr, the same one to every
	// caller. A resource the server does not serve is not an error here:
	// its informer reports the server's 404 at every try and never syncs
	// (client-go's does the same).
	ForResource(gvr schema.GroupVersionResource) factory.GenericInformer

	// WaitForCacheSync waits until every started informer has synced, or
	// stopCh is closed, and says per resource which have.
	WaitForCacheSync(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool

	// Shutdown makes Start do nothing from now on and waits until every
	// informer goroutine Start began has returned; they return when their
	// stop channel is closed. It may be called many times, concurrently.
	Shutdown()
}

// TweakListOptionsFunc changes the ListOptions of every LIST and WATCH.
type TweakListOptionsFunc func(*metav1.ListOptions)
