// Package timeline prints what a demo does as a timeline a person can read
// aloud in a workshop: the time since the demo started, the layer that acted,
// what it did, the object, and details such as the resourceVersion, in
// aligned columns.
//
//	+0.412s  listwatch   LIST       pods                         limit=2 → 2 items, continue=…
//	+0.431s  watch       ADDED      demo/pod-3                   rv=245
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
	fmt.Fprintf(t.w, "\n── Step %d: %s %s\n", t.step, title, strings.Repeat("─", max(3, 60-len(title))))
	for _, line := range why {
		fmt.Fprintf(t.w, "   %s\n", line)
	}
}

// Note prints an indented line of explanation, without a time stamp.
func (t *Timeline) Note(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.w, "   %s\n", fmt.Sprintf(format, args...))
}

// Event prints one timestamped row: layer, what happened, the object, and
// free-form detail.
func (t *Timeline) Event(layer, what, object, detail string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	offset := t.now().Sub(t.start).Seconds()
	fmt.Fprintf(t.w, "%+8.3fs  %-10s %-9s %-30s %s\n", offset, layer, what, object, detail)
}
