//go:build ignore

// A plausible wrong answer to lab 03: Replace tombstones only the objects
// the consumer's store knows, and forgets those still waiting in the queue
// (added, never popped, and gone from the new list). Their handlers would
// hear of an Add and never of the Delete.

package deltafifo

import (
	"fmt"
)

func (f *DeltaFIFO) Replace(list []interface{}, _ string) error {
	f.lock.Lock()
	defer f.lock.Unlock()

	action := Sync
	if f.emitDeltaTypeReplaced {
		action = Replaced
	}
	listed := map[string]bool{}
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
	if f.knownObjects != nil {
		for _, key := range f.knownObjects.ListKeys() {
			if listed[key] {
				continue
			}
			last, _, _ := f.knownObjects.GetByKey(key)
			tombstones++
			if err := f.queueActionLocked(Deleted, DeletedFinalStateUnknown{key, last}); err != nil {
				return err
			}
		}
	}
	f.initial.replaced(len(listed) + tombstones)
	return nil
}
