// Mirrors k8s.io/client-go v0.37.2 tools/cache/the_real_fifo.go: batchable,
// RealFIFO.PopBatch, and the option checks of NewRealFIFOWithOptions.

package deltafifo

import "errors"

// batchable are the item types PopBatch may group: single-object events. The
// atomic ones (ReplacedAll, SyncAll) and Bookmark are always handed out
// alone, through processSingle.
var batchable = map[DeltaType]bool{
	Sync:     true,
	Replaced: true,
	Added:    true,
	Updated:  true,
	Deleted:  true,
}

// PopBatch waits for an item, then removes the longest run of oldest items
// that can be processed together, and hands it to processBatch (or, if the
// run is a single item, to processSingle as a one-Delta Deltas). A run ends:
//
//   - before the first item of a key already in the run: a batch holds at
//     most one event per object, so a consumer may apply it in any order;
//   - at an item that is not batchable (taken alone if it comes first);
//   - after an item whose key cannot be computed (it is taken, so it does
//     not block the queue forever);
//   - at the end of the first list's items, so isInInitialList is right
//     for every item of the batch;
//   - after batchSize (1000) items.
func (f *RealFIFO) PopBatch(processBatch ProcessBatchFunc, processSingle PopProcessFunc) error {
	f.lock.Lock()
	defer f.lock.Unlock()
	if err := f.waitLocked(); err != nil {
		return err
	}

	isInInitialList := !f.initial.hasSynced()
	batch := f.takeBatchLocked()
	defer f.initial.popped(len(batch))

	if len(batch) == 1 {
		return f.whileProcessingLocked(func() error {
			return processSingle(Deltas{batch[0]}, isInInitialList)
		})
	}
	return f.whileProcessingLocked(func() error {
		return processBatch(batch, isInInitialList)
	})
}

// takeBatchLocked removes and returns the next batch (at least one item).
func (f *RealFIFO) takeBatchLocked() []Delta {
	batch := make([]Delta, 0, min(len(f.items), f.batchSize))
	take := func(i int) {
		batch = append(batch, f.items[i])
		f.items[i] = Delta{} // let the object be collected once processed
	}
	seen := map[string]bool{}
	for i := 0; i < f.batchSize && i < len(f.items); i++ {
		if pending := f.initial.initialPopulationCount; pending > 0 && i >= pending {
			break
		}
		item := f.items[i]
		if !batchable[item.Type] {
			if len(batch) == 0 {
				take(i)
			}
			break
		}
		key, err := f.keyOf(item)
		if err != nil {
			take(i)
			break
		}
		if seen[key] {
			break
		}
		seen[key] = true
		take(i)
	}
	f.items = f.items[len(batch):]
	return batch
}

// validate holds the rules NewRealFIFOWithOptions enforces, with client-go's
// messages.
func (o RealFIFOOptions) validate() error {
	if o.AtomicEvents {
		// The consumer may change its store while the queue runs unlocked,
		// so an atomic queue must never read that store.
		if o.KnownObjects != nil {
			return errors.New("coding error: knownObjects must not be provided when AtomicEvents is true")
		}
		return nil
	}
	if o.UnlockWhileProcessing {
		return errors.New("coding error: UnlockWhileProcessing must be false when AtomicEvents is false")
	}
	if o.KnownObjects == nil {
		return errors.New("coding error: knownObjects must be provided when AtomicEvents is false")
	}
	if o.EmitDeltaTypeBookmark {
		return errors.New("coding error: EmitDeltaTypeBookmark must be false when AtomicEvents is false")
	}
	return nil
}
