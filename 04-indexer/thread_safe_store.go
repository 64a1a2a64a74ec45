// Mirrors k8s.io/client-go v0.37.2 tools/cache/thread_safe_store.go:
// ThreadSafeStore, threadSafeMap, NewThreadSafeStore.

package indexer

import (
	"maps"
	"slices"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/util/sets"
)

// ThreadSafeStore is the map and the lock under every Store and Indexer: it
// files objects under keys the caller already computed, and keeps the indices
// in step with the items.
//
// The contract that matters most: objects returned by Get, List, ByIndex and
// Index are the stored objects themselves, not copies. Treat them as
// read-only. Changing one races with every other reader, and it does not
// re-index the object: the indices go on describing the object as it was,
// and the next update computes the "old" values from the mutated object, so
// the key can stay behind in a bucket it no longer belongs to. Copy first
// (DeepCopy), then change the copy.
//
// Unlike client-go's, the writes return an error: when an index function
// fails, client-go panics with the store half updated; ours undoes what the
// write had changed and returns the failure.
type ThreadSafeStore interface {
	Add(key string, obj interface{}) error
	Update(key string, obj interface{}) error
	// Delete is DeleteWithObject(key, nil): the store's resourceVersion does
	// not move, because there is no object to read one from.
	Delete(key string) error
	DeleteWithObject(key string, obj interface{}) error
	Get(key string) (item interface{}, exists bool)
	List() []interface{}
	ListKeys() []string
	// Replace swaps in items (the store takes ownership of the map) and
	// rebuilds every index.
	Replace(items map[string]interface{}, resourceVersion string) error
	Index(indexName string, obj interface{}) ([]interface{}, error)
	IndexKeys(indexName, indexedValue string) ([]string, error)
	// Bookmark records resourceVersion as the newest the store has seen.
	Bookmark(rv string)
	// LastStoreSyncResourceVersion is the resourceVersion of the newest
	// write, Replace or Bookmark.
	LastStoreSyncResourceVersion() string
	ListIndexFuncValues(name string) []string
	ByIndex(indexName, indexedValue string) ([]interface{}, error)
	GetIndexers() Indexers
	// AddIndexers adds index functions and indexes the stored items with
	// them. It fails on a name already in use.
	AddIndexers(newIndexers Indexers) error
	// Resync does nothing; it is here because Store has it.
	Resync() error
}

// threadSafeMap implements ThreadSafeStore with one RWMutex: readers share
// it, and every write, index maintenance included, holds it exclusively.
type threadSafeMap struct {
	lock  sync.RWMutex
	items map[string]interface{}
	index *storeIndex
	// rv is the resourceVersion of the newest write, Replace or Bookmark.
	rv string
}

var _ ThreadSafeStoreWithTransaction = &threadSafeMap{}

// NewThreadSafeStore returns a ThreadSafeStore with the given index
// functions. indices is normally Indices{}; nil is accepted. Unlike
// client-go, the store copies indexers, so a later AddIndexers does not
// write into the caller's map.
func NewThreadSafeStore(indexers Indexers, indices Indices) ThreadSafeStore {
	return &threadSafeMap{
		items: map[string]interface{}{},
		index: newStoreIndex(indexers, indices),
	}
}

func (c *threadSafeMap) Add(key string, obj interface{}) error {
	return c.Update(key, obj)
}

func (c *threadSafeMap) Update(key string, obj interface{}) error {
	rv, rvErr := rvFromObject(obj)
	c.lock.Lock()
	defer c.lock.Unlock()
	if err := c.updateLocked(key, obj); err != nil {
		return err
	}
	// An object without metadata (a custom key function allows that) leaves
	// the resourceVersion where it was.
	if rvErr == nil {
		c.rv = rv
	}
	return nil
}

// updateLocked moves key between buckets and stores obj under it. An add is
// an update whose old object is missing. client-go stores the object first;
// ours stores it only once every index took it, so a failed write changes
// nothing.
func (c *threadSafeMap) updateLocked(key string, obj interface{}) error {
	oldObject := c.items[key]
	if err := c.index.updateIndices(oldObject, obj, key); err != nil {
		return err
	}
	c.items[key] = obj
	return nil
}

func (c *threadSafeMap) Delete(key string) error {
	return c.DeleteWithObject(key, nil)
}

func (c *threadSafeMap) DeleteWithObject(key string, obj interface{}) error {
	var rv string
	var rvErr error
	if obj != nil {
		rv, rvErr = rvFromObject(obj)
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	if err := c.deleteLocked(key); err != nil {
		return err
	}
	// The deleted object's resourceVersion is the version of the deletion:
	// the store has seen it, whether or not it held the key.
	if obj != nil && rvErr == nil {
		c.rv = rv
	}
	return nil
}

func (c *threadSafeMap) deleteLocked(key string) error {
	obj, exists := c.items[key]
	if !exists {
		return nil
	}
	if err := c.index.updateIndices(obj, nil, key); err != nil {
		return err
	}
	delete(c.items, key)
	return nil
}

func (c *threadSafeMap) Get(key string) (item interface{}, exists bool) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	item, exists = c.items[key]
	return item, exists
}

func (c *threadSafeMap) List() []interface{} {
	c.lock.RLock()
	defer c.lock.RUnlock()
	list := make([]interface{}, 0, len(c.items))
	for _, item := range c.items {
		list = append(list, item)
	}
	return list
}

func (c *threadSafeMap) ListKeys() []string {
	c.lock.RLock()
	defer c.lock.RUnlock()
	list := make([]string, 0, len(c.items))
	for key := range c.items {
		list = append(list, key)
	}
	return list
}

func (c *threadSafeMap) Replace(items map[string]interface{}, resourceVersion string) error {
	if items == nil {
		items = map[string]interface{}{}
	}
	c.lock.Lock()
	defer c.lock.Unlock()
	// Rebuild every index from nothing, as client-go does; if an index
	// function fails on one item, put the old indices back and keep the old
	// items, so the store is as it was.
	previous := c.index.indices
	c.index.reset()
	for key, item := range items {
		if err := c.index.updateIndices(nil, item, key); err != nil {
			c.index.indices = previous
			return err
		}
	}
	c.items = items
	c.rv = resourceVersion
	return nil
}

func rvFromObject(obj interface{}) (string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", err
	}
	return m.GetResourceVersion(), nil
}

func (c *threadSafeMap) Index(indexName string, obj interface{}) ([]interface{}, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	keys, err := c.index.getKeysFromIndex(indexName, obj)
	if err != nil {
		return nil, err
	}
	return c.itemsLocked(keys), nil
}

func (c *threadSafeMap) ByIndex(indexName, indexedValue string) ([]interface{}, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	keys, err := c.index.getKeysByIndex(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	return c.itemsLocked(keys), nil
}

// itemsLocked looks up each key. A key whose item is gone yields nil, as in
// client-go: that only happens after a cached object was mutated (see
// ThreadSafeStore), and hiding it would hide the corruption.
func (c *threadSafeMap) itemsLocked(keys sets.Set[string]) []interface{} {
	list := make([]interface{}, 0, keys.Len())
	for key := range keys {
		list = append(list, c.items[key])
	}
	return list
}

func (c *threadSafeMap) IndexKeys(indexName, indexedValue string) ([]string, error) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	keys, err := c.index.getKeysByIndex(indexName, indexedValue)
	if err != nil {
		return nil, err
	}
	return sets.List(keys), nil
}

func (c *threadSafeMap) ListIndexFuncValues(indexName string) []string {
	c.lock.RLock()
	defer c.lock.RUnlock()
	return c.index.getIndexValues(indexName)
}

func (c *threadSafeMap) LastStoreSyncResourceVersion() string {
	c.lock.RLock()
	defer c.lock.RUnlock()
	return c.rv
}

func (c *threadSafeMap) Bookmark(rv string) {
	c.lock.Lock()
	defer c.lock.Unlock()
	c.rv = rv
}

// GetIndexers returns a copy: client-go hands out its own map, unlocked,
// which races with AddIndexers.
func (c *threadSafeMap) GetIndexers() Indexers {
	c.lock.RLock()
	defer c.lock.RUnlock()
	return maps.Clone(c.index.indexers)
}

// AddIndexers is allowed at any time, items or not: client-go v0.37.2 only
// refuses a name already in use. (Until Kubernetes 1.30, kubernetes#117046,
// it refused once the store held items: "cannot add indexers to running
// index".) The new functions then index every stored item; if one fails,
// the new functions and what they indexed are taken out again, so the store
// is as it was.
func (c *threadSafeMap) AddIndexers(newIndexers Indexers) error {
	c.lock.Lock()
	defer c.lock.Unlock()
	if err := c.index.addIndexers(newIndexers); err != nil {
		return err
	}
	names := slices.Sorted(maps.Keys(newIndexers))
	for key, item := range c.items {
		for _, name := range names {
			if err := c.index.updateSingleIndex(name, nil, item, key); err != nil {
				c.index.removeIndexers(names)
				return err
			}
		}
	}
	return nil
}

func (c *threadSafeMap) Resync() error {
	return nil
}
