// Mirrors k8s.io/client-go v0.37.2 tools/cache/index.go (TypedIndexers,
// TypedIndexFunc, TypedIndexer, TypedIndexersToIndexers,
// TypedIndexerFuncToIndexerFunc) and tools/cache/shared_informer.go
// (typedIndexer: TypedIndex, ByTypedIndex, AddTypedIndexers).

package indexer

import "fmt"

// TypedIndexFunc is an IndexFunc for objects of type T.
type TypedIndexFunc[T any] func(obj T) ([]string, error)

// TypedIndexers maps index names to TypedIndexFuncs.
type TypedIndexers[T any] map[string]TypedIndexFunc[T]

// TypedIndexer is an Indexer whose objects are all of type T.
type TypedIndexer[T any] interface {
	Indexer

	TypedIndex(indexName string, obj T) ([]T, error)
	ByTypedIndex(indexName, indexedValue string) ([]T, error)
	AddTypedIndexers(newIndexers TypedIndexers[T]) error
}

// TypedIndexersToIndexers wraps typed index functions for an untyped
// Indexer.
func TypedIndexersToIndexers[T any](indexers TypedIndexers[T]) Indexers {
	untyped := make(Indexers, len(indexers))
	for name, indexer := range indexers {
		untyped[name] = TypedIndexerFuncToIndexerFunc(indexer)
	}
	return untyped
}

// TypedIndexerFuncToIndexerFunc wraps one typed index function. Given an
// object of another type it returns an error, where client-go's panics; the
// store then refuses the write that brought that object.
func TypedIndexerFuncToIndexerFunc[T any](indexer TypedIndexFunc[T]) IndexFunc {
	return func(obj any) ([]string, error) {
		t, ok := obj.(T)
		if !ok {
			return nil, fmt.Errorf("index function for %T got a %T", *new(T), obj)
		}
		return indexer(t)
	}
}

// NewTypedIndexer views indexer as holding objects of type T. client-go has
// no exported constructor: it builds the same wrapper in
// typedSharedIndexInformer.GetTypedIndexer. Stage 06 reuses this one.
func NewTypedIndexer[T any](indexer Indexer) TypedIndexer[T] {
	return typedIndexer[T]{indexer}
}

type typedIndexer[T any] struct {
	Indexer
}

func (i typedIndexer[T]) TypedIndex(indexName string, obj T) ([]T, error) {
	untyped, err := i.Index(indexName, obj)
	if err != nil {
		return nil, err
	}
	return toTyped[T](untyped)
}

func (i typedIndexer[T]) ByTypedIndex(indexName, indexedValue string) ([]T, error) {
	untyped, err := i.ByIndex(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	return toTyped[T](untyped)
}

func (i typedIndexer[T]) AddTypedIndexers(newIndexers TypedIndexers[T]) error {
	return i.AddIndexers(TypedIndexersToIndexers(newIndexers))
}

// toTyped converts a result list, failing (rather than panicking, as
// client-go does) on an item of another type.
func toTyped[T any](untyped []interface{}) ([]T, error) {
	typed := make([]T, len(untyped))
	for n, obj := range untyped {
		t, ok := obj.(T)
		if !ok {
			return nil, fmt.Errorf("cached item is a %T, not a %T", obj, *new(T))
		}
		typed[n] = t
	}
	return typed, nil
}
