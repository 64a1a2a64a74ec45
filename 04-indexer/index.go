// Mirrors k8s.io/client-go v0.37.2 tools/cache/index.go: Indexer, IndexFunc,
// IndexFuncToKeyFuncAdapter, NamespaceIndex, MetaNamespaceIndexFunc, Indexers,
// Indices.

package indexer

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/sets"

	deltafifo "informer-from-scratch/03-deltafifo"
)

// Indexer is a Store that can also answer "which objects have this value?"
// without scanning every object.
//
// Three kinds of strings meet here, and keeping them apart is most of the
// lesson:
//  1. a storage key ("namespace/name"), made by the Store's KeyFunc;
//  2. the name of an index ("namespace", "byNode"), chosen by the caller;
//  3. an indexed value ("kube-system", "node-1"), produced by that index's
//     IndexFunc from an object. One object may produce several values, or
//     none.
//
// Every write keeps the indices in step with the items, under the same lock,
// so a reader never sees an object in a bucket it no longer belongs to, as
// long as nobody mutates the cached objects (see ThreadSafeStore).
type Indexer interface {
	Store
	// Index returns the stored objects whose set of indexed values
	// intersects the set of indexed values of obj, for the named index.
	Index(indexName string, obj interface{}) ([]interface{}, error)
	// IndexKeys returns the storage keys, sorted, of the stored objects
	// whose indexed values for the named index include indexedValue.
	IndexKeys(indexName, indexedValue string) ([]string, error)
	// ListIndexFuncValues returns every value the named index currently
	// holds at least one key for, in no particular order.
	ListIndexFuncValues(indexName string) []string
	// ByIndex returns the stored objects whose indexed values for the named
	// index include indexedValue, in no particular order.
	ByIndex(indexName, indexedValue string) ([]interface{}, error)
	// GetIndexers returns the index functions by name.
	GetIndexers() Indexers
	// AddIndexers adds index functions, and indexes the objects already
	// stored with them. A name that already exists is an error.
	AddIndexers(newIndexers Indexers) error
}

// IndexFunc computes the indexed values of an object for one index. It must
// be deterministic: the store calls it again on the old object to find the
// buckets to remove a key from.
type IndexFunc func(obj interface{}) ([]string, error)

// IndexFuncToKeyFuncAdapter turns an IndexFunc that returns exactly one value
// per object into a KeyFunc. Anything else is an error.
func IndexFuncToKeyFuncAdapter(indexFunc IndexFunc) deltafifo.KeyFunc {
	return func(obj interface{}) (string, error) {
		indexKeys, err := indexFunc(obj)
		if err != nil {
			return "", err
		}
		if len(indexKeys) > 1 {
			return "", fmt.Errorf("too many keys: %v", indexKeys)
		}
		if len(indexKeys) == 0 {
			return "", fmt.Errorf("unexpected empty indexKeys")
		}
		return indexKeys[0], nil
	}
}

// NamespaceIndex is the name informers give the namespace index. Listers
// look for an index of exactly this name to list one namespace without a
// scan.
const NamespaceIndex string = "namespace"

// MetaNamespaceIndexFunc indexes an object by its namespace ("" for
// cluster-scoped objects).
func MetaNamespaceIndexFunc(obj interface{}) ([]string, error) {
	meta, err := meta.Accessor(obj)
	if err != nil {
		return []string{""}, fmt.Errorf("object has no meta: %v", err)
	}
	return []string{meta.GetNamespace()}, nil
}

// index maps an indexed value to the set of storage keys that produced it:
// one bucket per value.
type index map[string]sets.Set[string]

// Indexers maps the name of an index to its IndexFunc.
type Indexers map[string]IndexFunc

// Indices maps the name of an index to the index itself.
type Indices map[string]index
