// Mirrors k8s.io/client-go v0.37.2 tools/cache/fifo.go (Queue,
// QueueWithBatch, PopProcessFunc, ErrFIFOClosed), tools/cache/controller.go
// (ProcessBatchFunc), tools/cache/delta_fifo.go (KeyListerGetter, KeyLister,
// KeyGetter, TransformFunc, ErrZeroLengthDeltasObject), tools/cache/reflector.go
// (the ReflectorStore methods Queue embeds) and tools/cache/shared_informer.go
// (DoneChecker, IsDone).

package deltafifo

import "errors"

// Queue is what sits between a Reflector and the informer's processing loop:
// the Reflector writes to it (Add, Update, Delete, Replace, Resync) and one
// consumer goroutine reads it with Pop.
//
// client-go's Queue embeds ReflectorStore (reflector.go), the write half the
// Reflector needs. We spell the same five methods out instead, so that this
// stage does not depend on stage 02; Go interfaces being structural, any
// Queue still satisfies a ReflectorStore with those methods.
type Queue interface {
	// Add, Update and Delete record one watch event.
	Add(obj interface{}) error
	Update(obj interface{}) error
	Delete(obj interface{}) error
	// Replace records a complete list (the initial list or a relist) made at
	// resourceVersion.
	Replace(list []interface{}, resourceVersion string) error
	// Resync asks for every object the consumer knows to be handed back.
	Resync() error

	// Pop blocks until there is something to process or the queue is
	// closed and empty (then it returns ErrFIFOClosed). It removes one item
	// and calls process with it; the item is NOT put back if process fails.
	// Call it from a single consumer goroutine.
	Pop(PopProcessFunc) (interface{}, error)

	// HasSynced is true once the items of the first Replace have all been
	// popped, or at once if an Add, Update or Delete came before any Replace.
	HasSynced() bool
	// HasSyncedChecker is HasSynced as a channel to wait on.
	HasSyncedChecker() DoneChecker

	// Close wakes every blocked Pop. It does not stop writes: a closed queue
	// still accepts Add and still hands out what it holds; only a Pop on an
	// empty closed queue returns ErrFIFOClosed.
	Close()
}

// QueueWithBatch is a Queue that can hand several items to the consumer at
// once (the informer does so when InOrderInformersBatchProcess is on).
type QueueWithBatch interface {
	Queue
	// PopBatch pops as many items as form a batch and calls processBatch, or
	// pops one and calls processSingle; both must process the same way.
	PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error
}

// PopProcessFunc processes what Pop removed: a Deltas. isInInitialList is
// true while the items of the first list are being delivered, so a handler
// can tell "this existed when I started" from "this was just created".
type PopProcessFunc func(obj interface{}, isInInitialList bool) error

// ProcessBatchFunc processes the deltas PopBatch removed: each of a
// different object, oldest first.
type ProcessBatchFunc func(deltas []Delta, isInInitialList bool) error

// ErrFIFOClosed is what Pop returns on a closed, empty queue. The message is
// client-go's, word for word, DeltaFIFO in it included.
var ErrFIFOClosed = errors.New("DeltaFIFO: manipulating with closed queue")

// ErrZeroLengthDeltasObject is wrapped in a KeyError when asked for the key
// of an empty Deltas, which has no object to take a key from.
var ErrZeroLengthDeltasObject = errors.New("0 length Deltas object; can't get key")

// KeyListerGetter is the consumer's store as a queue sees it: the keys it
// knows and the object under each. The informer passes its Indexer.
type KeyListerGetter interface {
	KeyLister
	KeyGetter
}

// KeyLister lists the keys a store holds.
type KeyLister interface {
	ListKeys() []string
}

// KeyGetter looks an object up by key.
type KeyGetter interface {
	// GetByKey returns the object under key, or exists=false.
	GetByKey(key string) (value interface{}, exists bool, err error)
}

// TransformFunc rewrites each object before it is queued, typically to drop
// fields nobody reads (managedFields) and save memory. It runs once per
// object: not again on objects a resync takes from the consumer's store, nor
// on tombstones, whose objects were transformed when first queued. (A
// Reflector streaming a WatchList transforms the objects it gathers with the
// queue's Transformer, and Replace transforms them again: it must be
// idempotent.) An alias, like stage 02's reflector.TransformFunc, so that
// both queues satisfy reflector.TransformingStore without this stage
// importing stage 02.
type TransformFunc = func(interface{}) (interface{}, error)

// DoneChecker is something to wait for without polling: Done is closed when
// the activity has finished, and Name says what it is (for log lines such as
// "waiting for X"). Both queues are their own HasSyncedChecker. client-go
// declares it once, in shared_informer.go; ours lives in this stage, the
// lowest that needs it, and stages 05 and 06 use this same type.
type DoneChecker interface {
	Name() string
	Done() <-chan struct{}
}

// IsDone reports, without blocking, whether checker has finished.
func IsDone(checker DoneChecker) bool {
	select {
	case <-checker.Done():
		return true
	default:
		return false
	}
}
