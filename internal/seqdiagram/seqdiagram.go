// Package seqdiagram draws a demo's timeline as a mermaid sequenceDiagram,
// and keeps the diagrams the chapters embed equal to what the code does.
//
// Each stage's demo package has a TestSequenceDiagram that runs the stage's
// key scenario from a scripted source (no playground timing: see each
// test's comment for how it is made deterministic), records the timeline
// rows the demo prints (internal/timeline publishes them, as it does for the
// browser view), and turns them into a diagram with a Spec: which rows
// become arrows between which lifelines (CheckScripted does all of this
// around the scenario the test writes). CheckChapter then compares the
// diagram with the block the chapter embeds, in English and in Chinese (the
// two share every code block), and fails on any difference; with
// UPDATE_DIAGRAMS=1 (make diagrams) it rewrites the block instead.
package seqdiagram

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"informer-from-scratch/internal/timeline"
)

// Participant is one lifeline: its ID in the diagram and its label.
type Participant struct{ ID, Label string }

// Arrow is what one timeline row becomes.
type Arrow struct {
	// From and To are participant IDs. A note has To empty (over From
	// alone) or set (over both).
	From, To string
	Text     string
	// Reply draws a dashed arrow: an answer, or something handed back.
	Reply bool
	// Note draws a note instead of an arrow.
	Note bool
	// Lane is the participant whose goroutine acted; rows at the same
	// instant are ordered by it (see Spec.SameInstantByLane). Empty: From.
	Lane string
	// Unordered, when set, says the code does not fix this arrow's place
	// among its neighbours: the objects of one list, which an informer
	// hands out in map order (a WatchList's temporary store, the cache
	// replayed to a late handler), client-go's as ours. Consecutive arrows
	// at the same instant, in the same lane, between the same ends, that
	// all have it set are sorted by it (an object's name, say).
	Unordered string
}

// Spec says how one scenario's rows become a diagram.
type Spec struct {
	Participants []Participant
	// Arrows turns a row into the arrows (and notes) that draw it: none to
	// leave it out, several for a row that reaches several lifelines.
	Arrows func(timeline.Row) []Arrow
	// SameInstantByLane orders the arrows of rows printed at the same
	// offset by their lane, in the order of Participants, keeping timeline
	// order within a lane. In a testing/synctest bubble every goroutine that
	// runs between two advances of the fake clock prints at the same offset,
	// and the order in which the scheduler runs them is not fixed; the order
	// within one goroutine is. So a scenario whose lanes are each one
	// goroutine gets the same diagram on every run.
	SameInstantByLane bool
}

// Recorder keeps every row a timeline prints after Record.
type Recorder struct {
	mu   sync.Mutex
	rows []timeline.Row
	stop func()
}

// Record subscribes to tl.
func Record(tl *timeline.Timeline) *Recorder {
	r := &Recorder{}
	r.stop = tl.Subscribe(func(row timeline.Row) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.rows = append(r.rows, row)
	})
	return r
}

// Rows stops recording and returns what was recorded.
func (r *Recorder) Rows() []timeline.Row {
	r.stop()
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.rows)
}

// Render draws rows as a mermaid sequenceDiagram.
func (s Spec) Render(rows []timeline.Row) (string, error) {
	lane := map[string]int{}
	for i, p := range s.Participants {
		lane[p.ID] = i
	}
	type placed struct {
		Arrow
		at time.Duration
	}
	var arrows []placed
	var at time.Duration
	for _, row := range rows {
		if row.Kind == timeline.KindEvent {
			at = row.Offset
		} // a note or a step has no offset: it belongs to the last event's instant
		for _, a := range s.Arrows(row) {
			for _, id := range []string{a.From, a.To, a.Lane} {
				if _, known := lane[id]; id != "" && !known {
					return "", fmt.Errorf("row %q: participant %q is not in the spec", strings.TrimSpace(row.Text), id)
				}
			}
			if a.Lane == "" {
				a.Lane = a.From
			}
			arrows = append(arrows, placed{Arrow: a, at: at})
		}
	}
	if s.SameInstantByLane {
		slices.SortStableFunc(arrows, func(x, y placed) int {
			return cmp.Or(cmp.Compare(x.at, y.at), cmp.Compare(lane[x.Lane], lane[y.Lane]))
		})
	}
	sortRuns(arrows, func(x, y placed) bool {
		return x.Unordered != "" && y.Unordered != "" &&
			x.at == y.at && x.Lane == y.Lane && x.From == y.From && x.To == y.To && x.Note == y.Note
	}, func(x, y placed) int { return strings.Compare(x.Unordered, y.Unordered) })
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	for _, p := range s.Participants {
		fmt.Fprintf(&b, "    participant %s as %s\n", p.ID, clean(p.Label))
	}
	for _, a := range arrows {
		switch {
		case a.Note && a.To != "":
			fmt.Fprintf(&b, "    Note over %s,%s: %s\n", a.From, a.To, clean(a.Text))
		case a.Note:
			fmt.Fprintf(&b, "    Note over %s: %s\n", a.From, clean(a.Text))
		case a.Reply:
			fmt.Fprintf(&b, "    %s-->>%s: %s\n", a.From, a.To, clean(a.Text))
		default:
			fmt.Fprintf(&b, "    %s->>%s: %s\n", a.From, a.To, clean(a.Text))
		}
	}
	return b.String(), nil
}

// sortRuns sorts each run of consecutive elements that are alike.
func sortRuns[T any](xs []T, alike func(x, y T) bool, compare func(x, y T) int) {
	for start := 0; start < len(xs); {
		end := start + 1
		for end < len(xs) && alike(xs[start], xs[end]) {
			end++
		}
		slices.SortStableFunc(xs[start:end], compare)
		start = end
	}
}

// clean keeps a label on one line and out of mermaid's syntax: a semicolon
// would end the statement, and # starts an entity.
func clean(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer(";", ",", "#", "no. ").Replace(s)
}
