package demotest

import (
	"io"
	"testing"

	"informer-from-scratch/internal/timeline"
)

// TestWritesAnsweredRefusesTheOtherShapes: a request and its answer pass;
// a write on one row, a request never answered (stage 06's DELETE was), and
// one answered twice fail.
func TestWritesAnsweredRefusesTheOtherShapes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		print func(tl *timeline.Timeline)
		ok    bool
	}{
		{"a request, then its answer", func(tl *timeline.Timeline) {
			tl.Send("demo", "DELETE", "ns/a", "").Answered("75", "")
		}, true},
		{"a write on one row", func(tl *timeline.Timeline) {
			tl.EventWith(timeline.Origin("74"), "demo", "CREATE", "ns/a", "rv=74")
		}, false},
		{"a request never answered", func(tl *timeline.Timeline) {
			tl.Send("demo", "CREATE", "ns/a", "").Answered("74", "")
			tl.Send("demo", "DELETE", "ns/a", "")
		}, false},
		{"an answer twice", func(tl *timeline.Timeline) {
			c := tl.Send("demo", "LABEL", "ns/a", "tier=gold")
			c.Answered("75", "")
			c.Answered("75", "")
		}, false},
		{"rows that are no writes", func(tl *timeline.Timeline) {
			tl.Event("watch", "DELETED", "ns/a", "rv=76")
		}, true},
	} {
		tl := timeline.New(io.Discard)
		var tr Transcript
		tl.Subscribe(func(r timeline.Row) { tr.Rows = append(tr.Rows, r) })
		tc.print(tl)
		if problems := unansweredWrites(tr.Rows); (len(problems) == 0) != tc.ok {
			t.Errorf("%s: %q, want ok=%v", tc.name, problems, tc.ok)
		}
	}
}
