// Not a mirror of client-go: a demo helper that lets each step wait for
// what the previous one caused (a store call, a request, a watch event).

package main

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// history is a list of things that happened (store calls, requests, watch
// events) that the script can wait on, so each step starts only once the
// previous one has visibly finished. Every wait has a timeout: the demo
// must end by itself even if the cluster misbehaves.
type history[T any] struct {
	mu      sync.Mutex
	items   []T
	changed chan struct{}
}

func newHistory[T any]() *history[T] { return &history[T]{changed: make(chan struct{})} }

func (h *history[T]) add(x T) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.items = append(h.items, x)
	close(h.changed)
	h.changed = make(chan struct{})
}

// mark returns a position to wait from.
func (h *history[T]) mark() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.items)
}

// waitFor returns the first item after position since that matches.
func (h *history[T]) waitFor(ctx context.Context, since int, what string, match func(T) bool) (T, error) {
	deadline := time.After(30 * time.Second)
	for {
		h.mu.Lock()
		for _, x := range h.items[since:] {
			if match(x) {
				h.mu.Unlock()
				return x, nil
			}
		}
		since = len(h.items)
		changed := h.changed
		h.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			var zero T
			return zero, ctx.Err()
		case <-deadline:
			var zero T
			return zero, fmt.Errorf("waited 30s for %s", what)
		}
	}
}
