//go:build ignore

// A plausible wrong answer to lab 04: the "one value, unchanged" shortcut
// is left out as a mere optimization, so every update takes the key out of
// its old buckets and puts it back. With well-behaved callers nothing shows;
// after a caller mutated a cached object, the old values come from the
// mutated object, and the key lands in a second bucket where client-go's
// stays in the stale one only: ours no longer goes wrong the way client-go
// does.

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
	for _, value := range oldIndexValues {
		deleteKeyFromIndex(key, value, idx)
	}
	for _, value := range indexValues {
		addKeyToIndex(key, value, idx)
	}
	return nil
}
