// Mirrors k8s.io/client-go v0.37.2 tools/cache/controller.go: processDeltas,
// processDeltasInBatch, processReplacedAllInfo.

package informer

import (
	"errors"
	"fmt"

	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
	processor "informer-from-scratch/05-processor"
)

// processDeltas is where the queue's output (stage 03) becomes a cache
// write (stage 04) and a notification (stage 05), oldest delta first:
//
//	Added, Updated, Replaced, Sync → Update if the key is cached (OnUpdate
//	                                 with the cached object as old), else
//	                                 Add (OnAdd)
//	Deleted                        → Delete, OnDelete (obj may be a tombstone)
//	ReplacedAll                    → a whole relist: processReplacedAllInfo
//	SyncAll                        → OnUpdate(obj, obj) for every cached object
//	Bookmark                       → the cache records the resourceVersion
//
// The cache is always written before the handler hears of it, so a handler
// that reads the cache sees at least the state it is told about.
//
//lab:06
func processDeltas(handler processor.ResourceEventHandler, clientState indexer.Store, deltas deltafifo.Deltas, isInInitialList bool, keyFunc deltafifo.KeyFunc) error {
	for _, d := range deltas {
		obj := d.Object
		switch d.Type {
		case deltafifo.ReplacedAll:
			info, ok := obj.(deltafifo.ReplacedAllInfo)
			if !ok {
				return fmt.Errorf("ReplacedAll did not contain ReplacedAllInfo: %T", obj)
			}
			if err := processReplacedAllInfo(handler, info, clientState, isInInitialList, keyFunc); err != nil {
				return err
			}
		case deltafifo.SyncAll:
			if _, ok := obj.(deltafifo.SyncAllInfo); !ok {
				return fmt.Errorf("SyncAll did not contain SyncAllInfo: %T", obj)
			}
			// A resync replays the cache itself: old and new are the
			// same object, which OnUpdate will recognise as a sync.
			for _, cached := range clientState.List() {
				handler.OnUpdate(cached, cached)
			}
			// client-go returns here, skipping any later delta of the
			// same Deltas; a RealFIFO never puts one there.
			return nil
		case deltafifo.Sync, deltafifo.Replaced, deltafifo.Added, deltafifo.Updated:
			if old, exists, err := clientState.Get(obj); err == nil && exists {
				if err := clientState.Update(obj); err != nil {
					return err
				}
				handler.OnUpdate(old, obj)
			} else {
				if err := clientState.Add(obj); err != nil {
					return err
				}
				handler.OnAdd(obj, isInInitialList)
			}
		case deltafifo.Deleted:
			if err := clientState.Delete(obj); err != nil {
				return err
			}
			handler.OnDelete(obj)
		case deltafifo.Bookmark:
			info, ok := obj.(deltafifo.BookmarkInfo)
			if !ok {
				return fmt.Errorf("bookmark delta did not contain BookmarkInfo: %T", obj)
			}
			clientState.Bookmark(info.ResourceVersion)
		default:
			// client-go ignores a delta type it does not know; a
			// silent drop hides a bug, so ours says so.
			return fmt.Errorf("unknown delta type %q", d.Type)
		}
	}
	return nil
}

// processReplacedAllInfo applies a whole relist that arrived as one
// ReplacedAll item (a RealFIFO with atomic events, stage 03). The informer,
// not the queue, works out what the relist means, with stage 03's
// ReconcileReplacement against the cache: a tombstone for every cached key
// the list lacks (an object deleted while no watch was open), and for every
// listed object an update (it was cached) or an add (it was not).
//
// The cache is replaced in one step first, so every handler call that
// follows sees the relisted state; then the handlers hear the deletions,
// then the adds and updates, in list order.
//
//lab:06
func processReplacedAllInfo(handler processor.ResourceEventHandler, info deltafifo.ReplacedAllInfo, clientState indexer.Store, isInInitialList bool, keyFunc deltafifo.KeyFunc) error {
	type replacement struct{ oldObj, newObj interface{} }
	var deletions []deltafifo.DeletedFinalStateUnknown
	replacements := make([]replacement, 0, len(info.Objects))

	err := deltafifo.ReconcileReplacement(nil, clientState, info.Objects, keyFunc,
		func(tombstone deltafifo.DeletedFinalStateUnknown) error {
			deletions = append(deletions, tombstone)
			return nil
		},
		func(obj interface{}) error {
			if old, exists, err := clientState.Get(obj); err == nil && exists {
				replacements = append(replacements, replacement{oldObj: old, newObj: obj})
			} else {
				replacements = append(replacements, replacement{newObj: obj})
			}
			return nil
		})
	if err != nil {
		return err
	}

	if err := clientState.Replace(info.Objects, info.ResourceVersion); err != nil {
		return err
	}
	for _, tombstone := range deletions {
		handler.OnDelete(tombstone)
	}
	for _, r := range replacements {
		if r.oldObj != nil {
			handler.OnUpdate(r.oldObj, r.newObj)
		} else {
			handler.OnAdd(r.newObj, isInInitialList)
		}
	}
	return nil
}

// processDeltasInBatch applies a batch from PopBatch: one delta per object,
// so the order inside the batch does not matter to the cache. When the cache
// is a TransactionStore (stage 04's is), all the writes go in one
// Transaction, under one lock, and only then are the handlers called, for
// the writes that succeeded. Otherwise each delta goes through processDeltas.
func processDeltasInBatch(handler processor.ResourceEventHandler, clientState indexer.Store, deltas []deltafifo.Delta, isInInitialList bool, keyFunc deltafifo.KeyFunc) error {
	txnStore, ok := clientState.(indexer.TransactionStore)
	if !ok {
		var errs []error
		for _, d := range deltas {
			if err := processDeltas(handler, clientState, deltafifo.Deltas{d}, isInInitialList, keyFunc); err != nil {
				errs = append(errs, err)
			}
		}
		if len(errs) > 0 {
			return fmt.Errorf("unexpected error when handling deltas: %w", errors.Join(errs...))
		}
		return nil
	}

	txns := make([]indexer.Transaction, 0, len(deltas))
	callbacks := make([]func(), 0, len(deltas))
	for _, d := range deltas {
		obj := d.Object
		switch d.Type {
		case deltafifo.Sync, deltafifo.Replaced, deltafifo.Added, deltafifo.Updated:
			// One delta per object in a batch: the cached copy is the
			// old object, whatever the transaction does to others.
			if old, exists, err := clientState.Get(obj); err == nil && exists {
				txns = append(txns, indexer.Transaction{Type: indexer.TransactionTypeUpdate, Object: obj})
				callbacks = append(callbacks, func() { handler.OnUpdate(old, obj) })
			} else {
				txns = append(txns, indexer.Transaction{Type: indexer.TransactionTypeAdd, Object: obj})
				callbacks = append(callbacks, func() { handler.OnAdd(obj, isInInitialList) })
			}
		case deltafifo.Deleted:
			txns = append(txns, indexer.Transaction{Type: indexer.TransactionTypeDelete, Object: obj})
			callbacks = append(callbacks, func() { handler.OnDelete(obj) })
		default:
			return fmt.Errorf("delta type %s is not supported in batch processing", d.Type)
		}
	}

	if err := txnStore.Transaction(txns...); err != nil {
		for _, i := range err.SuccessfulIndices {
			if i < len(callbacks) {
				callbacks[i]()
			}
		}
		return fmt.Errorf("not all items in the batch successfully processed: %s", err.Error())
	}
	for _, callback := range callbacks {
		callback()
	}
	return nil
}
