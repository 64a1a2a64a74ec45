// Mirrors k8s.io/client-go v0.37.2 tools/cache/delta_fifo.go:
// DeltaFIFO.Replace, DeltaFIFO.Resync, syncKeyLocked.

package deltafifo

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// Replace takes a complete list, the initial one or a relist after the watch
// broke, and does two things at once, under one lock:
//
//  1. it queues every listed object as a Replaced delta (Sync without
//     EmitDeltaTypeReplaced): nobody knows whether it changed meanwhile;
//  2. it queues a Deleted delta holding a DeletedFinalStateUnknown tombstone
//     for every object it knew of that the list no longer has. "Knew of"
//     means queued here (its newest delta holds its last state) or present
//     in KnownObjects (the consumer's store holds it). These objects were
//     deleted while the watch was down; their final state is unknown, and
//     when KnownObjects cannot give back the last one, the tombstone holds
//     none (a failed lookup is reported through utilruntime.HandleError).
//
// The first Replace also decides when HasSynced turns true: once every key
// it queued, listed or tombstoned, has been popped.
//
//lab:03
func (f *DeltaFIFO) Replace(list []interface{}, _ string) error {
	f.lock.Lock()
	defer f.lock.Unlock()

	action := Sync
	if f.emitDeltaTypeReplaced {
		action = Replaced
	}
	listed := make(map[string]bool, len(list))
	for _, item := range list {
		key, err := f.KeyOf(item)
		if err != nil {
			return KeyError{item, err}
		}
		listed[key] = true
		if err := f.queueActionInternalLocked(action, Replaced, item); err != nil {
			return fmt.Errorf("couldn't enqueue object: %v", err)
		}
	}

	tombstones := 0
	// Objects only in the queue: client-go ranges over the items map; the
	// queue holds the same keys, and ranging over it keeps runs repeatable.
	// (Appending to a queued key never moves it, so the order is moot.)
	for _, key := range f.queue {
		if listed[key] {
			continue
		}
		var last interface{}
		if newest := f.items[key].Newest(); newest != nil {
			last = newest.Object
			// Never wrap a tombstone in a tombstone.
			if d, ok := last.(DeletedFinalStateUnknown); ok {
				last = d.Obj
			}
		}
		tombstones++
		if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{key, last}); err != nil {
			return err
		}
	}

	// Objects only in the consumer's store.
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if listed[key] || len(f.items[key]) > 0 {
				continue
			}
			// Still report the deletion when the store cannot give the
			// object back: a handler gets a tombstone with a nil Obj
			// rather than nothing.
			last, exists, err := f.knownObjects.GetByKey(key)
			if err != nil {
				last = nil
				utilruntime.HandleError(fmt.Errorf("%s: known object %q could not be read, its tombstone carries no object: %w", f.name, key, err))
			} else if !exists {
				// Gone between ListKeys and GetByKey: client-go only logs
				// this (at Info level), and we leave logging out.
				last = nil
			}
			tombstones++
			if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{key, last}); err != nil {
				return err
			}
		}
	}

	f.initial.replaced(len(listed) + tombstones)
	return nil
}

// Resync queues a Sync delta for every object in KnownObjects whose key is
// not queued already, so handlers see every object again (periodic resync).
// A queued key is skipped because its pending change is newer than the
// store's copy: syncing the store's copy after it would hand the handlers an
// old state last. Without KnownObjects, Resync does nothing.
func (f *DeltaFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if f.knownObjects == nil {
		return nil
	}
	for _, key := range f.knownObjects.ListKeys() {
		if err := f.syncKeyLocked(key); err != nil {
			return err
		}
	}
	return nil
}

func (f *DeltaFIFO) syncKeyLocked(key string) error {
	obj, exists, err := f.knownObjects.GetByKey(key)
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("%s: cannot resync known object %q: %w", f.name, key, err))
		return nil
	}
	if !exists {
		// The store changed between ListKeys and GetByKey: nothing to
		// sync. client-go only logs this, at Info level.
		return nil
	}
	id, err := f.KeyOf(obj)
	if err != nil {
		return KeyError{obj, err}
	}
	if len(f.items[id]) > 0 {
		return nil
	}
	if err := f.queueActionLocked(Sync, obj); err != nil {
		return fmt.Errorf("couldn't queue object: %v", err)
	}
	return nil
}
