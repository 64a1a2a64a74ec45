// Mirrors k8s.io/client-go v0.37.2 informers/internalinterfaces/factory_interfaces.go:
// NewInformerFunc, SharedInformerFactory, TweakListOptionsFunc,
// InformerOptions.

package internalinterfaces

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"

	informer "informer-from-scratch/06-sharedinformer"
)

// NewInformerFunc builds the informer of one type from the factory's client
// and the resync period the factory chose for that type.
type NewInformerFunc func(kubernetes.Interface, time.Duration) informer.SharedIndexInformer

// SharedInformerFactory is what a resource's informer needs of the factory:
// InformerFor, which returns the one informer of its type, and Start.
// client-go's also has InformerName (metrics), which we leave out.
type SharedInformerFactory interface {
	Start(stopCh <-chan struct{})
	InformerFor(obj runtime.Object, newFunc NewInformerFunc) informer.SharedIndexInformer
}

// TweakListOptionsFunc changes the ListOptions of every LIST and WATCH an
// informer sends (a label or field selector, say).
type TweakListOptionsFunc func(*metav1.ListOptions)

// InformerOptions are the settings of one informer built by a resource's
// New…InformerWithOptions. client-go's also has InformerName (metrics).
type InformerOptions struct {
	// ResyncPeriod is the informer's default handler resync period; 0 none.
	ResyncPeriod time.Duration
	// Indexers are the cache's indexes.
	Indexers informer.Indexers
	// TweakListOptions, if set, changes every LIST and WATCH.
	TweakListOptions TweakListOptionsFunc
}
