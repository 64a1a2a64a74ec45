package demotest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/timeline"
)

// writeDelay is how long RunCausal holds back each write's answer: far
// longer than a watch event takes from the API server to the demo on
// loopback, so what the write causes is printed before the answer comes
// back.
const writeDelay = 150 * time.Millisecond

// RunCausal runs the demo as Run does, with every answer to a write (POST,
// PUT, PATCH, DELETE) held back by writeDelay before the demo's client
// sees it, and checks cause before effect on its timeline
// (timeline.CausesFirst): no row may name a resourceVersion before the
// write that produced it. A demo that prints a write when its call returns
// fails it: the events the write caused are printed during the wait. It
// fails the test too unless at least placed resourceVersions were placed,
// so that a demo that stopped marking its writes does not pass for want of
// anything to check. It returns the output.
func RunCausal(t *testing.T, opts demo.Options, script func(*demo.Env) error, placed int, want ...string) string {
	t.Helper()
	return RunCausalWithArgs(t, opts, nil, script, placed, want...)
}

// RunCausalWithArgs is RunCausal with the demo's own flags (stage 06's
// --queue).
func RunCausalWithArgs(t *testing.T, opts demo.Options, args []string, script func(*demo.Env) error, placed int, want ...string) string {
	t.Helper()
	return RunCausalTranscript(t, opts, args, script, placed, want...).Out
}

// RunCausalTranscript is RunCausalWithArgs returning the timeline's rows
// too.
func RunCausalTranscript(t *testing.T, opts demo.Options, args []string, script func(*demo.Env) error, placed int, want ...string) Transcript {
	t.Helper()
	held := func(env *demo.Env) error {
		if err := env.WrapTransport(holdWrites); err != nil {
			return err
		}
		return script(env)
	}
	tr := RunTranscript(t, opts, args, held, want...)
	CausesFirst(t, tr, placed)
	return tr
}

// CausesFirst checks a transcript's rows with timeline.CausesFirst, and
// that every write is printed in the one shape every demo prints writes in
// (WritesAnswered).
func CausesFirst(t *testing.T, tr Transcript, placed int) {
	t.Helper()
	n, violations := timeline.CausesFirst(tr.Rows)
	for _, v := range violations {
		t.Errorf("an effect before its cause: %s", v)
	}
	WritesAnswered(t, tr)
	if n < placed {
		t.Errorf("the timeline placed %d resourceVersions at the write (or the origin) that produced them, want %d or more: does the demo still print its writes with Send, or mark them with timeline.Origin?", n, placed)
	}
	if t.Failed() {
		t.Logf("the output:\n%s", tr.Out)
	}
}

// holdWrites delays the answer to every write by writeDelay.
func holdWrites(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(req)
		switch req.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
			sleep(req.Context(), writeDelay)
		}
		return resp, err
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// writeVerbs are the whats of a demo's own writes.
var writeVerbs = map[string]bool{"CREATE": true, "UPDATE": true, "PATCH": true, "LABEL": true, "DELETE": true}

// WritesAnswered checks that a transcript prints every write as every demo
// prints one: its request's row when it is sent (timeline.Send, or a row
// numbered with NewCall), then, once, its answer's, "← VERB" on the same
// object (Call.Answered), the resourceVersion it carries, if any, in it.
// A demo's own write printed on one row, or a request left unanswered
// (stage 06's DELETE was), fails it.
func WritesAnswered(t *testing.T, tr Transcript) {
	t.Helper()
	for _, p := range unansweredWrites(tr.Rows) {
		t.Error(p)
	}
}

// unansweredWrites is WritesAnswered's check: one sentence per write that
// is not printed as a request and its answer.
func unansweredWrites(rows []timeline.Row) []string {
	var problems []string
	requests := map[string]timeline.Row{} // call → its request's row
	answered := map[string]int{}
	var order []string
	for _, r := range rows {
		if r.Kind != timeline.KindEvent {
			continue
		}
		id := r.Fields[timeline.FieldCall]
		verb, answer := strings.CutPrefix(r.What, "← ")
		switch {
		case id == "" && r.Layer == "demo" && writeVerbs[r.What]:
			problems = append(problems, fmt.Sprintf("a write of the demo's printed on one row, not as a request and its answer: %q", strings.TrimSpace(r.Text)))
		case id == "":
		case !answer:
			requests[id] = r
			order = append(order, id)
		default:
			req, ok := requests[id]
			if !ok || req.What != verb || req.Object != r.Object || req.Layer != r.Layer {
				problems = append(problems, fmt.Sprintf("an answer that is not its request's (%q): %q", strings.TrimSpace(req.Text), strings.TrimSpace(r.Text)))
			}
			answered[id]++
		}
	}
	for _, id := range order {
		if answered[id] != 1 {
			problems = append(problems, fmt.Sprintf("a write answered %d times, want once: %q", answered[id], strings.TrimSpace(requests[id].Text)))
		}
	}
	return problems
}
