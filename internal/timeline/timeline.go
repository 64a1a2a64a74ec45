// Package timeline prints what a demo does as a timeline a person can read
// aloud in a workshop: the time since the demo started, the layer that acted,
// what it did, the object, and details such as the resourceVersion, in
// aligned columns.
//
//	+0.412s  listwatch   LIST       pods                         limit=2 → 2 items, continue=…
//	+0.431s  watch       ADDED      demo/pod-3                   rv=245
//
// Every row it prints is also published, in structured form, to whoever
// subscribed (Subscribe): the browser view reads the same rows the terminal
// shows, so the two never disagree.
package timeline

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Timeline is safe for concurrent use: demos print from informer goroutines.
type Timeline struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	now   func() time.Time
	step  int

	subscribers map[int]func(Row)
	nextSub     int
}

// New returns a Timeline that writes to w and counts time from now.
func New(w io.Writer) *Timeline {
	return &Timeline{w: w, start: time.Now(), now: time.Now}
}

// NewWithClock is New with a fixed clock, for testable examples.
func NewWithClock(w io.Writer, now func() time.Time) *Timeline {
	return &Timeline{w: w, start: now(), now: now}
}

// Step starts a numbered section with a title and an optional explanation:
// why the next requests are made.
func (t *Timeline) Step(title string, why ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.step++
	var b strings.Builder
	fmt.Fprintf(&b, "\n── Step %d: %s %s\n", t.step, title, strings.Repeat("─", max(3, 60-len(title))))
	for _, line := range why {
		fmt.Fprintf(&b, "   %s\n", line)
	}
	t.print(Row{Kind: KindStep, Step: t.step, Title: title, Why: why, Text: b.String()})
}

// Note prints an indented line of explanation, without a time stamp.
func (t *Timeline) Note(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	note := fmt.Sprintf(format, args...)
	t.print(Row{Kind: KindNote, Step: t.step, Detail: note, Text: fmt.Sprintf("   %s\n", note)})
}

// Event prints one timestamped row: layer, what happened, the object, and
// free-form detail.
func (t *Timeline) Event(layer, what, object, detail string) {
	t.EventWith(nil, layer, what, object, detail)
}

// The event columns' widths: what happened, then the object. A what wider
// than its column (AddRateLimited, ShutDownWithDrain) takes the room from
// the object's, so that the detail column still starts in the same place.
const (
	whatWidth   = 9
	objectWidth = 30
)

func objectColumn(what string) int {
	return max(0, objectWidth-max(0, len(what)-whatWidth))
}

// EventWith is Event with fields: the row's facts in a form a program can
// read without parsing the detail (the object's key, its resourceVersion,
// the handler). They are not printed; subscribers get them in Row.Fields.
func (t *Timeline) EventWith(fields map[string]string, layer, what, object, detail string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	offset := t.now().Sub(t.start)
	text := fmt.Sprintf("%+8.3fs  %-10s %-*s %-*s %s\n", offset.Seconds(), layer, whatWidth, what, objectColumn(what), object, detail)
	t.print(Row{Kind: KindEvent, Step: t.step, Offset: offset, Layer: layer, What: what, Object: object, Detail: detail, Fields: fields, Text: text})
}

// print writes a row and hands it to the subscribers, in that order and
// under the lock, so that every subscriber sees the rows in the order the
// terminal shows them.
func (t *Timeline) print(r Row) {
	io.WriteString(t.w, r.Text)
	for _, f := range t.subscribers {
		f(r)
	}
}
