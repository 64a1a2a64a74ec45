package timeline

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"informer-from-scratch/internal/lang"
)

// A learner reads a timeline top to bottom as causality: the write, then
// the watch event it caused, then what the informer did with it. A row
// printed when a call returns breaks that, since the events the write
// caused may have been printed meanwhile by another goroutine. So a write
// is printed when it is sent (Send), and its answer, the resourceVersion
// the server gave it, on a row of its own when it comes back (Answered):
//
//	+0.135s  demo       CREATE    stage02/web-4
//	+0.141s  watch      ADDED     stage02/web-4                  rv=74
//	+0.141s  store      Add       stage02/web-4                  rv=74
//	+0.142s  demo       ← CREATE  stage02/web-4                  rv=74
//
// CausesFirst checks a timeline's rows against that rule.

// The Fields keys that carry causality.
const (
	// FieldCall pairs a request's row (Send) with its answer's (Answered).
	FieldCall = "call"
	// FieldRV is the resourceVersion an answer carries: the write's.
	FieldRV = "rv"
	// FieldOrigin marks the row where a resourceVersion enters the
	// timeline when no Send row does: a write printed after its call
	// returned by a script that reads the events it causes only afterwards
	// (stage 01's, 03's), or an informer's row for an event it is about to
	// hand to handlers (stage 05's).
	FieldOrigin = "origin"
)

// Origin is the Fields of a row that is where rv enters the timeline
// (FieldOrigin), for EventWith.
func Origin(rv string) map[string]string { return map[string]string{FieldOrigin: rv} }

// Call is a request printed as it was sent, whose answer is still to come.
type Call struct {
	t                   *Timeline
	id                  string
	layer, what, object string
}

// Send prints the row of a request as it goes out, before the call: what
// it causes can only be printed after it. Call Answered when it returns.
// Every demo prints its writes so, the request's row then its answer's.
func (t *Timeline) Send(layer, what, object, protocol string, why ...lang.Text) *Call {
	id := t.NewCall()
	t.EventWith(map[string]string{FieldCall: id}, layer, what, object, protocol, why...)
	return &Call{t: t, id: id, layer: layer, what: what, object: object}
}

// NewCall numbers a request that a demo prints with EventWith rather than
// with Send and Answered, in the same shape (stage 08's writes, whose rows
// a tracer makes: the request's, then "← VERB" and the answer's
// resourceVersion). The demo puts the number under FieldCall in both
// rows' Fields, and the answer's resourceVersion under FieldRV in the
// second's, and CausesFirst pairs them as it pairs Send's.
func (t *Timeline) NewCall() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.calls++
	return strconv.Itoa(t.calls)
}

// Answered prints the answer to the call: "← " and the request's verb, the
// same object, and rv, the resourceVersion the server gave the write ("" if
// the answer carries none), then protocol and why, as Event's. The rows of the events the write
// caused name that rv, and may come before this one: the server sends the
// answer and the watch events on two connections.
func (c *Call) Answered(rv, protocol string, why ...lang.Text) {
	fields := map[string]string{FieldCall: c.id}
	p := protocol
	if rv != "" {
		fields[FieldRV] = rv
		p = strings.TrimSpace("rv=" + rv + " " + protocol)
	}
	c.t.EventWith(fields, c.layer, Answer(c.what), c.object, p, why...)
}

// Answer is the what of a request's answer row: "← " and the request's.
func Answer(what string) string { return "← " + what }

// namedRV finds the resourceVersions an event row's detail names: "rv=74",
// "rv=68 → rv=75".
var namedRV = regexp.MustCompile(`\brv=(\d+)\b`)

// CausesFirst checks that no event row names a resourceVersion before the
// row where it entered the timeline: the request row of the write whose
// answer carried it, or a row marked with Origin. It returns how many
// resourceVersions it could place (a demo's test checks the rule had
// something to check) and one sentence per row that came too early.
func CausesFirst(rows []Row) (placed int, violations []string) {
	origin := map[string]int{} // rv → index of the row where it entered
	sent := map[string]int{}   // call → index of its request row
	for i, r := range rows {
		if r.Kind != KindEvent {
			continue
		}
		if id := r.Fields[FieldCall]; id != "" {
			if _, ok := sent[id]; !ok {
				sent[id] = i
			}
			if rv := r.Fields[FieldRV]; rv != "" {
				setEarliest(origin, rv, sent[id])
			}
		}
		if rv := r.Fields[FieldOrigin]; rv != "" {
			setEarliest(origin, rv, i)
		}
	}
	for i, r := range rows {
		if r.Kind != KindEvent {
			continue
		}
		for _, m := range namedRV.FindAllStringSubmatch(r.Detail, -1) {
			if o, ok := origin[m[1]]; ok && i < o {
				violations = append(violations, fmt.Sprintf("row %d %q names rv=%s before row %d %q, where it entered the timeline (the write, or its origin)",
					i, strings.TrimSpace(r.Text), m[1], o, strings.TrimSpace(rows[o].Text)))
			}
		}
	}
	return len(origin), violations
}

func setEarliest(m map[string]int, k string, i int) {
	if j, ok := m[k]; !ok || i < j {
		m[k] = i
	}
}
