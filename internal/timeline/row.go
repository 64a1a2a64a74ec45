package timeline

import (
	"time"

	"informer-from-scratch/internal/lang"
)

// Kind says which call printed a Row.
type Kind string

// The kinds of row: Step, Note and Event (or EventWith).
const (
	KindStep  Kind = "step"
	KindNote  Kind = "note"
	KindEvent Kind = "event"
)

// Row is one thing a Timeline printed, as its subscribers receive it.
type Row struct {
	Kind Kind `json:"kind"`
	// Step is the number of the step the row belongs to (0 before the first).
	Step int `json:"step"`
	// Title and Why are a step's, as printed: in the timeline's language,
	// one string per line of the explanation.
	Title string   `json:"title,omitempty"`
	Why   []string `json:"why,omitempty"`
	// TitleText and WhyText are the same in both languages, for a page
	// that switches language (nil for a step printed with StepEN, which
	// only tests and diagrams use).
	TitleText *lang.Text  `json:"titleText,omitempty"`
	WhyText   []lang.Text `json:"whyText,omitempty"`
	// Offset, Layer, What and Object are an event's columns, as printed;
	// Detail is an event's last column, as printed, or a note's text.
	Offset time.Duration `json:"offset,omitempty"`
	Layer  string        `json:"layer,omitempty"`
	What   string        `json:"what,omitempty"`
	Object string        `json:"object,omitempty"`
	Detail string        `json:"detail,omitempty"`
	// An event's detail is its protocol, the same in every language, and
	// its explanation, said in the timeline's language after Explains.
	// Protocol is the first, Explanation the second in both languages
	// (nil when the row explains nothing). ObjectText is the object in
	// both languages when it is words rather than a name (EventAbout).
	Protocol    string     `json:"protocol,omitempty"`
	Explanation *lang.Text `json:"explanation,omitempty"`
	ObjectText  *lang.Text `json:"objectText,omitempty"`
	// Fields are what EventWith was given; nil for rows printed otherwise.
	Fields map[string]string `json:"fields,omitempty"`
	// Text is exactly what was printed, newlines included.
	Text string `json:"text"`
}

// Subscribe calls f with every row printed from now on, until the returned
// function is called. f runs under the timeline's lock, in the order the
// rows are printed: it must return quickly, must not block, and must not
// print on this timeline.
func (t *Timeline) Subscribe(f func(Row)) (unsubscribe func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.subscribers == nil {
		t.subscribers = map[int]func(Row){}
	}
	id := t.nextSub
	t.nextSub++
	t.subscribers[id] = f
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		delete(t.subscribers, id)
	}
}
