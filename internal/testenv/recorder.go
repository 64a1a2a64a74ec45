// Not a mirror of client-go: the tests' event handler.

package testenv

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
)

// Recorder is an event handler for either library (their
// ResourceEventHandler interfaces have the same methods): it records every
// call as a line, and keeps the state the calls add up to (key → rv), so a
// test can wait until a handler has caught up with the server.
type Recorder struct {
	// Start, if set, stamps each call with the time since (fake time, in
	// testing/synctest, where it is exact).
	Start time.Time

	mu      sync.Mutex
	calls   []string
	state   map[string]string
	changed chan struct{}
}

// NewRecorder returns a Recorder with nothing recorded.
func NewRecorder() *Recorder {
	return &Recorder{state: map[string]string{}, changed: make(chan struct{})}
}

// OnAdd records "add key@rv", marked when it is part of the initial list.
func (r *Recorder) OnAdd(obj any, isInInitialList bool) {
	k, rv := KeyAndRV(obj)
	line := fmt.Sprintf("add %s@%s", k, rv)
	if isInInitialList {
		line += " (initial list)"
	}
	r.record(line, k, rv)
}

// OnUpdate records "update key@old→new".
func (r *Recorder) OnUpdate(oldObj, newObj any) {
	k, rv := KeyAndRV(newObj)
	_, oldRV := KeyAndRV(oldObj)
	r.record(fmt.Sprintf("update %s@%s→%s", k, oldRV, rv), k, rv)
}

// OnDelete records "delete key@rv", or "delete key (tombstone)".
func (r *Recorder) OnDelete(obj any) {
	if k, ok := tombstoneKey(obj); ok {
		r.record("delete "+k+" (tombstone)", k, "")
		return
	}
	k, rv := KeyAndRV(obj)
	r.record(fmt.Sprintf("delete %s@%s", k, rv), k, "")
}

// tombstoneKey reads the key of a DeletedFinalStateUnknown of either library
// (a struct of that name with a Key field), without importing client-go's
// tools/cache outside a test file.
func tombstoneKey(obj any) (string, bool) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Struct || v.Type().Name() != "DeletedFinalStateUnknown" {
		return "", false
	}
	key := v.FieldByName("Key")
	return key.String(), key.Kind() == reflect.String
}

func (r *Recorder) record(line, key, rv string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.Start.IsZero() {
		line = fmt.Sprintf("%v %s", time.Since(r.Start), line)
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

// Snapshot returns the calls with the initial list's adds sorted: a
// WatchList stream's order comes from a map on the server.
func (r *Recorder) Snapshot() []string {
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

// WaitForState waits until the handler's state equals want, or ctx ends.
func (r *Recorder) WaitForState(ctx context.Context, want map[string]string) error {
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

// KeyAndRV renders an object as its key ("namespace/name", or "name" for
// a cluster-scoped one) and its resourceVersion.
func KeyAndRV(obj any) (string, string) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("<%T>", obj), ""
	}
	return ObjectKey(m.GetNamespace(), m.GetName()), m.GetResourceVersion()
}

// ObjectKey is "namespace/name", or "name" when namespace is "".
func ObjectKey(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}
