//go:build ignore

// A plausible wrong answer to lab 04: Index(obj) looks up the bucket of the
// object's first indexed value only, as if every index function returned one
// value. With a multi-valued index (the users named in an annotation) it
// misses every object that shares only a later value.

package indexer

import "k8s.io/apimachinery/pkg/util/sets"

func (i *storeIndex) getKeysFromIndex(indexName string, obj interface{}) (sets.Set[string], error) {
	indexFunc := i.indexers[indexName]
	if indexFunc == nil {
		return nil, errNoIndex(indexName)
	}
	indexedValues, err := indexFunc(obj)
	if err != nil {
		return nil, err
	}
	if len(indexedValues) == 0 {
		return sets.Set[string]{}, nil
	}
	return i.indices[indexName][indexedValues[0]], nil
}
