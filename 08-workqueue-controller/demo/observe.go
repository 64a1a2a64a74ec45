// Not a mirror of client-go: the demo's window on the controller. Every
// observe.Step (and every write of the stand-in) becomes a timeline row,
// and is kept, so that the script can wait until the step it set off has
// happened and the controller has gone quiet.

package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/standin"
	"informer-from-scratch/internal/timeline"
)

// layerStandin is the layer of the stand-in's rows.
const layerStandin = "standin"

// trace prints and keeps what the controller and the stand-in did.
type trace struct {
	tl    *timeline.Timeline
	dirty func() int64 // the workqueue's depth metric: the keys marked dirty

	// shuttingDown is set once the controller has begun its shutdown:
	// from then on the queue drops every Add.
	shuttingDown atomic.Bool

	mu    sync.Mutex
	steps []observe.Step
	last  time.Time // when the last step came
}

// observe is the controller's Observer: it runs on the informers' handler
// goroutines and on the workers, so it only prints and appends.
func (t *trace) observe(s observe.Step) {
	if s.Layer == observe.LayerController && s.Op == "ShutDownWithDrain" {
		t.shuttingDown.Store(true)
	}
	dirty := t.dirty()
	t.tl.EventWith(t.fields(s, dirty), s.Layer, s.Op, object(s), t.detail(s, dirty))
	t.keep(s)
}

// standin is the stand-in's OnAction: its writes are rows too, saying whose
// part it plays.
func (t *trace) standin(a standin.Action) {
	s := observe.Step{Layer: layerStandin, Op: a.What, Object: a.Object, Detail: a.Detail, Len: -1}
	t.tl.Event(s.Layer, s.Op, s.Object, s.Detail)
	t.keep(s)
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
// set after a queue step, the delay the rate limiter chose, the error.
func (t *trace) detail(s observe.Step, dirty int64) string {
	var parts []string
	if s.Worker > 0 {
		parts = append(parts, fmt.Sprintf("worker %d", s.Worker))
	}
	if s.Layer == observe.LayerHandler && s.Key != "" && strings.HasPrefix(s.Object, "Deployment ") {
		parts = append(parts, "key "+s.Key)
	}
	if s.Op == "AddRateLimited" {
		parts = append(parts, fmt.Sprintf("requeue %d: back in %v", s.Requeues, s.Delay))
	}
	if s.Len >= 0 {
		parts = append(parts, fmt.Sprintf("len=%d dirty=%d", s.Len, dirty))
	}
	switch {
	case s.Sent && s.Detail != "":
		parts = append(parts, "sent: "+s.Detail)
	case s.Sent:
		parts = append(parts, "sent")
	case s.Detail != "":
		parts = append(parts, s.Detail)
	}
	if s.Err != nil {
		parts = append(parts, "error: "+shorten(s.Err.Error()))
	}
	return strings.Join(parts, "; ")
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
