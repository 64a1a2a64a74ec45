//go:build ignore

// A plausible wrong answer to lab 03: Replace's second loop, over
// KnownObjects, forgets to skip keys that are still queued. An object both
// queued and cached gets two tombstones, the queued state's and then the
// cache's; deduplication keeps the newer, so the consumer's last word on the
// object is the cache's older state instead of the newest queued one.

package deltafifo

import "fmt"

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
	for _, key := range f.queue {
		if listed[key] {
			continue
		}
		var last interface{}
		if newest := f.items[key].Newest(); newest != nil {
			last = newest.Object
			if d, ok := last.(DeletedFinalStateUnknown); ok {
				last = d.Obj
			}
		}
		tombstones++
		if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{key, last}); err != nil {
			return err
		}
	}
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if listed[key] { // but not: || len(f.items[key]) > 0
				continue
			}
			last, exists, err := f.knownObjects.GetByKey(key)
			if err != nil || !exists {
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
