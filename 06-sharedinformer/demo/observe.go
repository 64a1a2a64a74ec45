// Not a mirror of client-go: the demo's reading of the informer's Observer
// stream (06-sharedinformer/observe.go), printed as timeline rows, one per
// step, tagged with the layer that took it; and kept, so that each step of
// the script can wait for what it caused.

package main

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"informer-from-scratch/06-sharedinformer/observe"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

// trail prints every observation it is given and remembers it.
type trail struct {
	tl *timeline.Timeline
	// quiet, on a real cluster, prints only the first rows of each layer
	// for objects: there may be thousands of pods.
	quiet bool

	mu      sync.Mutex
	seen    []observe.Observation
	printed map[observe.Layer]int
	changed chan struct{}
}

func newTrail(tl *timeline.Timeline, quiet bool) *trail {
	return &trail{tl: tl, quiet: quiet, printed: map[observe.Layer]int{}, changed: make(chan struct{})}
}

// observe is the informer's Observer. It runs on the informer's goroutines
// and only prints and appends, so it returns at once.
func (t *trail) observe(o observe.Observation) {
	// Printed under the lock, so rows come out in the order the steps
	// happened: a handler's row before anything its call causes.
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seen = append(t.seen, o)
	close(t.changed)
	t.changed = make(chan struct{})
	if !t.quiet || o.Key == "" || t.printed[o.Layer] < 6 {
		protocol, why := detail(o)
		if pods, ok := count(o); ok {
			t.tl.EventAbout(fields(o), string(o.Layer), o.Op, sayPods.Format(pods), protocol, why...)
		} else {
			t.tl.EventWith(fields(o), string(o.Layer), o.Op, object(o), protocol, why...)
		}
	}
	t.printed[o.Layer]++
}

func object(o observe.Observation) string {
	if o.Key != "" {
		return o.Key
	}
	return "-"
}

// count is the number of objects of a step on a whole list (a Replace, a
// ReplacedAll): its object column, "3 pods".
func count(o observe.Observation) (int, bool) {
	n, ok := strings.CutSuffix(o.Detail, " objects")
	if o.Key != "" || !ok {
		return 0, false
	}
	pods, err := strconv.Atoi(n)
	return pods, err == nil
}

// The words observe's Details hold, which a row says in the learner's
// language: "in a batch of 3", "in a transaction of 3".
var (
	inBatch       = regexp.MustCompile(`^(.*?) ?in a batch of (\d+)$`)
	inTransaction = regexp.MustCompile(`^(.*?) ?in a transaction of (\d+)$`)
)

// detail is a row's last column: the handler, the resourceVersion (an
// update's old one first), the deltas of a DeltaFIFO item, the flags,
// then what they mean, in the learner's language.
func detail(o observe.Observation) (string, []lang.Text) {
	var parts []string
	var why []lang.Text
	if o.Handler != "" {
		parts = append(parts, o.Handler+":")
	}
	d := o.Detail
	if m := inBatch.FindStringSubmatch(d); m != nil {
		n, _ := strconv.Atoi(m[2])
		d, why = m[1], append(why, sayInBatch.Format(n))
	}
	if m := inTransaction.FindStringSubmatch(d); m != nil {
		n, _ := strconv.Atoi(m[2])
		d, why = m[1], append(why, sayInTransaction.Format(n))
	}
	rv := ""
	if o.ResourceVersion != "" {
		rv = "rv=" + o.ResourceVersion
	}
	if old, ok := strings.CutPrefix(d, "from rv "); ok { // an update
		rv, d = "rv="+old+" → "+rv, ""
	}
	if rv != "" {
		parts = append(parts, rv)
	}
	switch {
	case o.Key == "" && strings.HasSuffix(d, " objects"):
	case d == "tombstone":
		parts = append(parts, "DeletedFinalStateUnknown")
		why = append([]lang.Text{sayTombstone}, why...)
	case d != "":
		parts = append(parts, d)
	}
	if o.InitialList {
		parts = append(parts, "isInInitialList=true")
	}
	if o.Sync {
		why = append([]lang.Text{saySync}, why...)
	}
	if o.Err != nil {
		parts = append(parts, "error: "+o.Err.Error())
	}
	return strings.Join(parts, " "), why
}

// calls counts the calls of handler seen so far (each as it began).
func (t *trail) calls(handler string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, o := range t.seen {
		if o.Layer == observe.LayerHandler && o.Handler == handler {
			n++
		}
	}
	return n
}

// mark returns a position to wait from.
func (t *trail) mark() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.seen)
}

// waitFor waits until an observation after position since matches. Every
// wait has a deadline: the demo must end by itself even if the cluster
// misbehaves.
func (t *trail) waitFor(ctx context.Context, since int, what string, match func(observe.Observation) bool) error {
	deadline := time.After(30 * time.Second)
	for {
		t.mu.Lock()
		for _, o := range t.seen[since:] {
			if match(o) {
				t.mu.Unlock()
				return nil
			}
		}
		since = len(t.seen)
		changed := t.changed
		t.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline:
			return fmt.Errorf("waited 30s for %s", what)
		}
	}
}

// step matches an observation by layer, op and key ("" matches any key).
func step(layer observe.Layer, op, key string) func(observe.Observation) bool {
	return func(o observe.Observation) bool {
		return o.Layer == layer && o.Op == op && (key == "" || o.Key == key)
	}
}
