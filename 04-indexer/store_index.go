// Mirrors k8s.io/client-go v0.37.2 tools/cache/thread_safe_store.go: storeIndex
// (reset, getKeysFromIndex, getKeysByIndex, getIndexValues, addIndexers,
// updateSingleIndex, updateIndices, addKeyToIndex, deleteKeyFromIndex).
//
// Same functions, same roles, one difference: client-go panics when an index
// function fails halfway through a write, leaving some indices moved and
// others not. Ours returns the error, and updateIndices first moves the key
// back in the indices it had already updated, so a failed write leaves every
// index as it was.

package indexer

import (
	"fmt"
	"maps"
	"slices"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
)

// storeIndex holds the two maps beside the items: the index functions by
// name, and the indices they built. The caller holds the store's lock.
type storeIndex struct {
	// indexers maps a name to an IndexFunc.
	indexers Indexers
	// indices maps a name to an index (value → set of keys).
	indices Indices
	// names is indexers' keys, sorted. client-go ranges over the map; a
	// fixed order makes "which index is reported when several fail" the same
	// on every run, and tells updateIndices which indices it already moved.
	names []string
}

func newStoreIndex(indexers Indexers, indices Indices) *storeIndex {
	// Our own copy: client-go keeps the caller's map and AddIndexers writes
	// into it (and panics when the caller passed nil).
	i := &storeIndex{indexers: maps.Clone(indexers), indices: indices}
	if i.indexers == nil {
		i.indexers = Indexers{}
	}
	if i.indices == nil {
		i.indices = Indices{}
	}
	i.names = slices.Sorted(maps.Keys(i.indexers))
	return i
}

// reset forgets every index, before Replace rebuilds them.
func (i *storeIndex) reset() {
	i.indices = Indices{}
}

// errNoIndex is client-go's wording, capital letter included, so that error
// messages compare equal in the differential tests.
func errNoIndex(indexName string) error {
	return fmt.Errorf("Index with name %s does not exist", indexName)
}

// getKeysFromIndex returns the keys of the objects sharing at least one
// indexed value with obj. The caller only reads the set, under the store's
// lock: for one value it is that value's bucket itself.
//
//lab:04
func (i *storeIndex) getKeysFromIndex(indexName string, obj interface{}) (sets.Set[string], error) {
	indexFunc := i.indexers[indexName]
	if indexFunc == nil {
		return nil, errNoIndex(indexName)
	}
	indexedValues, err := indexFunc(obj)
	if err != nil {
		return nil, err
	}
	idx := i.indices[indexName]
	if len(indexedValues) == 1 {
		// The common case: one value, and its bucket is the answer as is.
		return idx[indexedValues[0]], nil
	}
	// Several values may name the same key: merge the buckets into a set.
	keys := sets.Set[string]{}
	for _, v := range indexedValues {
		for key := range idx[v] {
			keys.Insert(key)
		}
	}
	return keys, nil
}

func (i *storeIndex) getKeysByIndex(indexName, indexedValue string) (sets.Set[string], error) {
	if i.indexers[indexName] == nil {
		return nil, errNoIndex(indexName)
	}
	return i.indices[indexName][indexedValue], nil
}

func (i *storeIndex) getIndexValues(indexName string) []string {
	idx := i.indices[indexName]
	values := make([]string, 0, len(idx))
	for v := range idx {
		values = append(values, v)
	}
	return values
}

// addIndexers adds index functions; it refuses a name already in use
// (replacing an index function would leave its buckets describing the old
// one) and, unlike client-go, a nil function. The caller indexes the stored
// items with the new functions.
func (i *storeIndex) addIndexers(newIndexers Indexers) error {
	oldKeys := sets.KeySet(i.indexers)
	newKeys := sets.KeySet(newIndexers)
	if oldKeys.HasAny(sets.List(newKeys)...) {
		return fmt.Errorf("indexer conflict: %v", oldKeys.Intersection(newKeys))
	}
	for _, name := range sets.List(newKeys) {
		if newIndexers[name] == nil {
			return fmt.Errorf("indexer %q has a nil IndexFunc", name)
		}
	}
	maps.Copy(i.indexers, newIndexers)
	i.names = slices.Sorted(maps.Keys(i.indexers))
	return nil
}

// removeIndexers takes back what addIndexers added, with the indices built so
// far: AddIndexers undoes itself this way when a new function fails on a
// stored item. client-go has no way back; it panics.
func (i *storeIndex) removeIndexers(names []string) {
	for _, name := range names {
		delete(i.indexers, name)
		delete(i.indices, name)
	}
	i.names = slices.Sorted(maps.Keys(i.indexers))
}

// updateSingleIndex moves key in the named index, from the buckets of
// oldObj's values to those of newObj's:
//   - for an add, pass only newObj (oldObj nil);
//   - for an update, both;
//   - for a delete, only oldObj.
//
// Both sets of values are computed before any bucket changes, so when the
// index function fails, this index is untouched and the error says which key
// and index (client-go panics with the same words). The old values are
// computed again from the stored object, as client-go does: if someone
// mutated that object, they are the wrong values and the key stays behind in
// its old bucket.
//
//lab:04
func (i *storeIndex) updateSingleIndex(name string, oldObj, newObj interface{}, key string) error {
	indexFunc := i.indexers[name]
	if indexFunc == nil {
		return fmt.Errorf("indexer %q has a nil IndexFunc", name)
	}
	var oldIndexValues, indexValues []string
	var err error
	if oldObj != nil {
		if oldIndexValues, err = indexFunc(oldObj); err != nil {
			return indexEntryError(key, name, err)
		}
	}
	if newObj != nil {
		if indexValues, err = indexFunc(newObj); err != nil {
			return indexEntryError(key, name, err)
		}
	}

	idx := i.indices[name]
	if idx == nil {
		idx = index{}
		i.indices[name] = idx
	}
	if len(indexValues) == 1 && len(oldIndexValues) == 1 && indexValues[0] == oldIndexValues[0] {
		// The most common update: one value, unchanged. Nothing moves.
		return nil
	}
	for _, value := range oldIndexValues {
		deleteKeyFromIndex(key, value, idx)
	}
	for _, value := range indexValues {
		addKeyToIndex(key, value, idx)
	}
	return nil
}

// indexEntryError words the failure the way client-go's panic does.
func indexEntryError(key, name string, err error) error {
	return fmt.Errorf("unable to calculate an index entry for key %q on index %q: %w", key, name, err)
}

// updateIndices moves key in every index (see updateSingleIndex for which
// object to pass when). If one index function fails, the indices already
// updated are moved back, by the same call with the objects swapped, before
// the error is returned. That way back re-runs functions that succeeded on
// both objects a moment ago, and IndexFuncs are deterministic, so it restores
// the buckets exactly; the one exception is a stored object someone mutated,
// whose buckets were wrong already (see ThreadSafeStore).
func (i *storeIndex) updateIndices(oldObj, newObj interface{}, key string) error {
	for n, name := range i.names {
		err := i.updateSingleIndex(name, oldObj, newObj, key)
		if err == nil {
			continue
		}
		for _, moved := range i.names[:n] {
			if undoErr := i.updateSingleIndex(moved, newObj, oldObj, key); undoErr != nil {
				// Only a function that is not deterministic gets here.
				utilruntime.HandleError(fmt.Errorf("indexer: undoing a failed write: %w", undoErr))
			}
		}
		return err
	}
	return nil
}

func addKeyToIndex(key, indexValue string, idx index) {
	set := idx[indexValue]
	if set == nil {
		set = sets.Set[string]{}
		idx[indexValue] = set
	}
	set.Insert(key)
}

// deleteKeyFromIndex takes key out of the bucket of indexValue, and drops the
// bucket if that left it empty: with short-lived objects and a
// high-cardinality index (a pod's UID, say), empty sets would otherwise pile
// up forever (kubernetes/kubernetes#84959). A value without a bucket is left
// alone.
//
//lab:04
func deleteKeyFromIndex(key, indexValue string, idx index) {
	set := idx[indexValue]
	if set == nil {
		return
	}
	set.Delete(key)
	if len(set) == 0 {
		delete(idx, indexValue)
	}
}
