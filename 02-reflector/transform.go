// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go (TransformingStore)
// and tools/cache/delta_fifo.go (TransformFunc).

package reflector

// TransformFunc rewrites an object before it is stored, typically to drop
// fields nobody reads (managedFields) so the cache holds less. It may be
// given an object it already transformed (the reflector transforms the
// objects of a WatchList stream, and the store transforms them again when
// they are handed over with Replace), so it must be idempotent.
//
// It is an alias of the function type, not a type of its own as in
// client-go: stage 03's queues, which do not import this stage, declare the
// same alias, so their Transformer methods satisfy TransformingStore.
type TransformFunc = func(interface{}) (interface{}, error)

// TransformingStore is a ReflectorStore that transforms what it is given.
// While a WatchList stream runs, the reflector gathers the initial events in
// a temporary store of its own; when its store is a TransformingStore, it
// transforms them there as they arrive, as client-go does, so that a
// transform that drops managedFields saves memory during the stream too,
// not only once the objects reach the store.
type TransformingStore interface {
	ReflectorStore
	// Transformer returns the store's TransformFunc; nil means none.
	Transformer() TransformFunc
}
