// Not a mirror of client-go: the demo's window on the controller. Every
// observe.Step (and every write of the stand-in) becomes a timeline row,
// and is kept, so that the script can wait until the step it set off has
// happened and the controller has gone quiet. A write is two rows, as every
// demo prints one: its request when it is sent, and its answer ("← VERB",
// the resourceVersion it carries or its error) when it comes back; both
// carry the fields that pair them (timeline.FieldCall, FieldRV), so that
// timeline.CausesFirst can check that no event's row comes before the
// write that made its resourceVersion. A row's words (the explanation
// after its protocol) are said in the learner's language: observe's
// Details are English, and rowWords says them in both.

package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/standin"
	"informer-from-scratch/internal/timeline"
)

// layerStandin is the layer of the stand-in's rows.
const layerStandin = "standin"

// trace prints and keeps what the controller and the stand-in did.
type trace struct {
	tl    *timeline.Timeline
	dirty func() int64 // the workqueue's depth metric: the keys marked dirty

	mu    sync.Mutex
	steps []observe.Step
	last  time.Time // when the last step came
	// calls are the writes sent and not yet answered, by who sent them
	// (see writer): the number timeline.NewCall gave each request's row.
	calls map[string]string
}

// observe is the controller's Observer: it runs on the informers' handler
// goroutines and on the workers, so it only prints and appends.
func (t *trace) observe(s observe.Step) {
	dirty := t.dirty()
	f := t.fields(s, dirty)
	what := s.Op
	if s.Layer == observe.LayerWrite && s.Op != "EVENT" { // an Event is recorded, not answered
		t.pair(f, writer(s), s.Sent, answeredRV(s.Detail))
		if !s.Sent {
			what = timeline.Answer(s.Op)
		}
	}
	protocol, why := t.detail(s, dirty)
	t.tl.EventWith(f, s.Layer, what, object(s), protocol, why...)
	t.keep(s)
}

// standin is the stand-in's OnAction: its writes are rows too, saying whose
// part it plays, and their answers.
func (t *trace) standin(a standin.Action) {
	s := observe.Step{Layer: layerStandin, Op: a.What, Object: a.Object, Detail: a.Detail, Len: -1}
	f := map[string]string{}
	t.pair(f, writer(s), !a.Answer, a.RV)
	switch {
	case a.Answer && a.Err != nil:
		t.tl.EventWith(f, s.Layer, timeline.Answer(a.What), a.Object, "error: "+shorten(a.Err.Error()), sayNotWritten)
	case a.Answer && a.RV != "":
		t.tl.EventWith(f, s.Layer, timeline.Answer(a.What), a.Object, "rv="+a.RV)
	case a.Answer:
		t.tl.EventWith(f, s.Layer, timeline.Answer(a.What), a.Object, "")
	case a.What == "DELETE":
		t.tl.EventWith(f, s.Layer, a.What, a.Object, "", sayGarbageCollected.Format(a.Owner))
	default:
		t.tl.EventWith(f, s.Layer, a.What, a.Object, fmt.Sprintf("availableReplicas=%d", a.Replicas), sayDeploymentControllers)
	}
	t.keep(s)
}

// send prints the request row of a write of the demo's own as it is sent,
// before the call (the events it causes may arrive before its answer), and
// returns what prints its answer, "← VERB" and the resourceVersion it
// carries ("" for none), on a row like it.
func (t *trace) send(op, object, protocol string, why ...lang.Text) (answered func(rv string)) {
	s := observe.Step{Layer: "demo", Op: op, Object: object}
	f := map[string]string{}
	t.pair(f, writer(s), true, "")
	t.tl.EventWith(f, s.Layer, op, object, protocol, why...)
	return func(rv string) {
		f := map[string]string{}
		t.pair(f, writer(s), false, rv)
		detail := ""
		if rv != "" {
			detail = "rv=" + rv
		}
		t.tl.EventWith(f, s.Layer, timeline.Answer(op), object, detail)
	}
}

// writer names who sent a write: each sender (a worker, the stand-in, the
// script) has one write of an object in flight at a time, so its request
// and its answer share the name.
func writer(s observe.Step) string {
	return fmt.Sprintf("%s|%s|%s|%d", s.Layer, s.Op, s.Object, s.Worker)
}

// answeredRVOf finds the resourceVersion in the Detail of a write's answer
// as observe says it: "spec.replicas=3 → rv=42".
var answeredRVOf = regexp.MustCompile(`→ rv=(\d+)`)

// answeredRV is the resourceVersion a write's answer reports, "" for none.
func answeredRV(detail string) string {
	if m := answeredRVOf.FindStringSubmatch(detail); m != nil {
		return m[1]
	}
	return ""
}

// pair sets the fields timeline.CausesFirst pairs a write's rows by: a new
// call number on its request's row, the same on its answer's, with the
// resourceVersion rv the answer carries. An answer to no request (none is
// known) gets none.
func (t *trace) pair(f map[string]string, who string, request bool, rv string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.calls == nil {
		t.calls = map[string]string{}
	}
	if request {
		t.calls[who] = t.tl.NewCall()
		f[timeline.FieldCall] = t.calls[who]
		return
	}
	id, ok := t.calls[who]
	if !ok {
		return
	}
	delete(t.calls, who)
	f[timeline.FieldCall] = id
	if rv != "" {
		f[timeline.FieldRV] = rv
	}
}

func (t *trace) keep(s observe.Step) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.steps = append(t.steps, s)
	t.last = time.Now()
}

// object is a row's object column: the key for the workqueue and the
// workers (only keys travel there), the object touched otherwise.
func object(s observe.Step) string {
	switch {
	case s.Layer == observe.LayerQueue || s.Layer == observe.LayerWorker:
		return s.Key
	case s.Object != "":
		return s.Object
	}
	return s.Key
}

// detail is a row's last column: which worker, the queue's length and dirty
// set after a queue step, the requeue count, what the step read or wrote,
// the error; then what it means, in the learner's language (rowWords).
func (t *trace) detail(s observe.Step, dirty int64) (string, []lang.Text) {
	var parts []string
	var why []lang.Text
	if s.Worker > 0 {
		parts = append(parts, fmt.Sprintf("worker %d", s.Worker))
	}
	if s.Layer == observe.LayerHandler && s.Key != "" && strings.HasPrefix(s.Object, "Deployment ") {
		parts = append(parts, "key "+s.Key)
	}
	if s.Op == "AddRateLimited" {
		parts = append(parts, fmt.Sprintf("requeue %d", s.Requeues))
		if !strings.HasPrefix(s.Detail, "dropped") { // dropped, the delay would have been s.Delay
			why = append(why, sayBackIn.Format(s.Delay))
		}
	}
	if s.Len >= 0 {
		parts = append(parts, fmt.Sprintf("len=%d dirty=%d", s.Len, dirty))
	}
	d := s.Detail
	if s.Layer == observe.LayerWrite && !s.Sent && s.Op != "EVENT" {
		d = "" // the answer's row: its resourceVersion, or its error
		if rv := answeredRV(s.Detail); rv != "" {
			d = "rv=" + rv
		}
	}
	if p, w := rowDetail(s, d); p != "" || w != nil {
		if p != "" {
			parts = append(parts, p)
		}
		if w != nil {
			why = append(why, *w)
		}
	}
	if s.Err != nil {
		parts = append(parts, "error: "+shorten(s.Err.Error()))
	}
	return strings.Join(parts, "; "), why
}

// rowDetail splits an observe Detail, d, into protocol and words: the
// words of rowWords said in the learner's language, the few Details that
// hold a number or a name read back from observe's English.
func rowDetail(s observe.Step, d string) (string, *lang.Text) {
	if w, ok := rowWords[d]; ok {
		return "", &w
	}
	var n int
	switch {
	case s.Layer == observe.LayerController && s.Op == "Workers":
		if _, err := fmt.Sscanf(d, "%d workers started", &n); err == nil {
			w := sayWorkersStarted.Format(n)
			return "", &w
		}
	case s.Layer == observe.LayerController && s.Op == "DrainTimeout":
		if after, ok := strings.CutPrefix(d, "reconciles still running after "); ok {
			w := sayDrainTimedOut.Format(strings.TrimSuffix(after, ": cancelled"))
			return "", &w
		}
	case s.Layer == observe.LayerHandler:
		if rv, foo, ok := strings.Cut(d, ", controlled by Foo "); ok {
			w := sayControlledBy.Format(foo)
			return rv, &w
		}
		var typ string
		if _, err := fmt.Sscanf(d, "got %s not an object", &typ); err == nil {
			w := sayNotAnObject.Format(strings.TrimSuffix(typ, ":"))
			return "", &w
		}
	}
	return d, nil
}

// shorten keeps an error's first line, and not too much of it.
func shorten(msg string) string {
	msg, _, _ = strings.Cut(msg, "\n")
	if len(msg) > 90 {
		msg = msg[:87] + "..."
	}
	return msg
}

// mark is where the script's next wait starts looking.
func (t *trace) mark() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.steps)
}

// since returns the steps kept from mark on.
func (t *trace) since(mark int) []observe.Step {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]observe.Step(nil), t.steps[mark:]...)
}

// match is one thing the script waits to see.
type match func(observe.Step) bool

// quiet is how long nothing must happen before the controller counts as
// idle: long beside a reconcile (milliseconds on the playground), short
// for a person.
const quiet = 400 * time.Millisecond

// waitFor waits, up to timeout, until the steps since mark include each of
// wants in that order, then until nothing has happened for quietFor, so that
// the next step of the script starts on an idle controller and its rows do
// not mix with this one's.
// A quietFor of 0 returns as soon as wants are seen.
func (t *trace) waitFor(ctx context.Context, timeout time.Duration, what string, mark int, quietFor time.Duration, wants ...match) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if t.seen(mark, wants) && t.idleFor() >= quietFor {
			return nil
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			if context.Cause(ctx) == context.DeadlineExceeded {
				return fmt.Errorf("%s: not seen within %v", what, timeout)
			}
			return ctx.Err()
		}
	}
}

// seen reports whether the steps since mark include wants in order.
func (t *trace) seen(mark int, wants []match) bool {
	i := 0
	for _, s := range t.since(mark) {
		if i < len(wants) && wants[i](s) {
			i++
		}
	}
	return i == len(wants)
}

func (t *trace) idleFor() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	return time.Since(t.last)
}

// The matches the script waits for.

// wrote matches a successful write (op CREATE, UPDATE) to object whose
// detail contains detail.
func wrote(op, object, detail string) match {
	return func(s observe.Step) bool {
		return s.Layer == observe.LayerWrite && !s.Sent && s.Op == op && s.Object == object && s.Err == nil && strings.Contains(s.Detail, detail)
	}
}

// handled matches a handler call op about object.
func handled(op, object string) match {
	return func(s observe.Step) bool {
		return s.Layer == observe.LayerHandler && strings.HasPrefix(s.Op, op) && s.Object == object
	}
}

// workerTook matches a worker starting a reconcile of key.
func workerTook(key string) match {
	return func(s observe.Step) bool {
		return s.Layer == observe.LayerWorker && s.Op == "sync" && s.Key == key
	}
}
