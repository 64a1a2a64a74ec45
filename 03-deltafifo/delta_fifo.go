// Mirrors k8s.io/client-go v0.37.2 tools/cache/delta_fifo.go: DeltaFIFOOptions,
// DeltaFIFO, NewDeltaFIFOWithOptions, KeyOf, Add, Update, Delete,
// queueActionLocked, Pop, HasSynced, Close.

package deltafifo

import (
	"sync"
)

// DeltaFIFOOptions configures a DeltaFIFO. Every field is optional.
type DeltaFIFOOptions struct {
	// Name is what HasSyncedChecker().Name() says; "DeltaFIFO" by default.
	Name string

	// KeyFunction makes the key deltas are grouped under;
	// MetaNamespaceKeyFunc by default.
	KeyFunction KeyFunc

	// KnownObjects is the consumer's store (the informer's Indexer). Without
	// it the queue cannot notice, on a relist, objects that were deleted
	// while the watch was down; Delete and Resync also consult it.
	KnownObjects KeyListerGetter

	// EmitDeltaTypeReplaced makes Replace emit Replaced deltas. Without it
	// Replace emits Sync, like a resync does, for compatibility with
	// consumers older than the Replaced type. Informers always set it.
	EmitDeltaTypeReplaced bool

	// Transformer, if set, rewrites each object before it is queued.
	Transformer TransformFunc
}

// DeltaFIFO is the classic queue between a Reflector and an informer: a FIFO
// of keys, where each key holds every change (a Deltas) that happened to its
// object since the consumer last popped it.
//
// What a consumer may rely on:
//   - Pop hands out one key at a time with all its Deltas, oldest first. A
//     key is queued once, where its first pending change arrived; later
//     changes to the same object join it there instead of queueing again.
//     So changes to ONE object keep their order, but changes to DIFFERENT
//     objects do not: an update that arrived last is handed out first if
//     its key was already waiting. (RealFIFO exists to fix that.)
//   - Two deletions in a row of one object become one (dedupDeltas).
//   - Replace (a relist) queues every listed object (Replaced, or Sync), and
//     a Deleted with a DeletedFinalStateUnknown tombstone for every object
//     it knew of (queued, or in KnownObjects) that the list no longer has.
//   - Resync queues a Sync for every object in KnownObjects whose key is not
//     queued already: a queued change is newer than what the store holds.
//   - Pop calls process under the queue's lock, so process may update the
//     KnownObjects store without racing Replace, Delete or Resync, which
//     read it. The price: the Reflector cannot queue while process runs.
//
// Its Pop, like client-go's, returns a Deltas as an interface{}.
type DeltaFIFO struct {
	name string

	// lock guards everything below; cond wakes Pop when a key is queued or
	// the queue is closed. Every method takes it for writing; it is a
	// RWMutex, as client-go's is, so that read-only inspection (client-go's
	// own test helpers, run against ours by proving-ground/conformance) can share it.
	lock sync.RWMutex
	cond sync.Cond

	// items maps each queued key to its Deltas (never empty); queue is the
	// order of the keys, without duplicates. A key is in one iff in the other.
	items map[string]Deltas
	queue []string

	initial initialSync

	keyFunc      KeyFunc
	knownObjects KeyListerGetter
	closed       bool

	// emitDeltaTypeReplaced: Replace emits Replaced (true) or Sync (false).
	emitDeltaTypeReplaced bool
	transformer           TransformFunc
}

var (
	_ Queue       = &DeltaFIFO{}
	_ DoneChecker = &DeltaFIFO{}
)

// NewDeltaFIFOWithOptions returns an empty DeltaFIFO.
func NewDeltaFIFOWithOptions(opts DeltaFIFOOptions) *DeltaFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = MetaNamespaceKeyFunc
	}
	f := &DeltaFIFO{
		name:                  "DeltaFIFO",
		items:                 map[string]Deltas{},
		queue:                 []string{},
		initial:               newInitialSync(),
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		emitDeltaTypeReplaced: opts.EmitDeltaTypeReplaced,
		transformer:           opts.Transformer,
	}
	if opts.Name != "" {
		f.name = opts.Name
	}
	f.cond.L = &f.lock
	return f
}

// KeyOf is the key function, taught two extra cases: a Deltas has the key of
// its newest object, and a tombstone carries its key with it (its Obj may be
// nil, or stale, so the key cannot be taken from it).
func (f *DeltaFIFO) KeyOf(obj interface{}) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", KeyError{obj, ErrZeroLengthDeltasObject}
		}
		obj = d.Newest().Object
	}
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return f.keyFunc(obj)
}

// Transformer returns the TransformFunc the queue applies; a Reflector uses
// it on objects it buffers itself (client-go's TransformingStore).
func (f *DeltaFIFO) Transformer() TransformFunc { return f.transformer }

// Add queues an Added delta: a watch ADDED event.
func (f *DeltaFIFO) Add(obj interface{}) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.initial.sawEvent()
	return f.queueActionLocked(Added, obj)
}

// Update queues an Updated delta: a watch MODIFIED event.
func (f *DeltaFIFO) Update(obj interface{}) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.initial.sawEvent()
	return f.queueActionLocked(Updated, obj)
}

// Delete queues a Deleted delta: a watch DELETED event. It is dropped when
// neither the queue nor KnownObjects knows the object: then a relist has
// already reported the deletion (as a tombstone), and a second report would
// tell handlers about an object they never saw.
func (f *DeltaFIFO) Delete(obj interface{}) error {
	id, err := f.KeyOf(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.initial.sawEvent()
	_, queued := f.items[id]
	if f.knownObjects == nil {
		if !queued {
			return nil
		}
	} else {
		_, known, err := f.knownObjects.GetByKey(id)
		// A lookup error keeps the deletion: better twice than never.
		if err == nil && !known && !queued {
			return nil
		}
	}
	return f.queueActionLocked(Deleted, obj)
}

// queueActionLocked appends a delta of type actionType to obj's key.
func (f *DeltaFIFO) queueActionLocked(actionType DeltaType, obj interface{}) error {
	return f.queueActionInternalLocked(actionType, actionType, obj)
}

// queueActionInternalLocked appends a delta of type actionType; internalType
// is the type the delta stands for (Replaced, even when emitted as Sync), and
// decides whether the object still needs transforming: a Sync's object comes
// from the consumer's store and was transformed when it was first queued.
func (f *DeltaFIFO) queueActionInternalLocked(actionType, internalType DeltaType, obj interface{}) error {
	id, err := f.KeyOf(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	if f.transformer != nil {
		if _, isTombstone := obj.(DeletedFinalStateUnknown); !isTombstone && internalType != Sync {
			if obj, err = f.transformer(obj); err != nil {
				return err
			}
		}
	}

	deltas, queued := f.items[id]
	// dedupDeltas never empties a non-empty list, so the key always keeps
	// at least one delta (client-go checks "impossible" cases here; we
	// cannot reach them).
	f.items[id] = dedupDeltas(append(deltas, Delta{actionType, obj}))
	if !queued {
		f.queue = append(f.queue, id)
	}
	f.cond.Broadcast()
	return nil
}

// Pop waits for a queued key, removes it with its Deltas and calls process
// with them, under the queue's lock. It returns the Deltas and process's
// error. A failed item is not requeued: client-go's Queue no longer has
// AddIfNotPresent, and the informer never retried. A closed queue still
// hands out what it holds; Pop returns ErrFIFOClosed once it is empty.
//
//lab:03
func (f *DeltaFIFO) Pop(process PopProcessFunc) (interface{}, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for len(f.queue) == 0 {
		if f.closed {
			return nil, ErrFIFOClosed
		}
		f.cond.Wait()
	}
	isInInitialList := !f.initial.hasSynced()
	id := f.queue[0]
	f.queue = f.queue[1:]
	// Unlike RealFIFO, DeltaFIFO counts the item as delivered before process
	// runs: HasSynced may turn true while the last initial item is processed.
	f.initial.popped(1)
	item := f.items[id]
	delete(f.items, id)
	return item, process(item, isInInitialList)
}

// HasSynced reports whether the first Replace's items have all been popped
// (or a write came first).
func (f *DeltaFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.initial.hasSynced()
}

// HasSyncedChecker returns the queue itself: Done is closed when HasSynced
// turns true.
func (f *DeltaFIFO) HasSyncedChecker() DoneChecker { return f }

// Name names the queue for whoever waits on HasSyncedChecker.
func (f *DeltaFIFO) Name() string { return f.name }

// Done is closed once HasSynced is true.
func (f *DeltaFIFO) Done() <-chan struct{} { return f.initial.synced }

// Close wakes any blocked Pop; see Queue.Close.
func (f *DeltaFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (f *DeltaFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}
