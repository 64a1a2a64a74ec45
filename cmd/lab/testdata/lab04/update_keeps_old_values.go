//go:build ignore

// A plausible wrong answer to lab 04: the key is taken out of the old
// values' buckets only on a delete (no new object). An update adds the key
// to its new buckets and leaves it in the old ones, so a pod that moved to
// node-2 is still listed on node-1.

package indexer

import "fmt"

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
	if newObj == nil {
		for _, value := range oldIndexValues {
			deleteKeyFromIndex(key, value, idx)
		}
		return nil
	}
	for _, value := range indexValues {
		addKeyToIndex(key, value, idx)
	}
	return nil
}
