package main

import (
	"strings"
	"testing"

	"informer-from-scratch/internal/demo/demotest"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as
// `make run-stage 3` does, and checks it exits 0 having shown each lesson.
func TestDemoRunsToCompletion(t *testing.T) {
	out := demotest.Run(t, options, run,
		"HasSynced: DeltaFIFO=true after 2 Pops, RealFIFO=true after 1", // the initial list
		"(gap: ",                             // the DeltaFIFO reordered events across keys
		"web-2  Deleted@",                    // the watched deletion
		"web-1  Deleted(tombstone)@",         // the relist's tombstone, made by the DeltaFIFO
		"web-1 is gone → OnDelete(tombstone", // and found by the RealFIFO's consumer
		"web-4  Sync@",                       // the resync, skipping the queued web-3
		"SyncAll",                            // one item on the RealFIFO
		"Both consumers end with the same cache",
	)
	if strings.Contains(out, "web-3  Sync@") {
		t.Errorf("the DeltaFIFO resynced web-3 although an update for it was queued:\n%s", out)
	}
}
