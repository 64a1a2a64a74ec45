// Mirrors k8s.io/client-go v0.37.2 tools/cache/the_real_fifo.go: RealFIFOOptions,
// RealFIFO, NewRealFIFOWithOptions, Add, Update, Delete, Bookmark, Pop,
// PopBatch, whileProcessing_locked.

package deltafifo

import (
	"sync"
)

// RealFIFOOptions configures a RealFIFO. The informer in client-go v0.37
// uses AtomicEvents, EmitDeltaTypeBookmark and UnlockWhileProcessing, all on.
type RealFIFOOptions struct {
	// Name is what HasSyncedChecker().Name() says; "RealFIFO" by default.
	Name string

	// KeyFunction makes the keys; MetaNamespaceKeyFunc by default. A
	// RealFIFO does not group by key, but it still needs keys to find
	// deletions on Replace, skip queued keys on Resync and build batches.
	KeyFunction KeyFunc

	// KnownObjects is the consumer's store. It is required without
	// AtomicEvents (Replace and Resync consult it) and forbidden with them
	// (the consumer does that work itself).
	KnownObjects KeyListerGetter

	// Transformer, if set, rewrites each object before it is queued.
	Transformer TransformFunc

	// AtomicEvents makes Replace queue ONE ReplacedAll item holding the
	// whole list, and Resync ONE SyncAll item, instead of one item per
	// object. The consumer then swaps its store in one step.
	AtomicEvents bool

	// UnlockWhileProcessing lets Pop release the lock while process runs,
	// so the Reflector keeps queueing during slow handlers. Needs
	// AtomicEvents: only then does the queue never read the consumer's store,
	// which process may be changing.
	UnlockWhileProcessing bool

	// EmitDeltaTypeBookmark makes Bookmark queue Bookmark deltas. Needs
	// AtomicEvents, so that a bookmark cannot overtake the items of a
	// Replace or Resync.
	EmitDeltaTypeBookmark bool
}

// defaultBatchSize caps how many items one PopBatch hands out.
const defaultBatchSize = 1000

// RealFIFO is a queue of events in the order they arrived, one item per
// event: nothing is merged per key, and an item is handed out even if its
// object has since been deleted. A consumer that applies the items one by
// one goes through the same sequence of states the server did. With
// AtomicEvents a relist is a single item too, which the consumer applies to
// its store in one step: no handler runs while the store holds half of the
// old list and half of the new. (Nothing else could get between a relist's
// items either way: Replace queues them all under one lock.)
//
// Pop hands each item out as a Deltas of one Delta, so code written for a
// DeltaFIFO's Pop keeps working.
type RealFIFO struct {
	name string

	// lock is a RWMutex for the same reason as DeltaFIFO's.
	lock sync.RWMutex
	cond sync.Cond

	// items is the queue itself, oldest first.
	items []Delta

	initial initialSync

	keyFunc      KeyFunc
	knownObjects KeyListerGetter // nil with AtomicEvents
	closed       bool
	transformer  TransformFunc

	// batchSize caps a PopBatch (and, doubled, the queue length under which
	// the lock is released while processing).
	batchSize int

	emitAtomicEvents      bool
	unlockWhileProcessing bool
	emitDeltaTypeBookmark bool
}

var (
	_ QueueWithBatch = &RealFIFO{}
	_ DoneChecker    = &RealFIFO{}
)

// NewRealFIFOWithOptions returns an empty RealFIFO. Like client-go it panics
// on a contradictory configuration (a coding error, not bad input): see the
// RealFIFOOptions fields for which options need which.
func NewRealFIFOWithOptions(opts RealFIFOOptions) *RealFIFO {
	if opts.KeyFunction == nil {
		opts.KeyFunction = MetaNamespaceKeyFunc
	}
	if err := opts.validate(); err != nil {
		panic(err.Error())
	}
	f := &RealFIFO{
		name:                  "RealFIFO",
		items:                 make([]Delta, 0, 10),
		initial:               newInitialSync(),
		keyFunc:               opts.KeyFunction,
		knownObjects:          opts.KnownObjects,
		transformer:           opts.Transformer,
		batchSize:             defaultBatchSize,
		emitAtomicEvents:      opts.AtomicEvents,
		unlockWhileProcessing: opts.UnlockWhileProcessing,
		emitDeltaTypeBookmark: opts.EmitDeltaTypeBookmark,
	}
	if opts.Name != "" {
		f.name = opts.Name
	}
	f.cond.L = &f.lock
	return f
}

// keyOf is the key function, taught that a Deltas has the key of its newest
// object, a Delta that of its object, and a tombstone carries its own.
func (f *RealFIFO) keyOf(obj interface{}) (string, error) {
	if d, ok := obj.(Deltas); ok {
		if len(d) == 0 {
			return "", KeyError{obj, ErrZeroLengthDeltasObject}
		}
		obj = d.Newest().Object
	}
	if d, ok := obj.(Delta); ok {
		obj = d.Object
	}
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return f.keyFunc(obj)
}

// Transformer returns the TransformFunc the queue applies.
func (f *RealFIFO) Transformer() TransformFunc { return f.transformer }

// Add queues an Added item.
func (f *RealFIFO) Add(obj interface{}) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.initial.sawEvent()
	return f.addToItemsLocked(Added, false, obj)
}

// Update queues an Updated item.
func (f *RealFIFO) Update(obj interface{}) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.initial.sawEvent()
	return f.addToItemsLocked(Updated, false, obj)
}

// Delete queues a Deleted item, always: unlike DeltaFIFO.Delete it does not
// look for the object first (the consumer's store ignores unknown keys).
func (f *RealFIFO) Delete(obj interface{}) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.initial.sawEvent()
	return f.addToItemsLocked(Deleted, false, obj)
}

// Bookmark queues a Bookmark item carrying resourceVersion, in line with the
// events around it, when EmitDeltaTypeBookmark is set; otherwise it does
// nothing. It does not count as a write for HasSynced.
func (f *RealFIFO) Bookmark(resourceVersion string) error {
	if !f.emitDeltaTypeBookmark {
		return nil
	}
	f.lock.Lock()
	defer f.lock.Unlock()
	f.appendLocked(Delta{Type: Bookmark, Object: BookmarkInfo{ResourceVersion: resourceVersion}})
	return nil
}

// addToItemsLocked appends one item. The object must have a key (so that
// Replace and Resync can reason about it later); it is transformed unless it
// is a tombstone or skipTransform says it came from the consumer's store.
func (f *RealFIFO) addToItemsLocked(t DeltaType, skipTransform bool, obj interface{}) error {
	if _, err := f.keyOf(obj); err != nil {
		return KeyError{obj, err}
	}
	if f.transformer != nil && !skipTransform {
		if _, isTombstone := obj.(DeletedFinalStateUnknown); !isTombstone {
			var err error
			if obj, err = f.transformer(obj); err != nil {
				return err
			}
		}
	}
	f.appendLocked(Delta{Type: t, Object: obj})
	return nil
}

func (f *RealFIFO) appendLocked(d Delta) {
	f.items = append(f.items, d)
	f.cond.Broadcast()
}

// waitLocked blocks until there is an item, or returns ErrFIFOClosed when the
// queue is closed and empty.
func (f *RealFIFO) waitLocked() error {
	for len(f.items) == 0 {
		if f.closed {
			return ErrFIFOClosed
		}
		f.cond.Wait()
	}
	return nil
}

// Pop waits for an item, removes the oldest and calls process with it as a
// one-Delta Deltas. The item counts as delivered for HasSynced only after
// process returns, so HasSynced never turns true while the last initial item
// is still being processed.
func (f *RealFIFO) Pop(process PopProcessFunc) (interface{}, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	if err := f.waitLocked(); err != nil {
		return nil, err
	}
	isInInitialList := !f.initial.hasSynced()
	item := f.items[0]
	f.items[0] = Delta{} // let the object be collected once processed
	f.items = f.items[1:]
	defer f.initial.popped(1)

	err := f.whileProcessingLocked(func() error {
		return process(Deltas{item}, isInInitialList)
	})
	return Deltas{item}, err
}

// whileProcessingLocked runs process, releasing the lock meanwhile if
// UnlockWhileProcessing is set and the queue is shorter than two batches (a
// longer queue keeps the lock, so producers slow down instead of growing it
// without bound). The lock is held again when it returns, even on a panic.
func (f *RealFIFO) whileProcessingLocked(process func() error) error {
	if f.unlockWhileProcessing && len(f.items) < f.batchSize*2 {
		f.lock.Unlock()
		defer f.lock.Lock()
	}
	return process()
}

// Close wakes any blocked Pop; see Queue.Close.
func (f *RealFIFO) Close() {
	f.lock.Lock()
	defer f.lock.Unlock()
	f.closed = true
	f.cond.Broadcast()
}

// IsClosed reports whether Close was called.
func (f *RealFIFO) IsClosed() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.closed
}

// HasSynced reports whether the first Replace's items have all been
// processed (or a write came first).
func (f *RealFIFO) HasSynced() bool {
	f.lock.Lock()
	defer f.lock.Unlock()
	return f.initial.hasSynced()
}

// HasSyncedChecker returns the queue itself: Done is closed when HasSynced
// turns true.
func (f *RealFIFO) HasSyncedChecker() DoneChecker { return f }

// Name names the queue for whoever waits on HasSyncedChecker.
func (f *RealFIFO) Name() string { return f.name }

// Done is closed once HasSynced is true.
func (f *RealFIFO) Done() <-chan struct{} { return f.initial.synced }
