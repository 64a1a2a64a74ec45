// Mirrors k8s.io/client-go v0.37.2 tools/cache/store.go: Store, cache (Add,
// Update, Delete, List, ListKeys, Get, GetByKey, Replace, Resync, Bookmark,
// LastStoreSyncResourceVersion), NewStore, NewIndexer. The key functions
// (KeyFunc, KeyError, MetaNamespaceKeyFunc, ExplicitKey) come from stage 03.

package indexer

import (
	deltafifo "informer-from-scratch/03-deltafifo"
)

// Store is a keyed set of objects: the shape every layer that holds objects
// shares. A Reflector writes into one (Add, Update, Delete, Replace), a
// DeltaFIFO reads one as its KnownObjects (ListKeys, GetByKey), and a
// lister reads one to answer without asking the server.
//
// A Store knows how to key an object (its KeyFunc), so most calls take the
// object alone. In the simplest Store, which NewStore returns, each key
// holds the last object given, and nothing after Delete.
type Store interface {
	// Add files obj under its key, replacing what was there.
	Add(obj interface{}) error
	// Update is Add: the store does not care whether the key existed.
	Update(obj interface{}) error
	// Delete removes whatever is filed under obj's key. obj may be an
	// ExplicitKey or, with DeletionHandlingMetaNamespaceKeyFunc, a
	// DeletedFinalStateUnknown tombstone.
	Delete(obj interface{}) error
	// List returns every stored object, in no particular order.
	List() []interface{}
	// ListKeys returns every key, in no particular order.
	ListKeys() []string
	// LastStoreSyncResourceVersion is the resourceVersion of the newest
	// object written or deleted, or of the last Replace or Bookmark.
	LastStoreSyncResourceVersion() string
	// Bookmark records rv as the newest resourceVersion seen, for a watch
	// BOOKMARK that carries no object change.
	Bookmark(rv string)
	// Get returns the object filed under obj's key.
	Get(obj interface{}) (item interface{}, exists bool, err error)
	// GetByKey returns the object filed under key.
	GetByKey(key string) (item interface{}, exists bool, err error)
	// Replace empties the store and fills it with list, a fresh LIST's
	// items, taken at resourceVersion. The store owns list afterwards.
	Replace(list []interface{}, resourceVersion string) error
	// Resync does nothing here; it means something to queues (DeltaFIFO).
	Resync() error
}

// cache implements Indexer (and so Store) with a ThreadSafeStore and a
// KeyFunc: it keys objects, then leaves locking and indexing to the
// ThreadSafeStore.
type cache struct {
	// cacheStorage bears the burden of thread safety.
	cacheStorage ThreadSafeStoreWithTransaction
	// keyFunc makes the keys; it must be deterministic.
	keyFunc deltafifo.KeyFunc
}

var (
	_ Store            = &cache{}
	_ Indexer          = &cache{}
	_ TransactionStore = &cache{}
)

// NewStore returns a Store implemented with a map and a lock.
func NewStore(keyFunc deltafifo.KeyFunc) Store {
	return newCache(keyFunc, Indexers{})
}

// NewIndexer returns an Indexer implemented with a map and a lock, indexing
// with indexers. Informers use DeletionHandlingMetaNamespaceKeyFunc and
// Indexers{NamespaceIndex: MetaNamespaceIndexFunc}.
func NewIndexer(keyFunc deltafifo.KeyFunc, indexers Indexers) Indexer {
	return newCache(keyFunc, indexers)
}

func newCache(keyFunc deltafifo.KeyFunc, indexers Indexers) *cache {
	return &cache{
		cacheStorage: NewThreadSafeStore(indexers, Indices{}).(*threadSafeMap),
		keyFunc:      keyFunc,
	}
}

// key runs the KeyFunc, wrapping a failure in a KeyError that names the
// object: an object without metadata ends up here.
func (c *cache) key(obj interface{}) (string, error) {
	key, err := c.keyFunc(obj)
	if err != nil {
		return "", deltafifo.KeyError{Obj: obj, Err: err}
	}
	return key, nil
}

func (c *cache) Add(obj interface{}) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	return c.cacheStorage.Add(key, obj)
}

func (c *cache) Update(obj interface{}) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	return c.cacheStorage.Update(key, obj)
}

// Delete passes obj along so the store can record its resourceVersion: a
// deletion is a change the store has seen.
func (c *cache) Delete(obj interface{}) error {
	key, err := c.key(obj)
	if err != nil {
		return err
	}
	return c.cacheStorage.DeleteWithObject(key, obj)
}

func (c *cache) List() []interface{} { return c.cacheStorage.List() }

func (c *cache) ListKeys() []string { return c.cacheStorage.ListKeys() }

func (c *cache) LastStoreSyncResourceVersion() string {
	return c.cacheStorage.LastStoreSyncResourceVersion()
}

func (c *cache) Bookmark(rv string) { c.cacheStorage.Bookmark(rv) }

func (c *cache) GetIndexers() Indexers { return c.cacheStorage.GetIndexers() }

func (c *cache) Index(indexName string, obj interface{}) ([]interface{}, error) {
	return c.cacheStorage.Index(indexName, obj)
}

func (c *cache) IndexKeys(indexName, indexedValue string) ([]string, error) {
	return c.cacheStorage.IndexKeys(indexName, indexedValue)
}

func (c *cache) ListIndexFuncValues(indexName string) []string {
	return c.cacheStorage.ListIndexFuncValues(indexName)
}

func (c *cache) ByIndex(indexName, indexedValue string) ([]interface{}, error) {
	return c.cacheStorage.ByIndex(indexName, indexedValue)
}

func (c *cache) AddIndexers(newIndexers Indexers) error {
	return c.cacheStorage.AddIndexers(newIndexers)
}

func (c *cache) Get(obj interface{}) (item interface{}, exists bool, err error) {
	key, err := c.key(obj)
	if err != nil {
		return nil, false, err
	}
	return c.GetByKey(key)
}

// GetByKey never fails: the error is there for Store implementations that
// fetch from somewhere that can.
func (c *cache) GetByKey(key string) (item interface{}, exists bool, err error) {
	item, exists = c.cacheStorage.Get(key)
	return item, exists, nil
}

// Replace keys every object first: one object without a key fails the whole
// Replace, and the store keeps its old contents.
func (c *cache) Replace(list []interface{}, resourceVersion string) error {
	items := make(map[string]interface{}, len(list))
	for _, item := range list {
		key, err := c.key(item)
		if err != nil {
			return err
		}
		items[key] = item
	}
	return c.cacheStorage.Replace(items, resourceVersion)
}

func (c *cache) Resync() error { return nil }
