package timeline_test

import (
	"os"
	"time"

	"informer-from-scratch/internal/timeline"
)

func ExampleTimeline() {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { now = now.Add(125 * time.Millisecond); return now }
	tl := timeline.NewWithClock(os.Stdout, clock)
	tl.Step("LIST with pagination", "The pager asks for two pods at a time.")
	tl.Event("listwatch", "LIST", "pods", "limit=2 → 2 items")
	tl.Note("the server returned a continue token")
	// Output:
	//
	// ── Step 1: LIST with pagination ────────────────────────────────────────
	//    The pager asks for two pods at a time.
	//   +0.125s  listwatch  LIST      pods                           limit=2 → 2 items
	//    the server returned a continue token
}
