package timeline_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

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

// TestSubscribersSeeWhatIsPrinted checks the promise the browser view relies
// on: a subscriber gets every row, in print order, and the rows' Text put
// together is exactly the terminal's output.
func TestSubscribersSeeWhatIsPrinted(t *testing.T) {
	var out strings.Builder
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tl := timeline.NewWithClock(&out, func() time.Time { now = now.Add(time.Second); return now })
	tl.Note("before any subscriber")
	var rows []timeline.Row
	unsubscribe := tl.Subscribe(func(r timeline.Row) { rows = append(rows, r) })
	start := out.Len()
	tl.Step("One", "why one")
	tl.Event("reflector", "Add", "ns/web-1", "rv=5")
	tl.EventWith(map[string]string{"key": "ns/web-1"}, "indexer", "Add", "ns/web-1", "rv=5")
	tl.Note("a %s", "note")
	unsubscribe()
	tl.Note("after")

	var texts strings.Builder
	for _, r := range rows {
		texts.WriteString(r.Text)
	}
	printed := out.String()[start:strings.LastIndex(out.String(), "   after\n")]
	if texts.String() != printed {
		t.Errorf("the rows' Text is not what was printed:\nrows:\n%s\nprinted:\n%s", texts.String(), printed)
	}
	want := []timeline.Row{
		{Kind: timeline.KindStep, Step: 1, Title: "One", Why: []string{"why one"}},
		{Kind: timeline.KindEvent, Step: 1, Offset: time.Second, Layer: "reflector", What: "Add", Object: "ns/web-1", Detail: "rv=5"},
		{Kind: timeline.KindEvent, Step: 1, Offset: 2 * time.Second, Layer: "indexer", What: "Add", Object: "ns/web-1", Detail: "rv=5", Fields: map[string]string{"key": "ns/web-1"}},
		{Kind: timeline.KindNote, Step: 1, Detail: "a note"},
	}
	for i := range rows {
		rows[i].Text = ""
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// ExampleTimeline_Event_wideWhat: a what wider than its column (client-go's
// AddRateLimited, ShutDownWithDrain) takes its room from the object's, so
// the detail still starts where every other row's does.
func ExampleTimeline_Event_wideWhat() {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tl := timeline.NewWithClock(os.Stdout, func() time.Time { return now })
	tl.Event("workqueue", "Add", "stage08/flaky", "len=1")
	tl.Event("workqueue", "AddRateLimited", "stage08/flaky", "requeue 1: back in 5ms")
	tl.Event("controller", "ShutDownWithDrain", "", "stop taking keys")
	// Output:
	//   +0.000s  workqueue  Add       stage08/flaky                  len=1
	//   +0.000s  workqueue  AddRateLimited stage08/flaky             requeue 1: back in 5ms
	//   +0.000s  controller ShutDownWithDrain                        stop taking keys
}
