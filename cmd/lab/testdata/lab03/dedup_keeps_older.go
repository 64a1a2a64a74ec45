//go:build ignore

// A plausible wrong answer to lab 03: of two deletions in a row, always keep
// the older, even when it is only a relist's tombstone and the newer one is
// the watch's real deletion with the object's final state.

package deltafifo

func isDeletionDup(a, b *Delta) *Delta {
	if b.Type != Deleted || a.Type != Deleted {
		return nil
	}
	return b
}
