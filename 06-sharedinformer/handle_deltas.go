// Mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go:
// sharedIndexInformer.handleDeltas, handleBatchDeltas, OnAdd, OnUpdate,
// OnDelete.

package informer

import (
	"errors"

	"k8s.io/apimachinery/pkg/api/meta"

	processor "informer-from-scratch/05-processor"
)

// handleDeltas is the informer's Process: it applies one popped item to the
// cache and turns it into notifications, with the informer itself as the
// handler processDeltas calls (OnAdd, OnUpdate, OnDelete below). blockDeltas
// keeps a late handler's replay out of the middle of it.
func (s *sharedIndexInformer) handleDeltas(obj any, isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	deltas, ok := obj.(Deltas)
	if !ok {
		return errors.New("object given as Process argument is not Deltas")
	}
	return processDeltas(s.notifier, s.store, deltas, isInInitialList, s.keyFunc)
}

// handleBatchDeltas is the informer's ProcessBatch: the same for a run of
// items from PopBatch, written to the cache in one transaction.
func (s *sharedIndexInformer) handleBatchDeltas(deltas []Delta, isInInitialList bool) error {
	s.blockDeltas.Lock()
	defer s.blockDeltas.Unlock()
	return processDeltasInBatch(s.notifier, s.store, deltas, isInInitialList, s.keyFunc)
}

// OnAdd distributes an add to every handler.
func (s *sharedIndexInformer) OnAdd(obj any, isInInitialList bool) {
	s.processor.Distribute(processor.AddNotification{NewObj: obj, IsInInitialList: isInInitialList}, false)
}

// OnUpdate distributes an update. An update whose old and new objects have
// the same resourceVersion changed nothing on the server: a resync replayed
// the cache, or a relist found the object as it was. It is a sync, and goes
// only to the handlers whose resync is due (stage 05's Distribute with
// sync=true); every other update goes to everyone.
func (s *sharedIndexInformer) OnUpdate(oldObj, newObj any) {
	isSync := false
	if newAccessor, err := meta.Accessor(newObj); err == nil {
		if oldAccessor, err := meta.Accessor(oldObj); err == nil {
			isSync = newAccessor.GetResourceVersion() == oldAccessor.GetResourceVersion()
		}
	}
	s.processor.Distribute(processor.UpdateNotification{OldObj: oldObj, NewObj: newObj}, isSync)
}

// OnDelete distributes a deletion: the last known object, or a
// DeletedFinalStateUnknown tombstone.
func (s *sharedIndexInformer) OnDelete(oldObj any) {
	s.processor.Distribute(processor.DeleteNotification{OldObj: oldObj}, false)
}
