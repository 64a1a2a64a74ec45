// Mirrors k8s.io/client-go v0.37.2 tools/cache/controller.go: Object,
// TypedResourceEventHandler, DeletedObject (GetObjectName, GetName,
// GetNamespace, GetKey), TypedResourceEventHandlerFuncs,
// TypedResourceEventHandlerDetailedFuncs, TypedFilteringResourceEventHandler.

package processor

import (
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	deltafifo "informer-from-scratch/03-deltafifo"
)

// Object is what a typed handler's objects must offer: a name, a namespace,
// and comparability, so that a zero T (a nil pointer) can be recognised.
// Every generated Kubernetes type (*corev1.Pod…) satisfies it.
type Object interface {
	comparable

	GetName() string
	GetNamespace() string
}

// TypedResourceEventHandler is ResourceEventHandler for objects of type T. It
// spares a handler the type assertions, and the tombstone type switch every
// untyped OnDelete needs: a deletion always arrives as a DeletedObject[T].
// The processor still carries untyped notifications; stage 06's informer
// adapts (AddTypedEventHandler).
type TypedResourceEventHandler[T Object] interface {
	OnAdd(obj T, isInInitialList bool)
	OnUpdate(oldObj, newObj T)
	OnDelete(obj DeletedObject[T])
}

// DeletedObject is what a typed OnDelete receives: the deleted object if it
// is known, and the tombstone if the deletion was only inferred from a
// relist (deltafifo.DeletedFinalStateUnknown).
//
// GetObjectName, GetKey, GetName and GetNamespace work in every case: from
// the object, or from the key the tombstone carries when its object is
// missing. They replace DeletionHandlingMetaNamespaceKeyFunc in a typed
// handler.
type DeletedObject[T Object] struct {
	// OptionalObj is the deleted object. It may be the last state before
	// the deletion, an older state (a tombstone's object is whatever the
	// cache last held), or the zero T when the informer found no copy.
	OptionalObj T

	// FinalStateUnknown is nil when OptionalObj is the final state;
	// otherwise it is the tombstone, whose Key is always right.
	FinalStateUnknown *deltafifo.DeletedFinalStateUnknown
}

// GetObjectName returns the deleted object's namespace and name. From a
// tombstone's key it splits at the first "/" and, unlike
// SplitMetaNamespaceKey, never fails: any further "/" is part of the name.
func (d DeletedObject[T]) GetObjectName() deltafifo.ObjectName {
	if d.FinalStateUnknown != nil {
		namespace, name, found := strings.Cut(d.FinalStateUnknown.Key, "/")
		if !found {
			return deltafifo.ObjectName{Name: namespace}
		}
		return deltafifo.ObjectName{Namespace: namespace, Name: name}
	}
	var zero T
	if d.OptionalObj == zero {
		// A nil pointer: calling its methods would panic.
		return deltafifo.ObjectName{}
	}
	return deltafifo.NewObjectName(d.OptionalObj.GetNamespace(), d.OptionalObj.GetName())
}

// GetName returns the name, without the namespace.
func (d DeletedObject[T]) GetName() string { return d.GetObjectName().Name }

// GetNamespace returns the namespace, or "" for a cluster-scoped object.
func (d DeletedObject[T]) GetNamespace() string { return d.GetObjectName().Namespace }

// GetKey returns the key the object was cached under ("namespace/name"):
// the tombstone's own key when there is one.
func (d DeletedObject[T]) GetKey() string {
	if d.FinalStateUnknown != nil {
		return d.FinalStateUnknown.Key
	}
	return d.GetObjectName().String()
}

// TypedResourceEventHandlerFuncs adapts up to three typed functions to a
// TypedResourceEventHandler; a nil function ignores its kind of event.
type TypedResourceEventHandlerFuncs[T Object] struct {
	AddFunc    func(obj T)
	UpdateFunc func(oldObj, newObj T)
	DeleteFunc func(obj DeletedObject[T])
}

var _ TypedResourceEventHandler[*metav1.ObjectMeta] = TypedResourceEventHandlerFuncs[*metav1.ObjectMeta]{}

// OnAdd calls AddFunc if it is set.
func (r TypedResourceEventHandlerFuncs[T]) OnAdd(obj T, isInInitialList bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}

// OnUpdate calls UpdateFunc if it is set.
func (r TypedResourceEventHandlerFuncs[T]) OnUpdate(oldObj, newObj T) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if it is set.
func (r TypedResourceEventHandlerFuncs[T]) OnDelete(obj DeletedObject[T]) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// TypedResourceEventHandlerDetailedFuncs is TypedResourceEventHandlerFuncs
// whose AddFunc also receives isInInitialList.
type TypedResourceEventHandlerDetailedFuncs[T Object] struct {
	AddFunc    func(obj T, isInInitialList bool)
	UpdateFunc func(oldObj, newObj T)
	DeleteFunc func(obj DeletedObject[T])
}

var _ TypedResourceEventHandler[*metav1.ObjectMeta] = TypedResourceEventHandlerDetailedFuncs[*metav1.ObjectMeta]{}

// OnAdd calls AddFunc if it is set.
func (r TypedResourceEventHandlerDetailedFuncs[T]) OnAdd(obj T, isInInitialList bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate calls UpdateFunc if it is set.
func (r TypedResourceEventHandlerDetailedFuncs[T]) OnUpdate(oldObj, newObj T) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if it is set.
func (r TypedResourceEventHandlerDetailedFuncs[T]) OnDelete(obj DeletedObject[T]) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// TypedFilteringResourceEventHandler is FilteringResourceEventHandler for a
// typed handler: only objects FilterFunc accepts get through, and an update
// across the filter's edge becomes an add or a delete. On a deletion the
// filter sees DeletedObject.OptionalObj, which may be the zero T: a
// FilterFunc that reads T's fields must check for that itself.
type TypedFilteringResourceEventHandler[T Object] struct {
	FilterFunc func(obj T) bool
	Handler    TypedResourceEventHandler[T]
}

// OnAdd calls the inner handler only if the object passes the filter.
func (r TypedFilteringResourceEventHandler[T]) OnAdd(obj T, isInInitialList bool) {
	if !r.FilterFunc(obj) {
		return
	}
	r.Handler.OnAdd(obj, isInInitialList)
}

// OnUpdate calls OnUpdate, OnAdd or OnDelete on the inner handler depending on
// which side of the filter the old and new objects are.
func (r TypedFilteringResourceEventHandler[T]) OnUpdate(oldObj, newObj T) {
	newer, older := r.FilterFunc(newObj), r.FilterFunc(oldObj)
	switch {
	case newer && older:
		r.Handler.OnUpdate(oldObj, newObj)
	case newer && !older:
		r.Handler.OnAdd(newObj, false)
	case !newer && older:
		// The object left the filter's view: its last state is known.
		r.Handler.OnDelete(DeletedObject[T]{OptionalObj: oldObj})
	}
}

// OnDelete calls the inner handler only if the deleted object passes the
// filter.
func (r TypedFilteringResourceEventHandler[T]) OnDelete(obj DeletedObject[T]) {
	if !r.FilterFunc(obj.OptionalObj) {
		return
	}
	r.Handler.OnDelete(obj)
}
