// Package timeline prints what a demo does as a timeline a person can read
// aloud in a workshop: the time since the demo started, the layer that acted,
// what it did, the object, and details such as the resourceVersion, in
// aligned columns.
//
//	+0.412s  listwatch   LIST       pods                         limit=2 → 2 items, continue=…
//	+0.431s  watch       ADDED      demo/pod-3                   rv=245
//	+0.502s  watch       ERROR      -                            410 Expired — the reflector will list again
//
// A row's detail has two parts. The protocol (verbs, keys,
// resourceVersions, field=value, an HTTP line) reads the same in every
// language; the explanation, after " — ", is said in the learner's
// language, as the steps and notes are. So is an object column of words
// rather than a name ("3 pods", "the informer's connection"):
//
//	+0.502s  watch       ERROR      -                            410 Expired — reflector 会重新 list
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
	"unicode/utf8"

	"informer-from-scratch/internal/lang"
)

// Timeline is safe for concurrent use: demos print from informer goroutines.
type Timeline struct {
	mu    sync.Mutex
	w     io.Writer
	start time.Time
	now   func() time.Time
	step  int
	// lang is the language the narration (Step, Note) and the words of the
	// event rows are printed in; a row's protocol reads the same in both.
	lang string
	// calls numbers the requests Send prints, to pair each with its answer.
	calls int

	subscribers map[int]func(Row)
	nextSub     int
}

// New returns a Timeline that writes to w, narrates in English and counts
// time from now.
func New(w io.Writer) *Timeline {
	return NewIn(w, lang.EN)
}

// NewIn is New narrating in language l (lang.EN or lang.ZH).
func NewIn(w io.Writer, l string) *Timeline {
	return &Timeline{w: w, start: time.Now(), now: time.Now, lang: l}
}

// NewWithClock is New with a fixed clock, for testable examples.
func NewWithClock(w io.Writer, now func() time.Time) *Timeline {
	return &Timeline{w: w, start: now(), now: now, lang: lang.EN}
}

// SetLanguage makes the narration from now on be printed in language l.
func (t *Timeline) SetLanguage(l string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lang = l
}

// Language is the language the timeline narrates in.
func (t *Timeline) Language() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lang
}

// Sprintf is format in the timeline's language: for the narrated words a
// demo puts together itself (a cell of a table it prints as notes).
func (t *Timeline) Sprintf(format lang.Text, args ...any) string {
	return format.Sprintf(t.Language(), args...)
}

// Step starts a numbered section with a title and an optional explanation:
// why the next requests are made. Each explanation may hold several lines.
func (t *Timeline) Step(title lang.Text, why ...lang.Text) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var lines []string
	for _, w := range why {
		lines = append(lines, w.Lines(t.lang)...)
	}
	t.printStep(title.In(t.lang), lines, &title, why)
}

// StepEN is Step in English only, for tests and the scripted runs that
// draw the chapters' sequence diagrams, whose notes are English in both
// languages' chapters. A demo never calls it: the narration parity test
// (internal/demo) refuses it in a demo's code.
func (t *Timeline) StepEN(title string, why ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.printStep(title, why, nil, nil)
}

// stepPrefix is what comes before a step's title, and how much wider
// than the English one it is: the rule after the title is shortened by as
// much, so that headings end in the same column in both languages.
func stepPrefix(l string, n int) (prefix string, wider int) {
	if l == lang.ZH {
		return fmt.Sprintf("第 %d 步：", n), 1
	}
	return fmt.Sprintf("Step %d: ", n), 0
}

func (t *Timeline) printStep(title string, why []string, titleText *lang.Text, whyText []lang.Text) {
	t.step++
	prefix, wider := stepPrefix(t.lang, t.step)
	if titleText == nil {
		prefix, wider = stepPrefix(lang.EN, t.step)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n── %s%s %s\n", prefix, title, strings.Repeat("─", max(3, 60-wider-lang.Width(title))))
	for _, line := range why {
		fmt.Fprintf(&b, "   %s\n", line)
	}
	t.print(Row{Kind: KindStep, Step: t.step, Title: title, Why: why, TitleText: titleText, WhyText: whyText, Text: b.String()})
}

// Note prints an indented explanation, without a time stamp: format in the
// timeline's language, with args. It may hold several lines.
func (t *Timeline) Note(format lang.Text, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.printNote(format.Sprintf(t.lang, args...))
}

// NoteEN is Note in English only, for tests and diagrams: see StepEN.
func (t *Timeline) NoteEN(format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.printNote(fmt.Sprintf(format, args...))
}

func (t *Timeline) printNote(note string) {
	var b strings.Builder
	for _, line := range strings.Split(note, "\n") {
		fmt.Fprintf(&b, "   %s\n", line)
	}
	t.print(Row{Kind: KindNote, Step: t.step, Detail: note, Text: b.String()})
}

// Event prints one timestamped row: layer, what happened, the object, and
// the detail: its protocol, the same in every language, then what why
// says of it, in the timeline's language (Explains).
func (t *Timeline) Event(layer, what, object, protocol string, why ...lang.Text) {
	t.EventWith(nil, layer, what, object, protocol, why...)
}

// Explains is what separates a row's explanation from its protocol, in
// every language: a reader, and a test comparing two languages' rows,
// find the protocol before it.
const Explains = " — "

// explanation is the row's why said in both languages, several joined
// as a sentence's clauses; nil for none.
func explanation(why []lang.Text) *lang.Text {
	if len(why) == 0 {
		return nil
	}
	var en, zh []string
	for _, w := range why {
		en, zh = append(en, w.EN), append(zh, w.ZH)
	}
	return &lang.Text{EN: strings.Join(en, "; "), ZH: strings.Join(zh, "；")}
}

// detail is a row's last column in language l: protocol, then the
// explanation after Explains.
func detail(l, protocol string, why *lang.Text) string {
	if why == nil {
		return protocol
	}
	return strings.TrimSpace(protocol + Explains + why.In(l))
}

// The event columns' widths: what happened, then the object. A what wider
// than its column (AddRateLimited, ShutDownWithDrain) takes the room from
// the object's, so that the detail column still starts in the same place.
const (
	whatWidth   = 9
	objectWidth = 30
)

func objectColumn(what string) int {
	return max(0, objectWidth-max(0, utf8.RuneCountInString(what)-whatWidth))
}

// EventWith is Event with fields: the row's facts in a form a program can
// read without parsing the detail (the object's key, its resourceVersion,
// the handler). They are not printed; subscribers get them in Row.Fields.
func (t *Timeline) EventWith(fields map[string]string, layer, what, object, protocol string, why ...lang.Text) {
	t.event(fields, layer, what, object, nil, protocol, why)
}

// EventAbout is EventWith for a row whose object column is words rather
// than a name or a key: a count ("3 pods"), a description ("the
// informer's connection"). It is said in the timeline's language.
func (t *Timeline) EventAbout(fields map[string]string, layer, what string, object lang.Text, protocol string, why ...lang.Text) {
	t.event(fields, layer, what, "", &object, protocol, why)
}

func (t *Timeline) event(fields map[string]string, layer, what, object string, objectText *lang.Text, protocol string, why []lang.Text) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if objectText != nil {
		object = objectText.In(t.lang)
	}
	said := explanation(why)
	d := detail(t.lang, protocol, said)
	offset := t.now().Sub(t.start)
	// The object may be Chinese: padded to its width in columns, so that
	// the detail starts where every other row's does.
	text := fmt.Sprintf("%+8.3fs  %-10s %-*s %s %s", offset.Seconds(), layer, whatWidth, what, lang.Pad(object, objectColumn(what)), d)
	text = strings.TrimRight(text, " ") + "\n" // a row without detail ends at its object
	t.print(Row{Kind: KindEvent, Step: t.step, Offset: offset, Layer: layer, What: what, Object: object, ObjectText: objectText,
		Detail: d, Protocol: protocol, Explanation: said, Fields: fields, Text: text})
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
