// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go: watchList (the
// WatchList stream, KEP-3157) and its temporaryStore, which client-go builds
// with NewStore(DeletionHandlingMetaNamespaceKeyFunc, WithTransformer(...))
// from tools/cache/store.go.

package reflector

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"
)

// watchList gets the current state with one watch request instead of a LIST:
// sendInitialEvents=true makes the server stream every object as an ADDED
// event, then a BOOKMARK annotated k8s.io/initial-events-end=true, then
// carry on as an ordinary watch. The events before the bookmark are gathered
// in a temporary store (they may include MODIFIED and DELETED too); at the
// bookmark the reflector's store is replaced with them, and the open watch
// is returned for the watch loop to continue.
//
// resourceVersion is "" (with resourceVersionMatch=NotOlderThan: data at
// least as new as a quorum read) the first time and after an expired or too
// large resourceVersion; otherwise the last synced one.
//
// It returns (nil, nil) if ctx is cancelled, and an error when streaming
// does not work; the caller then falls back to LIST.
func (r *Reflector) watchList(ctx context.Context) (watch.Interface, error) {
	var w watch.Interface
	var resourceVersion string
	var temporaryStore *temporaryStore

	// A store that transforms its objects has the stream's objects
	// transformed as they arrive, so the temporary store holds what the
	// store will hold, not the full objects.
	var transformer TransformFunc
	if tr, ok := r.store.(TransformingStore); ok && tr.Transformer() != nil {
		transformer = tr.Transformer()
	}

	for {
		if ctx.Err() != nil {
			return nil, nil
		}
		resourceVersion = ""
		temporaryStore = newTemporaryStore(transformer)
		options := metav1.ListOptions{
			ResourceVersion:      r.rewatchResourceVersion(),
			AllowWatchBookmarks:  true,
			SendInitialEvents:    ptr.To(true),
			ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
			TimeoutSeconds:       r.watchTimeout(),
		}
		start := r.clock.Now()

		var err error
		w, err = r.listerWatcher.WatchWithContext(ctx, options)
		if err != nil {
			if r.retryWatchList(ctx, err) {
				continue
			}
			return nil, err
		}
		synced, err := r.handleListWatch(ctx, start, w, temporaryStore, func(rv string, eventReceivedBesidesAdded bool) {
			// The initial ADDED events come in no resourceVersion order;
			// only a later event's resourceVersion means anything.
			if eventReceivedBesidesAdded {
				resourceVersion = rv
			}
		})
		if err != nil {
			w.Stop()
			if errors.Is(err, errorStopRequested) {
				return nil, nil
			}
			if r.retryWatchList(ctx, err) {
				continue
			}
			return nil, err
		}
		if synced {
			break
		}
		// The stream ended before the bookmark: start a new one.
	}
	r.setIsLastSyncResourceVersionUnavailable(false)

	if err := r.store.Replace(temporaryStore.List(), resourceVersion); err != nil {
		return nil, fmt.Errorf("unable to sync watch-list result: %w", err)
	}
	r.setLastSyncResourceVersion(resourceVersion)
	return w, nil
}

// retryWatchList reports whether a failed WatchList request is worth another
// try: after a backoff for connection refused and 429, or at once, from the
// newest data, when the resourceVersion was expired or too large.
func (r *Reflector) retryWatchList(ctx context.Context, err error) bool {
	if isWatchErrorRetriable(err) {
		// If ctx ends during the wait, the loop's check returns.
		r.sleep(ctx, r.delayHandler())
		return true
	}
	if isExpiredError(err) || isTooLargeResourceVersionError(err) {
		r.setIsLastSyncResourceVersionUnavailable(true)
		return true
	}
	return false
}

// temporaryStore gathers the initial events of a WatchList stream, keyed
// like client-go's (namespace/name), so that a MODIFIED or DELETED during
// the stream lands on the right object. With a transformer it stores each
// added or updated object transformed, as client-go's store built
// WithTransformer does: keyed first, from the object as it came.
type temporaryStore struct {
	items       map[string]any
	transformer TransformFunc
}

func newTemporaryStore(transformer TransformFunc) *temporaryStore {
	return &temporaryStore{items: map[string]any{}, transformer: transformer}
}

func (s *temporaryStore) key(obj any) (string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", fmt.Errorf("object has no meta: %v", err)
	}
	if ns := m.GetNamespace(); ns != "" {
		return ns + "/" + m.GetName(), nil
	}
	return m.GetName(), nil
}

func (s *temporaryStore) Add(obj any) error { return s.Update(obj) }

func (s *temporaryStore) Update(obj any) error {
	k, err := s.key(obj)
	if err != nil {
		return err
	}
	if s.transformer != nil {
		if obj, err = s.transformer(obj); err != nil {
			return fmt.Errorf("transforming: %w", err)
		}
	}
	s.items[k] = obj
	return nil
}

func (s *temporaryStore) Delete(obj any) error {
	k, err := s.key(obj)
	if err != nil {
		return err
	}
	delete(s.items, k)
	return nil
}

// Replace and Resync are never called on the temporary store.
func (s *temporaryStore) Replace([]any, string) error { return nil }
func (s *temporaryStore) Resync() error               { return nil }

// List returns the gathered objects, in no particular order (as client-go's
// store does: a map).
func (s *temporaryStore) List() []any {
	list := make([]any, 0, len(s.items))
	for _, obj := range s.items {
		list = append(list, obj)
	}
	return list
}
