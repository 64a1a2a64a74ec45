// Mirrors k8s.io/client-go v0.37.2 tools/cache/delta_fifo.go (DeltaType,
// Delta, Deltas, dedupDeltas, isDeletionDup) and tools/cache/the_real_fifo.go
// (ReplacedAllInfo, BookmarkInfo, SyncAllInfo).

package deltafifo

// DeltaType is the kind of change a Delta records.
type DeltaType string

// The change types. A queue never invents an Added or Updated: those come
// from the watch. Replaced, Sync and their atomic forms come from a relist
// (Replace) and a resync (Resync); Deleted comes from either a watch event or
// a relist that no longer contains an object.
const (
	Added   DeltaType = "Added"
	Updated DeltaType = "Updated"
	Deleted DeltaType = "Deleted"
	// Replaced is one object of a relist (or of the initial list). The
	// object may or may not have changed: the watch was down, nobody knows.
	// A DeltaFIFO emits it only with EmitDeltaTypeReplaced; without it a
	// relist looks exactly like a resync (Sync), which is why that option
	// exists (kubernetes/kubernetes#86015).
	Replaced DeltaType = "Replaced"
	// ReplacedAll is a whole relist in ONE item, emitted by a RealFIFO with
	// AtomicEvents. Its Object is a ReplacedAllInfo holding every listed
	// object; the consumer replaces its store at once and works out the
	// deletions itself.
	ReplacedAll DeltaType = "ReplacedAll"
	// Sync is a periodic resync: an object the consumer already knows,
	// handed back so handlers can re-check it. Nothing changed on the server.
	Sync DeltaType = "Sync"
	// SyncAll is a whole resync in ONE item (RealFIFO with AtomicEvents). Its
	// Object is a SyncAllInfo; the consumer replays its own store.
	SyncAll DeltaType = "SyncAll"
	// Bookmark carries only a resourceVersion (a BookmarkInfo), so the
	// consumer's store can tell which resourceVersion it has caught up to.
	Bookmark DeltaType = "Bookmark"
)

// Delta is one change: what happened, and the object after it happened (for
// a deletion, the last state before it; possibly a DeletedFinalStateUnknown
// tombstone when the deletion was inferred from a relist).
type Delta struct {
	Type   DeltaType
	Object interface{}
}

// Deltas is the changes to one object, oldest first. A DeltaFIFO hands one
// Deltas per key to Pop; a RealFIFO hands a Deltas of exactly one Delta.
type Deltas []Delta

// Oldest returns the oldest delta, or nil if there is none.
func (d Deltas) Oldest() *Delta {
	if len(d) > 0 {
		return &d[0]
	}
	return nil
}

// Newest returns the newest delta, or nil if there is none.
func (d Deltas) Newest() *Delta {
	if n := len(d); n > 0 {
		return &d[n-1]
	}
	return nil
}

// ReplacedAllInfo is the Object of a ReplacedAll delta.
type ReplacedAllInfo struct {
	// ResourceVersion is the one the relist was made at.
	ResourceVersion string
	// Objects are the listed objects, already transformed.
	Objects []interface{}
}

// BookmarkInfo is the Object of a Bookmark delta.
type BookmarkInfo struct {
	ResourceVersion string
}

// SyncAllInfo is the Object of a SyncAll delta: it carries nothing, because
// the consumer resyncs from its own store.
type SyncAllInfo struct{}

// dedupDeltas merges the two newest deltas when they record the same event.
// Only one case exists: two deletions in a row, which happens when a watch
// DELETED and a relist's tombstone both report the same disappearance.
func dedupDeltas(deltas Deltas) Deltas {
	n := len(deltas)
	if n < 2 {
		return deltas
	}
	if keep := isDeletionDup(&deltas[n-1], &deltas[n-2]); keep != nil {
		deltas[n-2] = *keep
		return deltas[:n-1]
	}
	return deltas
}

// isDeletionDup returns the delta to keep when a (newest) and b (the one
// before) are both deletions, or nil. It keeps the one that knows more: a
// real final state beats a tombstone, which only has a possibly stale one.
//
//lab:03
func isDeletionDup(a, b *Delta) *Delta {
	if b.Type != Deleted || a.Type != Deleted {
		return nil
	}
	if _, ok := b.Object.(DeletedFinalStateUnknown); ok {
		return a
	}
	return b
}
