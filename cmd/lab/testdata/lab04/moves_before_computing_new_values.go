//go:build ignore

// A plausible wrong answer to lab 04: it reads naturally as "out of the old
// buckets, into the new ones", but it takes the key out of the old buckets
// before it runs the index function on the new object. When that function
// fails, the write returns the error with the key already gone from this
// index: the store is no longer as it was before the failed write.

package indexer

import "fmt"

func (i *storeIndex) updateSingleIndex(name string, oldObj, newObj interface{}, key string) error {
	indexFunc := i.indexers[name]
	if indexFunc == nil {
		return fmt.Errorf("indexer %q has a nil IndexFunc", name)
	}
	idx := i.indices[name]
	if idx == nil {
		idx = index{}
		i.indices[name] = idx
	}
	if oldObj != nil {
		oldIndexValues, err := indexFunc(oldObj)
		if err != nil {
			return indexEntryError(key, name, err)
		}
		for _, value := range oldIndexValues {
			deleteKeyFromIndex(key, value, idx)
		}
	}
	if newObj != nil {
		indexValues, err := indexFunc(newObj)
		if err != nil {
			return indexEntryError(key, name, err)
		}
		for _, value := range indexValues {
			addKeyToIndex(key, value, idx)
		}
	}
	return nil
}
