package deltafifo

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/client-go/tools/cache"
)

// panicMessage runs f and returns what it panicked with, or "".
func panicMessage(f func()) (msg string) {
	defer func() {
		if p := recover(); p != nil {
			msg = fmt.Sprint(p)
		}
	}()
	f()
	return ""
}

func TestRealFIFORefusesContradictoryOptionsLikeClientGo(t *testing.T) {
	known := newKnown(cache.MetaNamespaceKeyFunc)
	for _, c := range []struct {
		name                                string
		atomic, known, unlock, emitBookmark bool
	}{
		{name: "atomic with KnownObjects", atomic: true, known: true},
		{name: "not atomic without KnownObjects"},
		{name: "UnlockWhileProcessing without AtomicEvents", known: true, unlock: true},
		{name: "EmitDeltaTypeBookmark without AtomicEvents", known: true, emitBookmark: true},
		{name: "valid: atomic", atomic: true, unlock: true, emitBookmark: true},
		{name: "valid: not atomic", known: true},
	} {
		cgOpts := cache.RealFIFOOptions{AtomicEvents: c.atomic, UnlockWhileProcessing: c.unlock, EmitDeltaTypeBookmark: c.emitBookmark}
		ourOpts := RealFIFOOptions{AtomicEvents: c.atomic, UnlockWhileProcessing: c.unlock, EmitDeltaTypeBookmark: c.emitBookmark}
		if c.known {
			cgOpts.KnownObjects, ourOpts.KnownObjects = known, known
		}
		want := panicMessage(func() { cache.NewRealFIFOWithOptions(cgOpts) })
		got := panicMessage(func() { NewRealFIFOWithOptions(ourOpts) })
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the constructor's panic differs (-client-go +ours):\n%s", c.name, diff)
		}
	}
}

// TestPopBatchStopsAtTheBatchSize needs more items than a random scenario
// makes: a batch holds at most 1000.
func TestPopBatchStopsAtTheBatchSize(t *testing.T) {
	ops := make([]op, 0, 1003)
	for i := range 1001 {
		ops = append(ops, add(pod(fmt.Sprintf("p%04d", i), i+1)))
	}
	ops = append(ops, popBatch, popBatch)
	lengths := func(steps []step) []int {
		var out []int
		for _, s := range steps[len(steps)-2:] {
			out = append(out, s.Len)
		}
		return out
	}
	c := fifoConfig{atomic: true}
	want, got := runOps(clientGoRealFIFO(c), ops), runOps(oursRealFIFO(c), ops)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-client-go +ours):\n%s", diff)
	}
	if diff := cmp.Diff([]int{1, 0}, lengths(want)); diff != "" {
		t.Errorf("client-go's batches were not 1000 and 1 (-want +client-go):\n%s", diff)
	}
}

func TestQueuesAreTheirOwnHasSyncedChecker(t *testing.T) {
	type names struct{ DeltaFIFO, RealFIFO, NamedDeltaFIFO, NamedRealFIFO string }
	want := names{
		cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{}).HasSyncedChecker().Name(),
		cache.NewRealFIFOWithOptions(cache.RealFIFOOptions{AtomicEvents: true}).HasSyncedChecker().Name(),
		cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{Name: "pods"}).HasSyncedChecker().Name(),
		cache.NewRealFIFOWithOptions(cache.RealFIFOOptions{AtomicEvents: true, Name: "pods"}).HasSyncedChecker().Name(),
	}
	got := names{
		NewDeltaFIFOWithOptions(DeltaFIFOOptions{}).HasSyncedChecker().Name(),
		NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true}).HasSyncedChecker().Name(),
		NewDeltaFIFOWithOptions(DeltaFIFOOptions{Name: "pods"}).HasSyncedChecker().Name(),
		NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, Name: "pods"}).HasSyncedChecker().Name(),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-client-go +ours):\n%s", diff)
	}
}

func TestSmallAccessorsMatchClientGo(t *testing.T) {
	type answers struct {
		ClosedBefore, ClosedAfter, HasTransformer  bool
		Oldest, Newest, OldestOfNone, NewestOfNone string
	}
	describeDelta := func(d interface{}) string {
		switch d := d.(type) {
		case *Delta:
			if d != nil {
				return string(d.Type) + " " + describe(d.Object)
			}
		case *cache.Delta:
			if d != nil {
				return string(d.Type) + " " + describe(d.Object)
			}
		}
		return "nil"
	}
	cgQueues := []interface {
		IsClosed() bool
		Close()
		Transformer() cache.TransformFunc
	}{
		cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{Transformer: testTransformer}),
		cache.NewRealFIFOWithOptions(cache.RealFIFOOptions{AtomicEvents: true, Transformer: testTransformer}),
	}
	ourQueues := []interface {
		IsClosed() bool
		Close()
		Transformer() TransformFunc
	}{
		NewDeltaFIFOWithOptions(DeltaFIFOOptions{Transformer: testTransformer}),
		NewRealFIFOWithOptions(RealFIFOOptions{AtomicEvents: true, Transformer: testTransformer}),
	}
	cgDeltas := cache.Deltas{{Type: cache.Added, Object: newPod("a", 1)}, {Type: cache.Updated, Object: newPod("a", 2)}}
	ourDeltas := Deltas{{Added, newPod("a", 1)}, {Updated, newPod("a", 2)}}
	for i := range cgQueues {
		cg, ours := cgQueues[i], ourQueues[i]
		var want, got answers
		want.ClosedBefore, got.ClosedBefore = cg.IsClosed(), ours.IsClosed()
		cg.Close()
		ours.Close()
		want.ClosedAfter, got.ClosedAfter = cg.IsClosed(), ours.IsClosed()
		want.HasTransformer, got.HasTransformer = cg.Transformer() != nil, ours.Transformer() != nil
		want.Oldest, got.Oldest = describeDelta(cgDeltas.Oldest()), describeDelta(ourDeltas.Oldest())
		want.Newest, got.Newest = describeDelta(cgDeltas.Newest()), describeDelta(ourDeltas.Newest())
		want.OldestOfNone, got.OldestOfNone = describeDelta(cache.Deltas{}.Oldest()), describeDelta(Deltas{}.Oldest())
		want.NewestOfNone, got.NewestOfNone = describeDelta(cache.Deltas{}.Newest()), describeDelta(Deltas{}.Newest())
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("queue %d: (-client-go +ours):\n%s", i, diff)
		}
	}
}
