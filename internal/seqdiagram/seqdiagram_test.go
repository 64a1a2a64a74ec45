package seqdiagram

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"informer-from-scratch/internal/timeline"
)

// spec draws "layer → target" rows: Object is the target, What the text.
var spec = Spec{
	Participants: []Participant{{"A", "first"}, {"B", "second"}, {"C", "third"}},
	Arrows: func(r timeline.Row) []Arrow {
		if r.Kind != timeline.KindEvent {
			return nil
		}
		return []Arrow{{From: r.Layer, To: r.Object, Text: r.What, Reply: r.Detail == "reply"}}
	},
}

func TestRenderDrawsEveryRowAsAnArrow(t *testing.T) {
	var clock time.Time
	tl := timeline.NewWithClock(&bytes.Buffer{}, func() time.Time { return clock })
	rec := Record(tl)
	tl.StepEN("ignored")
	tl.Event("A", "ask; twice #1", "B", "")
	tl.Event("B", "answer", "A", "reply")
	got, err := spec.Render(rec.Rows())
	if err != nil {
		t.Fatal(err)
	}
	want := `sequenceDiagram
    participant A as first
    participant B as second
    participant C as third
    A->>B: ask, twice no. 1
    B-->>A: answer
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if _, err := spec.Render([]timeline.Row{{Kind: timeline.KindEvent, Layer: "Z", Object: "A"}}); err == nil {
		t.Error("an arrow from an unknown participant rendered without an error")
	}
}

// TestSameInstantByLaneOrdersConcurrentRows: rows at one offset are ordered
// by lane, rows of one lane keep their order, and time still comes first.
func TestSameInstantByLaneOrdersConcurrentRows(t *testing.T) {
	s := spec
	s.SameInstantByLane = true
	row := func(at time.Duration, from, what string) timeline.Row {
		return timeline.Row{Kind: timeline.KindEvent, Offset: at, Layer: from, Object: "A", What: what}
	}
	got, err := s.Render([]timeline.Row{
		row(0, "C", "c1"), row(0, "B", "b1"), row(0, "C", "c2"), row(time.Second, "A", "a-later"), row(0, "B", "b2"),
	})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, l := range strings.Split(strings.TrimSpace(got), "\n")[4:] {
		texts = append(texts, l[strings.LastIndex(l, " ")+1:])
	}
	if want := "b1 b2 c1 c2 a-later"; strings.Join(texts, " ") != want {
		t.Errorf("order %q, want %q", strings.Join(texts, " "), want)
	}
}

func TestEmbeddedFindsAndReplacesTheBlockAfterTheMarker(t *testing.T) {
	marker := Marker("01-listwatch/demo", "paging")
	text := "intro\n" + marker + "\n```mermaid\nold\n```\n\n```mermaid\nother\n```\n"
	got, replaced, err := embedded(text, marker, "new\n")
	if err != nil {
		t.Fatal(err)
	}
	if got != "old\n" {
		t.Errorf("found %q, want %q", got, "old\n")
	}
	if want := "intro\n" + marker + "\n```mermaid\nnew\n```\n\n```mermaid\nother\n```\n"; replaced != want {
		t.Errorf("replaced:\n%s\nwant:\n%s", replaced, want)
	}
	for _, bad := range []string{"no marker here\n", marker + "\ntext\n", marker + "\n```mermaid\nunclosed\n"} {
		if _, _, err := embedded(bad, marker, "x\n"); err == nil {
			t.Errorf("embedded(%q) found a block", bad)
		}
	}
}

func TestLineDiffShowsOnlyWhatChanged(t *testing.T) {
	got := lineDiff("a\nb\nc\n", "a\nx\nc\n")
	if want := "- b\n+ x\n"; got != want {
		t.Errorf("lineDiff = %q, want %q", got, want)
	}
}

// TestUnorderedSortsOnlyRunsOfUnorderedArrows: the objects of one list are
// sorted by their key; an arrow the code orders (a tombstone, say) ends the
// run, and stays where it was.
func TestUnorderedSortsOnlyRunsOfUnorderedArrows(t *testing.T) {
	s := spec
	s.Arrows = func(row timeline.Row) []Arrow {
		a := Arrow{From: "A", To: "B", Text: row.What}
		if !strings.HasPrefix(row.What, "delete") {
			a.Unordered = strings.Fields(row.What)[1]
		}
		return []Arrow{a}
	}
	row := func(what string) timeline.Row {
		return timeline.Row{Kind: timeline.KindEvent, What: what}
	}
	got, err := s.Render([]timeline.Row{row("update web-3"), row("add web-1"), row("delete web-9"), row("add web-2"), row("update web-0")})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, l := range strings.Split(strings.TrimSpace(got), "\n")[len(s.Participants)+1:] {
		texts = append(texts, strings.SplitN(l, ": ", 2)[1])
	}
	if want := "add web-1|update web-3|delete web-9|update web-0|add web-2"; strings.Join(texts, "|") != want {
		t.Errorf("order %q, want %q", strings.Join(texts, "|"), want)
	}
}

// TestNoteTakesTheInstantOfTheEventBeforeIt: a note has no offset of its
// own; ordered by instant it must stay after the events printed before it
// (at offset zero it would jump to the top).
func TestNoteTakesTheInstantOfTheEventBeforeIt(t *testing.T) {
	s := spec
	s.SameInstantByLane = true
	s.Arrows = func(row timeline.Row) []Arrow {
		if row.Kind == timeline.KindNote {
			return []Arrow{{Note: true, From: "B", Text: row.Detail}}
		}
		return []Arrow{{From: "B", To: "A", Text: row.What}}
	}
	got, err := s.Render([]timeline.Row{
		{Kind: timeline.KindEvent, Offset: time.Second, What: "first"},
		{Kind: timeline.KindEvent, Offset: 2 * time.Second, What: "second"},
		{Kind: timeline.KindNote, Detail: "after second"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(got, "B->>A: second\n    Note over B: after second\n") {
		t.Errorf("the note moved:\n%s", got)
	}
}
