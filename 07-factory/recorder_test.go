package factory_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"
)

// recorder is an event handler for either library (their
// ResourceEventHandler interfaces have the same methods): it records every
// call as a line, and keeps the state the calls add up to (key → rv), so a
// test can wait until a handler has caught up with the server.
type recorder struct {
	// start, if set, stamps each call with the time since (fake time, in
	// testing/synctest, where it is exact).
	start time.Time

	mu      sync.Mutex
	calls   []string
	state   map[string]string
	changed chan struct{}
}

func newRecorder() *recorder {
	return &recorder{state: map[string]string{}, changed: make(chan struct{})}
}

func (r *recorder) OnAdd(obj any, isInInitialList bool) {
	k, rv := keyAndRV(obj)
	line := fmt.Sprintf("add %s@%s", k, rv)
	if isInInitialList {
		line += " (initial list)"
	}
	r.record(line, k, rv)
}

func (r *recorder) OnUpdate(oldObj, newObj any) {
	k, rv := keyAndRV(newObj)
	_, oldRV := keyAndRV(oldObj)
	r.record(fmt.Sprintf("update %s@%s→%s", k, oldRV, rv), k, rv)
}

func (r *recorder) OnDelete(obj any) {
	line := ""
	var k string
	switch d := obj.(type) {
	case cache.DeletedFinalStateUnknown:
		k, line = d.Key, "delete "+d.Key+" (tombstone)"
	case informer.DeletedFinalStateUnknown:
		k, line = d.Key, "delete "+d.Key+" (tombstone)"
	default:
		var rv string
		k, rv = keyAndRV(obj)
		line = fmt.Sprintf("delete %s@%s", k, rv)
	}
	r.record(line, k, "")
}

func (r *recorder) record(line, key, rv string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.start.IsZero() {
		line = fmt.Sprintf("%v %s", time.Since(r.start), line)
	}
	r.calls = append(r.calls, line)
	if rv == "" {
		delete(r.state, key)
	} else {
		r.state[key] = rv
	}
	close(r.changed)
	r.changed = make(chan struct{})
}

// snapshot returns the calls with the initial list's adds sorted: a
// WatchList stream's order comes from a map on the server.
func (r *recorder) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Clone(r.calls)
	n := 0
	for n < len(out) && strings.HasSuffix(out[n], "(initial list)") {
		n++
	}
	slices.Sort(out[:n])
	return out
}

// waitForState waits until the handler's state equals want, or ctx ends.
func (r *recorder) waitForState(ctx context.Context, want map[string]string) error {
	for {
		r.mu.Lock()
		same := maps.Equal(r.state, want)
		changed := r.changed
		r.mu.Unlock()
		if same {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			r.mu.Lock()
			defer r.mu.Unlock()
			return fmt.Errorf("handler state %v, want %v: %w", r.state, want, ctx.Err())
		}
	}
}

func keyAndRV(obj any) (string, string) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("<%T>", obj), ""
	}
	return objectKey(m.GetNamespace(), m.GetName()), m.GetResourceVersion()
}
