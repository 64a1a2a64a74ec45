// Mirrors k8s.io/client-go v0.37.2 tools/cache/the_real_fifo.go: RealFIFO.Replace,
// addReplaceToItemsLocked, reconcileReplacement, RealFIFO.Resync,
// addResyncToItemsLocked.

package deltafifo

import (
	"fmt"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// Replace takes a complete list made at resourceVersion.
//
// With AtomicEvents it queues ONE ReplacedAll item holding the whole
// (transformed) list. Finding what was deleted is left to the consumer,
// which compares the list with its store when it pops the item and then
// swaps its store in one step. That buys two things, neither of them order
// (the per-object items are queued under this same lock, so no event can
// come between them either): the consumer's store never holds half a relist
// while handlers run, and the queue never reads KnownObjects, which the
// consumer may be changing, so Pop may release the lock while processing
// (UnlockWhileProcessing).
//
// Without AtomicEvents it does what ReconcileReplacement describes: a
// tombstone for every object the queue or KnownObjects knows and the list
// lacks, then a Replaced item per listed object.
//
// The first Replace sets how many items HasSynced waits for: everything
// queued at that moment.
func (f *RealFIFO) Replace(newItems []interface{}, resourceVersion string) error {
	f.lock.Lock()
	defer f.lock.Unlock()

	var err error
	if f.emitAtomicEvents {
		err = f.addReplaceToItemsLocked(newItems, resourceVersion)
	} else {
		err = ReconcileReplacement(f.items, f.knownObjects, newItems, f.keyOf,
			func(tombstone DeletedFinalStateUnknown) error {
				return f.addToItemsLocked(Deleted, true, tombstone)
			},
			func(obj interface{}) error {
				return f.addToItemsLocked(Replaced, false, obj)
			})
	}
	if err != nil {
		return err
	}
	f.initial.replaced(len(f.items))
	return nil
}

// addReplaceToItemsLocked queues one ReplacedAll item. It does not check
// keys: the consumer will, when it files the objects in its store.
func (f *RealFIFO) addReplaceToItemsLocked(objs []interface{}, resourceVersion string) error {
	if f.transformer != nil {
		transformed := make([]interface{}, len(objs))
		for i, obj := range objs {
			t, err := f.transformer(obj)
			if err != nil {
				return err
			}
			transformed[i] = t
		}
		objs = transformed
	}
	f.appendLocked(Delta{Type: ReplacedAll, Object: ReplacedAllInfo{ResourceVersion: resourceVersion, Objects: objs}})
	return nil
}

// ReconcileReplacement works out what a relist means, given what is already
// queued and what the consumer's store knows. It calls onDelete with a
// tombstone for each key that is queued (and whose last queued item is not a
// deletion already) or known, but not in newItems; then onReplace for each
// of newItems, in order. Deletions come first so that a consumer applying
// them in order never holds an object the relist says is gone.
//
// client-go's reconcileReplacement is unexported; ours is exported because
// the informer (stage 06) needs it for ReplacedAll, as client-go's
// processReplacedAllInfo in controller.go uses it with no queued items and
// the informer's store as knownObjects.
func ReconcileReplacement(
	queuedItems []Delta,
	knownObjects KeyListerGetter,
	newItems []interface{},
	keyOf KeyFunc,
	onDelete func(tombstone DeletedFinalStateUnknown) error,
	onReplace func(obj interface{}) error,
) error {
	newKeys := make(map[string]bool, len(newItems))
	for _, obj := range newItems {
		key, err := keyOf(obj)
		if err != nil {
			return KeyError{obj, err}
		}
		newKeys[key] = true
	}

	// The queued keys in order of first appearance, each with its last item.
	var queuedKeys []string
	lastQueued := map[string]Delta{}
	for _, item := range queuedItems {
		key, err := keyOf(item.Object)
		if err != nil {
			return KeyError{item.Object, err}
		}
		if _, seen := lastQueued[key]; !seen {
			queuedKeys = append(queuedKeys, key)
		}
		lastQueued[key] = item
	}

	for _, key := range queuedKeys {
		last := lastQueued[key]
		// Already ends in a deletion: the consumer will hear of it.
		if newKeys[key] || last.Type == Deleted {
			continue
		}
		if err := onDelete(DeletedFinalStateUnknown{Key: key, Obj: last.Object}); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}

	if knownObjects != nil {
		for _, key := range knownObjects.ListKeys() {
			if _, queued := lastQueued[key]; newKeys[key] || queued {
				continue
			}
			last, exists, err := knownObjects.GetByKey(key)
			if err != nil || !exists {
				last = nil
				utilruntime.HandleError(fmt.Errorf("known object %q could not be read (exists=%v, err=%v): its tombstone carries no object", key, exists, err))
			}
			if err := onDelete(DeletedFinalStateUnknown{Key: key, Obj: last}); err != nil {
				return fmt.Errorf("couldn't enqueue object: %w", err)
			}
		}
	}

	for _, obj := range newItems {
		if err := onReplace(obj); err != nil {
			return fmt.Errorf("couldn't enqueue object: %w", err)
		}
	}
	return nil
}

// Resync asks for every known object to be handed back.
//
// With AtomicEvents it queues ONE SyncAll item: the consumer replays its own
// store when it gets there, in line with the events before it.
//
// Without AtomicEvents it queues a Sync item (untransformed: it comes from
// the store) for every object in KnownObjects whose key is not queued: a
// queued event is newer than the store's copy.
func (f *RealFIFO) Resync() error {
	f.lock.Lock()
	defer f.lock.Unlock()

	if f.emitAtomicEvents {
		f.appendLocked(Delta{Type: SyncAll, Object: SyncAllInfo{}})
		return nil
	}
	if f.knownObjects == nil {
		return nil
	}

	queued := map[string]bool{}
	for _, item := range f.items {
		key, err := f.keyOf(item.Object)
		if err != nil {
			return KeyError{item, err}
		}
		queued[key] = true
	}
	for _, key := range f.knownObjects.ListKeys() {
		if queued[key] {
			continue
		}
		obj, exists, err := f.knownObjects.GetByKey(key)
		if err != nil || !exists {
			utilruntime.HandleError(fmt.Errorf("%s: cannot resync known object %q (exists=%v, err=%v)", f.name, key, exists, err))
			continue
		}
		if err := f.addToItemsLocked(Sync, true, obj); err != nil {
			// client-go wraps the wrong variable here (the nil lookup
			// error); we report the error that happened.
			return fmt.Errorf("couldn't queue object: %w", err)
		}
	}
	return nil
}
