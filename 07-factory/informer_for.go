// Mirrors k8s.io/client-go v0.37.2 informers/factory.go:
// sharedInformerFactory.InformerFor.

package factory

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	listwatch "informer-from-scratch/01-listwatch"
	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/07-factory/internalinterfaces"
)

// InformerFor returns the factory's informer for obj's type. The first call
// for a type builds it with newFunc, passing the factory's client and the
// type's resync period (WithCustomResyncConfig's, or the default), and sets
// the factory's transform on it; every later call, whatever its newFunc,
// gets that same informer. This is the whole of sharing: the key is
// reflect.TypeOf(obj), so every caller that asks for *corev1.Pod gets one
// informer, one cache, one LIST and one WATCH.
//
// The informer does not run until Start. Build every informer with the
// same newFunc for a type: the first one wins, its namespace and tweak
// included.
//
// Bad input gets an error through utilruntime.HandleError and an informer
// that cannot sync (its requests fail with the same error), where client-go
// panics or shares nonsense: a nil obj (there is no type to share by; the
// informer returned is not the factory's and never starts), a nil newFunc,
// or a newFunc that returns nil (the failing informer then stands for the
// type, so WaitForCacheSync names it).
//
//lab:07
func (f *sharedInformerFactory) InformerFor(obj runtime.Object, newFunc internalinterfaces.NewInformerFunc) informer.SharedIndexInformer {
	if obj == nil {
		err := errors.New("factory: InformerFor was given a nil object: it has no type to share an informer by")
		utilruntime.HandleError(err)
		return failingInformer(err)
	}

	f.lock.Lock()
	defer f.lock.Unlock()

	informerType := reflect.TypeOf(obj)
	if inf, exists := f.informers[informerType]; exists {
		return inf
	}
	resyncPeriod, exists := f.customResync[informerType]
	if !exists {
		resyncPeriod = f.defaultResync
	}

	inf, err := build(newFunc, f.client, resyncPeriod, informerType)
	if err != nil {
		utilruntime.HandleError(err)
		inf = failingInformer(err)
	}
	if f.transform != nil {
		// client-go drops this error; it comes when newFunc returned an
		// informer that already runs.
		if err := inf.SetTransform(f.transform); err != nil {
			utilruntime.HandleError(fmt.Errorf("factory: setting the transform on the %v informer: %w", informerType, err))
		}
	}
	f.informers[informerType] = inf
	return inf
}

// build calls newFunc, turning a nil function or a nil result into an error.
func build(newFunc internalinterfaces.NewInformerFunc, client kubernetes.Interface, resync time.Duration, t reflect.Type) (informer.SharedIndexInformer, error) {
	if newFunc == nil {
		return nil, fmt.Errorf("factory: InformerFor(%v) was given a nil NewInformerFunc", t)
	}
	inf := newFunc(client, resync)
	if inf == nil {
		return nil, fmt.Errorf("factory: the NewInformerFunc given to InformerFor(%v) returned nil", t)
	}
	return inf, nil
}

// failingInformer is a real informer (stage 06) whose LIST and WATCH fail
// with err: it reports err every time its reflector tries, and never syncs.
func failingInformer(err error) informer.SharedIndexInformer {
	lw := &listwatch.ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			return nil, err
		},
		WatchFuncWithContext: func(context.Context, metav1.ListOptions) (watch.Interface, error) {
			return nil, err
		},
	}
	return informer.NewSharedIndexInformer(lw, &unstructured.Unstructured{}, 0, informer.Indexers{})
}
