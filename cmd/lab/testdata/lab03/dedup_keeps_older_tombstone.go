//go:build ignore

// A plausible wrong answer to lab 03, written from "a real deletion beats a
// tombstone; of two real ones, the older": it asks whether each side is a
// tombstone and keeps the newer only when it is the one real deletion, so of
// two tombstones in a row it keeps the older. client-go asks only about the
// older one: a tombstone before gives way to whatever deletion comes after.

package deltafifo

func isDeletionDup(a, b *Delta) *Delta {
	if a.Type != Deleted || b.Type != Deleted {
		return nil
	}
	_, aTombstone := a.Object.(DeletedFinalStateUnknown)
	_, bTombstone := b.Object.(DeletedFinalStateUnknown)
	if bTombstone && !aTombstone {
		return a
	}
	return b
}
