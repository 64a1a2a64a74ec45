// Mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go:
// TypedSharedIndexInformer, NewTypedSharedIndexInformer,
// typedSharedIndexInformer (AddTypedEventHandler, AddTypedIndexers,
// GetTypedIndexer) and typedResourceEventHandler.

package informer

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	indexer "informer-from-scratch/04-indexer"
	"informer-from-scratch/internal/nilpointer"
)

// TypedSharedIndexInformer is a SharedIndexInformer with type-safe variants
// of the methods that take or give objects: no type assertions in handlers
// or index functions, and deletions as DeletedObject[T], tombstone or not.
type TypedSharedIndexInformer[T Object] interface {
	SharedIndexInformer

	// AddTypedEventHandler registers a typed handler, with at most one
	// HandlerOptions (none means AddEventHandler's defaults).
	AddTypedEventHandler(handler TypedResourceEventHandler[T], options ...HandlerOptions) (ResourceEventHandlerRegistration, error)
	// AddTypedIndexers adds typed index functions.
	AddTypedIndexers(indexers TypedIndexers[T]) error
	// GetTypedIndexer returns the cache as a TypedIndexer[T].
	GetTypedIndexer() TypedIndexer[T]
}

// NewTypedSharedIndexInformer views informer, whose objects must all be of
// type T, as a TypedSharedIndexInformer[T].
func NewTypedSharedIndexInformer[T Object](informer SharedIndexInformer) TypedSharedIndexInformer[T] {
	return &typedSharedIndexInformer[T]{SharedIndexInformer: informer}
}

type typedSharedIndexInformer[T Object] struct {
	SharedIndexInformer
}

// AddTypedEventHandler adapts handler to the untyped notifications the
// processor carries, then registers it like any handler.
func (s *typedSharedIndexInformer[T]) AddTypedEventHandler(handler TypedResourceEventHandler[T], options ...HandlerOptions) (ResourceEventHandlerRegistration, error) {
	var o HandlerOptions
	switch len(options) {
	case 0:
	case 1:
		o = options[0]
	default:
		return nil, fmt.Errorf("at most one HandlerOptions may be passed, got %d", len(options))
	}
	if handler == nil || nilpointer.Is(handler) {
		// client-go wraps the nil and panics on the first notification.
		return nil, fmt.Errorf("informer: a nil %T cannot be registered as a TypedResourceEventHandler", handler)
	}
	return s.AddEventHandlerWithOptions(&typedResourceEventHandler[T]{handler}, o)
}

// AddTypedIndexers adds typed index functions (an object of another type
// makes an index function fail, and the cache refuses that write).
func (s *typedSharedIndexInformer[T]) AddTypedIndexers(indexers TypedIndexers[T]) error {
	return s.AddIndexers(indexer.TypedIndexersToIndexers(indexers))
}

// GetTypedIndexer returns the cache with typed reads.
func (s *typedSharedIndexInformer[T]) GetTypedIndexer() TypedIndexer[T] {
	return indexer.NewTypedIndexer[T](s.GetIndexer())
}

// typedResourceEventHandler turns the processor's untyped calls into typed
// ones. A deletion becomes a DeletedObject[T]: with the tombstone when there
// is one, and the tombstone's object when it has one.
//
// An object of another type than T is a bug in how the informer was built
// (its ListerWatcher returns something else). client-go's type assertion
// panics in the handler's goroutine, which crashes the process; ours reports
// the mismatch through utilruntime.HandleError and skips the call, except
// for a tombstone, which is still delivered, by key, without its object.
type typedResourceEventHandler[T Object] struct {
	handler TypedResourceEventHandler[T]
}

func (h *typedResourceEventHandler[T]) OnAdd(obj any, isInInitialList bool) {
	if t, ok := h.typed("OnAdd", obj); ok {
		h.handler.OnAdd(t, isInInitialList)
	}
}

func (h *typedResourceEventHandler[T]) OnUpdate(oldObj, newObj any) {
	oldT, okOld := h.typed("OnUpdate", oldObj)
	newT, okNew := h.typed("OnUpdate", newObj)
	if okOld && okNew {
		h.handler.OnUpdate(oldT, newT)
	}
}

func (h *typedResourceEventHandler[T]) OnDelete(obj any) {
	tombstone, ok := obj.(DeletedFinalStateUnknown)
	if !ok {
		if t, ok := h.typed("OnDelete", obj); ok {
			h.handler.OnDelete(DeletedObject[T]{OptionalObj: t})
		}
		return
	}
	deleted := DeletedObject[T]{FinalStateUnknown: &tombstone}
	if tombstone.Obj != nil {
		deleted.OptionalObj, _ = h.typed("OnDelete (tombstone's object)", tombstone.Obj)
	}
	h.handler.OnDelete(deleted)
}

func (h *typedResourceEventHandler[T]) typed(call string, obj any) (T, bool) {
	t, ok := obj.(T)
	if !ok {
		utilruntime.HandleError(fmt.Errorf("informer: typed handler %T: %s got a %T, not a %T; call skipped", h.handler, call, obj, t))
	}
	return t, ok
}
