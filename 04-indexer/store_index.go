// Mirrors k8s.io/client-go v0.37.2 tools/cache/thread_safe_store.go: storeIndex
// (getKeysFromIndex, getKeysByIndex, getIndexValues, addIndexers,
// updateSingleIndex, updateIndices, addKeyToIndex, deleteKeyFromIndex).
//
// One difference in shape: client-go computes an index function's values and
// changes the buckets in one pass, and panics if the function fails halfway
// through a write. Ours runs every index function first (computeChanges) and
// touches the buckets only when all of them succeeded (applyChanges), so a
// failing index function is an error and the store is left as it was.

package indexer

import (
	"fmt"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/util/sets"
)

// storeIndex holds the two maps beside the items: the index functions by
// name, and the indices they built. The caller holds the store's lock.
type storeIndex struct {
	// indexers maps a name to an IndexFunc.
	indexers Indexers
	// indices maps a name to an index (value → set of keys).
	indices Indices
	// names is indexers' keys, sorted, so that which index is reported when
	// several fail is the same on every run.
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

func (i *storeIndex) reset() {
	i.indices = Indices{}
}

// errNoIndex is client-go's wording, capital letter included, so that error
// messages compare equal in the differential tests.
func errNoIndex(indexName string) error {
	return fmt.Errorf("Index with name %s does not exist", indexName)
}

// getKeysFromIndex returns the keys of the objects sharing at least one
// indexed value with obj.
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

// checkNoConflict refuses names that already exist: replacing an index
// function would leave its old buckets describing a different function.
func (i *storeIndex) checkNoConflict(newIndexers Indexers) error {
	oldKeys := sets.KeySet(i.indexers)
	newKeys := sets.KeySet(newIndexers)
	if oldKeys.HasAny(sets.List(newKeys)...) {
		return fmt.Errorf("indexer conflict: %v", oldKeys.Intersection(newKeys))
	}
	return nil
}

func (i *storeIndex) addIndexers(newIndexers Indexers) {
	maps.Copy(i.indexers, newIndexers)
	i.names = slices.Sorted(maps.Keys(i.indexers))
}

// indexChange is how one key moves in one index: the values its old object
// had, and the values its new object has.
type indexChange struct {
	name     string
	old, new []string
}

// computeChanges runs the named index functions on oldObj and newObj (nil
// for "none": an add has no old object, a delete no new one) and appends the
// moves to buf. It changes nothing, so a failing function leaves the store
// intact.
func (i *storeIndex) computeChanges(names []string, oldObj, newObj interface{}, key string, buf []indexChange) ([]indexChange, error) {
	for _, name := range names {
		indexFunc := i.indexers[name]
		if indexFunc == nil {
			return buf, fmt.Errorf("indexer %q has a nil IndexFunc", name)
		}
		ch := indexChange{name: name}
		var err error
		// The old values are computed again from the stored object, exactly
		// as client-go does: if someone mutated that object, these are the
		// wrong values and the key stays behind in its old bucket.
		if oldObj != nil {
			if ch.old, err = indexFunc(oldObj); err != nil {
				return buf, indexEntryError(key, name, err)
			}
		}
		if newObj != nil {
			if ch.new, err = indexFunc(newObj); err != nil {
				return buf, indexEntryError(key, name, err)
			}
		}
		buf = append(buf, ch)
	}
	return buf, nil
}

// indexEntryError words the failure the way client-go's panic does.
func indexEntryError(key, name string, err error) error {
	return fmt.Errorf("unable to calculate an index entry for key %q on index %q: %w", key, name, err)
}

// applyChanges moves key between buckets as computed by computeChanges.
func (i *storeIndex) applyChanges(key string, changes []indexChange) {
	for _, ch := range changes {
		idx := i.indices[ch.name]
		if idx == nil {
			idx = index{}
			i.indices[ch.name] = idx
		}
		if len(ch.new) == 1 && len(ch.old) == 1 && ch.new[0] == ch.old[0] {
			// The most common update: one value, unchanged. Nothing moves.
			continue
		}
		for _, v := range ch.old {
			deleteKeyFromIndex(key, v, idx)
		}
		for _, v := range ch.new {
			addKeyToIndex(key, v, idx)
		}
	}
}

func addKeyToIndex(key, indexValue string, idx index) {
	set := idx[indexValue]
	if set == nil {
		set = sets.Set[string]{}
		idx[indexValue] = set
	}
	set.Insert(key)
}

func deleteKeyFromIndex(key, indexValue string, idx index) {
	set := idx[indexValue]
	if set == nil {
		return
	}
	set.Delete(key)
	// An empty bucket is dropped: with short-lived objects and a
	// high-cardinality index (a pod's UID, say), empty sets would otherwise
	// pile up forever (kubernetes/kubernetes#84959).
	if len(set) == 0 {
		delete(idx, indexValue)
	}
}
