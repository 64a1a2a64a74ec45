// Package observe watches a stage 06 informer from outside and turns each
// step of each object through its layers into an Observation: what the
// reflector calls on the queue, what the queue hands processLoop, each write
// to the cache, each notification handed to the processor (and each object
// replayed to a handler added late), and each handler's call. The demo's
// timeline, the live view and the chaos report read them.
//
// It wraps the informer's parts through the seams the informer offers
// (informer.Seams: the queue, the cache as processLoop writes it, the
// informer as processDeltas notifies it, each handler, and the replay), so
// the informer's own code says nothing about being watched. Not a mirror of
// client-go, which is watched through its metrics and logs.
package observe

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"

	reflector "informer-from-scratch/02-reflector"
	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
	processor "informer-from-scratch/05-processor"
	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/internal/nilpointer"
)

// Seams returns the seams that make an informer's every step an
// Observation for observe: give them to
// SharedIndexInformerOptions.Seams (or InformerOptions.Seams).
func Seams(observe Observer) informer.Seams {
	if observe == nil {
		return informer.Seams{}
	}
	return informer.Seams{
		Queue: func(q informer.Queue) informer.Queue { return &observedQueue{inner: q, observe: observe} },
		Store: func(s informer.Store) informer.Store { return observeStore(s, observe) },
		Notifier: func(h informer.ResourceEventHandler) informer.ResourceEventHandler {
			return &observedNotifier{inner: h, observe: observe}
		},
		Handler: func(h informer.ResourceEventHandler, name string) informer.ResourceEventHandler {
			return observeHandler(h, name, observe)
		},
		Replay: func(h informer.ResourceEventHandler, name string, obj any) {
			o := observeObject(LayerProcessor, "replay", obj)
			o.Handler, o.InitialList = handlerName(h, name), true
			observe(o)
		},
	}
}

// Layer names the stage an Observation comes from.
type Layer string

// The layers, in the order an object passes through them.
const (
	// LayerReflector: a call the reflector (stage 02) made on the queue.
	// Op is the call: Add, Update, Delete, Replace, Resync or Bookmark.
	LayerReflector Layer = "reflector"
	// LayerQueue: an item the queue (stage 03) handed to processLoop. Op is
	// the newest delta's type (Added, Updated, Deleted, Replaced, Sync,
	// ReplacedAll, SyncAll, Bookmark); Detail lists every delta of the item
	// when a DeltaFIFO coalesced several, or the batch it came in.
	LayerQueue Layer = "queue"
	// LayerIndexer: a write to the informer's cache (stage 04). Op is Add,
	// Update, Delete, Replace or Bookmark.
	LayerIndexer Layer = "indexer"
	// LayerProcessor: a notification handed to the processor (stage 05). Op
	// is add, update or delete, sent to every handler (Sync false) or only to
	// those whose resync is due (Sync true); or replay, a cached object
	// replayed to one handler added late (Handler names it).
	LayerProcessor Layer = "processor"
	// LayerHandler: a handler's method is about to be called. Op is OnAdd,
	// OnUpdate or OnDelete; Handler names the handler.
	LayerHandler Layer = "handler"
)

// Observation is one step of one object (or one list) through an informer.
type Observation struct {
	Layer Layer
	Op    string
	// Key is the object's key ("namespace/name"), or "" for a step about
	// many objects (Replace, Resync, ReplacedAll, SyncAll, Bookmark).
	Key string
	// ResourceVersion is the object's (the new one's, for an update), or
	// the list's or bookmark's.
	ResourceVersion string
	// Detail says more, for a person: the old resourceVersion of an
	// update, the size of a list, "tombstone" for a deletion noticed only
	// at a relist, the deltas of a coalesced item.
	Detail string
	// InitialList is isInInitialList for pops and adds.
	InitialList bool
	// Sync marks an update whose old and new resourceVersion are equal
	// (a resync, or an object a relist found unchanged).
	Sync bool
	// Handler names the handler, for LayerHandler and replays: the
	// HandlerOptions.Name it was added with, or its Go type.
	Handler string
	// Object is the object itself, shared with the cache: read it, never
	// change it. Nil for steps about many objects.
	Object any
	// Err is set when the step failed (the queue or the cache refused it).
	Err error
}

// Observer receives every Observation, synchronously, on the informer's own
// goroutines (the reflector's, processLoop, each handler's): it must return
// quickly, must not block, must not call back into the informer, and must
// not modify Object. A slow Observer slows the informer exactly as a slow
// handler called in line would.
type Observer func(Observation)

// describe returns an object's key and resourceVersion as a step reports
// them; a tombstone reports its own key and its object's last version.
func describe(obj any) (key, rv string, tombstone bool) {
	if d, ok := obj.(deltafifo.DeletedFinalStateUnknown); ok {
		_, rv, _ = describe(d.Obj)
		return d.Key, rv, true
	}
	key, _ = deltafifo.DeletionHandlingMetaNamespaceKeyFunc(obj)
	if m, err := meta.Accessor(obj); err == nil && !nilpointer.Is(m) {
		rv = m.GetResourceVersion()
	}
	return key, rv, false
}

// handlerName is a handler's HandlerOptions.Name, or its Go type.
func handlerName(h informer.ResourceEventHandler, name string) string {
	if name == "" {
		return fmt.Sprintf("%T", h)
	}
	return name
}

// observeObject makes the Observation of a step about one object.
func observeObject(layer Layer, op string, obj any) Observation {
	key, rv, tombstone := describe(obj)
	o := Observation{Layer: layer, Op: op, Key: key, ResourceVersion: rv, Object: obj}
	if tombstone {
		o.Detail = "tombstone"
	}
	return o
}

// observedQueue wraps the informer's queue so that the reflector's calls
// (LayerReflector) and what processLoop pops (LayerQueue) are observed. It
// always offers PopBatch, falling back to Pop when the queue it wraps has no
// batches, which is what processLoop would do without the wrapper.
type observedQueue struct {
	inner   informer.Queue
	observe Observer
}

var (
	_ informer.QueueWithBatch = &observedQueue{}
	// Like the queues it wraps, it tells the reflector its transform, so
	// that a WatchList stream's objects are transformed as they arrive.
	_ reflector.TransformingStore = &observedQueue{}
)

func (q *observedQueue) write(op string, obj any, call func(any) error) error {
	o := observeObject(LayerReflector, op, obj)
	q.observe(o)
	if err := call(obj); err != nil {
		o.Err = err
		q.observe(o)
		return err
	}
	return nil
}

func (q *observedQueue) Add(obj any) error    { return q.write("Add", obj, q.inner.Add) }
func (q *observedQueue) Update(obj any) error { return q.write("Update", obj, q.inner.Update) }
func (q *observedQueue) Delete(obj any) error { return q.write("Delete", obj, q.inner.Delete) }

func (q *observedQueue) Replace(list []any, resourceVersion string) error {
	o := Observation{Layer: LayerReflector, Op: "Replace", ResourceVersion: resourceVersion, Detail: fmt.Sprintf("%d objects", len(list))}
	q.observe(o)
	if err := q.inner.Replace(list, resourceVersion); err != nil {
		o.Err = err
		q.observe(o)
		return err
	}
	return nil
}

func (q *observedQueue) Resync() error {
	q.observe(Observation{Layer: LayerReflector, Op: "Resync"})
	return q.inner.Resync()
}

// Bookmark passes a watch bookmark on to a queue that takes them (a
// RealFIFO). The reflector calls it for every bookmark whatever the queue,
// since the wrapper has the method (stage 02's handleWatch calls Bookmark on
// any store that has it); a DeltaFIFO has none, so for one the wrapper does
// what the reflector does for a store without it: nothing, and no error. It
// reports nothing either, so the timeline shows bookmarks only where the
// queue takes them.
func (q *observedQueue) Bookmark(resourceVersion string) error {
	bs, ok := q.inner.(interface{ Bookmark(string) error })
	if !ok {
		return nil
	}
	q.observe(Observation{Layer: LayerReflector, Op: "Bookmark", ResourceVersion: resourceVersion})
	return bs.Bookmark(resourceVersion)
}

// Transformer is the wrapped queue's, so a reflector that asks its store
// for one gets the same answer through the wrapper.
func (q *observedQueue) Transformer() informer.TransformFunc {
	if t, ok := q.inner.(interface{ Transformer() informer.TransformFunc }); ok {
		return t.Transformer()
	}
	return nil
}

func (q *observedQueue) Pop(process informer.PopProcessFunc) (any, error) {
	return q.inner.Pop(q.observePop(process, ""))
}

func (q *observedQueue) PopBatch(processBatch informer.ProcessBatchFunc, processSingle informer.PopProcessFunc) error {
	batchQueue, ok := q.inner.(informer.QueueWithBatch)
	if !ok {
		_, err := q.inner.Pop(q.observePop(processSingle, ""))
		return err
	}
	return batchQueue.PopBatch(func(deltas []informer.Delta, isInInitialList bool) error {
		detail := fmt.Sprintf("in a batch of %d", len(deltas))
		for _, d := range deltas {
			q.observePopped(informer.Deltas{d}, isInInitialList, detail)
		}
		return processBatch(deltas, isInInitialList)
	}, q.observePop(processSingle, ""))
}

func (q *observedQueue) observePop(process informer.PopProcessFunc, detail string) informer.PopProcessFunc {
	return func(obj any, isInInitialList bool) error {
		if deltas, ok := obj.(informer.Deltas); ok {
			q.observePopped(deltas, isInInitialList, detail)
		}
		return process(obj, isInInitialList)
	}
}

// observePopped reports one popped item: its newest delta, and every delta
// when there are several (a DeltaFIFO's coalesced changes).
func (q *observedQueue) observePopped(deltas informer.Deltas, isInInitialList bool, detail string) {
	newest := deltas.Newest()
	if newest == nil {
		return
	}
	o := q.observeDelta(*newest)
	o.InitialList = isInInitialList
	if len(deltas) > 1 {
		parts := make([]string, len(deltas))
		for i, d := range deltas {
			_, rv, _ := describe(d.Object)
			parts[i] = string(d.Type) + "@" + rv
		}
		o.Detail = strings.Join(parts, " ")
	}
	if detail != "" {
		o.Detail = strings.TrimSpace(o.Detail + " " + detail)
	}
	q.observe(o)
}

func (q *observedQueue) observeDelta(d informer.Delta) Observation {
	switch info := d.Object.(type) {
	case deltafifo.ReplacedAllInfo:
		return Observation{Layer: LayerQueue, Op: string(d.Type), ResourceVersion: info.ResourceVersion, Detail: fmt.Sprintf("%d objects", len(info.Objects))}
	case deltafifo.SyncAllInfo:
		return Observation{Layer: LayerQueue, Op: string(d.Type)}
	case deltafifo.BookmarkInfo:
		return Observation{Layer: LayerQueue, Op: string(d.Type), ResourceVersion: info.ResourceVersion}
	}
	return observeObject(LayerQueue, string(d.Type), d.Object)
}

func (q *observedQueue) HasSynced() bool                        { return q.inner.HasSynced() }
func (q *observedQueue) HasSyncedChecker() informer.DoneChecker { return q.inner.HasSyncedChecker() }
func (q *observedQueue) Close()                                 { q.inner.Close() }

// observedStore wraps the cache on processLoop's side only (GetStore and
// GetIndexer return the cache itself), so that its writes are observed
// (LayerIndexer). It is a TransactionStore exactly when the cache is one,
// because processDeltasInBatch behaves differently for each.
type observedStore struct {
	indexer.Store
	observe Observer
}

type observedTransactionStore struct {
	observedStore
	txn indexer.TransactionStore
}

func observeStore(s informer.Store, observe Observer) informer.Store {
	o := observedStore{Store: s, observe: observe}
	if txn, ok := s.(indexer.TransactionStore); ok {
		return &observedTransactionStore{observedStore: o, txn: txn}
	}
	return &o
}

func (s *observedStore) write(op string, obj any, call func(any) error) error {
	err := call(obj)
	o := observeObject(LayerIndexer, op, obj)
	o.Err = err
	s.observe(o)
	return err
}

func (s *observedStore) Add(obj any) error    { return s.write("Add", obj, s.Store.Add) }
func (s *observedStore) Update(obj any) error { return s.write("Update", obj, s.Store.Update) }
func (s *observedStore) Delete(obj any) error { return s.write("Delete", obj, s.Store.Delete) }

func (s *observedStore) Replace(list []any, resourceVersion string) error {
	err := s.Store.Replace(list, resourceVersion)
	s.observe(Observation{Layer: LayerIndexer, Op: "Replace", ResourceVersion: resourceVersion, Detail: fmt.Sprintf("%d objects", len(list)), Err: err})
	return err
}

func (s *observedStore) Bookmark(resourceVersion string) {
	s.Store.Bookmark(resourceVersion)
	s.observe(Observation{Layer: LayerIndexer, Op: "Bookmark", ResourceVersion: resourceVersion})
}

func (s *observedTransactionStore) Transaction(txns ...indexer.Transaction) *indexer.TransactionError {
	err := s.txn.Transaction(txns...)
	failed := map[int]bool{}
	if err != nil {
		for i := range txns {
			failed[i] = true
		}
		for _, i := range err.SuccessfulIndices {
			failed[i] = false
		}
	}
	for i, t := range txns {
		o := observeObject(LayerIndexer, string(t.Type), t.Object)
		o.Detail = strings.TrimSpace(o.Detail + fmt.Sprintf(" in a transaction of %d", len(txns)))
		if failed[i] {
			o.Err = err
		}
		s.observe(o)
	}
	return err
}

// observedHandler reports each call before making it (LayerHandler).
type observedHandler struct {
	name    string
	inner   processor.ResourceEventHandler
	observe Observer
}

// observeHandler wraps h (the informer passes no nil handler here: the
// listener's constructor has refused it with its own error).
func observeHandler(h processor.ResourceEventHandler, name string, observe Observer) processor.ResourceEventHandler {
	return &observedHandler{name: handlerName(h, name), inner: h, observe: observe}
}

func (h *observedHandler) OnAdd(obj any, isInInitialList bool) {
	o := observeObject(LayerHandler, "OnAdd", obj)
	o.Handler, o.InitialList = h.name, isInInitialList
	h.observe(o)
	h.inner.OnAdd(obj, isInInitialList)
}

func (h *observedHandler) OnUpdate(oldObj, newObj any) {
	o := observeUpdate(LayerHandler, "OnUpdate", oldObj, newObj)
	o.Handler = h.name
	h.observe(o)
	h.inner.OnUpdate(oldObj, newObj)
}

func (h *observedHandler) OnDelete(obj any) {
	o := observeObject(LayerHandler, "OnDelete", obj)
	o.Handler = h.name
	h.observe(o)
	h.inner.OnDelete(obj)
}

// observeUpdate describes an update: the new object, with the old
// resourceVersion in Detail and Sync set when the two are equal.
func observeUpdate(layer Layer, op string, oldObj, newObj any) Observation {
	o := observeObject(layer, op, newObj)
	_, oldRV, _ := describe(oldObj)
	o.Sync = oldRV == o.ResourceVersion
	o.Detail = "from rv " + oldRV
	return o
}

// observedNotifier reports each notification the informer hands its
// processor (LayerProcessor), before handing it on.
type observedNotifier struct {
	inner   informer.ResourceEventHandler
	observe Observer
}

func (n *observedNotifier) OnAdd(obj any, isInInitialList bool) {
	o := observeObject(LayerProcessor, "add", obj)
	o.InitialList = isInInitialList
	n.observe(o)
	n.inner.OnAdd(obj, isInInitialList)
}

func (n *observedNotifier) OnUpdate(oldObj, newObj any) {
	n.observe(observeUpdate(LayerProcessor, "update", oldObj, newObj))
	n.inner.OnUpdate(oldObj, newObj)
}

func (n *observedNotifier) OnDelete(obj any) {
	n.observe(observeObject(LayerProcessor, "delete", obj))
	n.inner.OnDelete(obj)
}
