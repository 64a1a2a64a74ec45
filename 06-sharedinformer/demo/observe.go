// Not a mirror of client-go: the demo's reading of the informer's Observer
// stream (06-sharedinformer/observe.go), printed as timeline rows, one per
// step, tagged with the layer that took it; and kept, so that each step of
// the script can wait for what it caused.

package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"informer-from-scratch/06-sharedinformer/observe"
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
		t.tl.EventWith(fields(o), string(o.Layer), o.Op, object(o), detail(o))
	}
	t.printed[o.Layer]++
}

func object(o observe.Observation) string {
	if o.Key != "" {
		return o.Key
	}
	if n, ok := strings.CutSuffix(o.Detail, " objects"); ok {
		return n + " pods"
	}
	return "-"
}

func detail(o observe.Observation) string {
	var parts []string
	if o.Handler != "" {
		parts = append(parts, o.Handler+":")
	}
	if o.ResourceVersion != "" {
		parts = append(parts, "rv="+o.ResourceVersion)
	}
	switch {
	case o.Key == "" && strings.HasSuffix(o.Detail, " objects"):
	case o.Detail == "tombstone":
		parts = append(parts, "DeletedFinalStateUnknown (deleted while no watch was open)")
	case o.Detail != "":
		parts = append(parts, o.Detail)
	}
	if o.InitialList {
		parts = append(parts, "isInInitialList=true")
	}
	if o.Sync {
		parts = append(parts, "(same rv: a sync)")
	}
	if o.Err != nil {
		parts = append(parts, "error: "+o.Err.Error())
	}
	return strings.Join(parts, " ")
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
