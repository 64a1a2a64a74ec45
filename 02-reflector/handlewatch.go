// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go: handleWatch,
// handleListWatch and handleAnyWatch.

package reflector

import (
	"context"
	"reflect"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// setRVFunc receives the resourceVersion of each event, and whether an event
// other than ADDED has been seen yet on this watch (which proves the
// server's initial ADDED events, if any, are over).
type setRVFunc func(rv string, eventReceivedBesidesAdded bool)

// handleWatch applies w's events to the reflector's store until the watch
// ends, and always stops w.
func (r *Reflector) handleWatch(ctx context.Context, start time.Time, w watch.Interface, setRV setRVFunc, errCh chan error) error {
	_, err := r.handleAnyWatch(ctx, start, w, r.store, setRV, false, errCh)
	return err
}

// handleListWatch applies the events of a WatchList stream to store until
// the bookmark that ends the initial events, and reports whether it came.
// If it did, w is left open for the watch loop to carry on with.
func (r *Reflector) handleListWatch(ctx context.Context, start time.Time, w watch.Interface, store ReflectorStore, setRV setRVFunc) (bool, error) {
	return r.handleAnyWatch(ctx, start, w, store, setRV, true, nil)
}

// handleAnyWatch is the event loop both share.
//
// An ERROR event ends the watch with the error it carries (a 410, a 429, a
// 500…). An event with the wrong type or GVK, a Table, or an object without
// metadata is reported through utilruntime.HandleErrorWithContext and
// skipped: one bad object should not throw away a working watch. A store
// that fails an Add, Update or Delete is reported the same way, and the
// watch goes on.
func (r *Reflector) handleAnyWatch(ctx context.Context, start time.Time, w watch.Interface, store ReflectorStore,
	setRV setRVFunc, exitOnInitialEventsEnd bool, errCh chan error) (bool, error) {
	initialEventsEnd := false
	eventReceivedBesidesAdded := false
	eventCount := 0
	stopWatcher := true
	defer func() {
		if stopWatcher {
			w.Stop()
		}
	}()

loop:
	for {
		select {
		case <-ctx.Done():
			return initialEventsEnd, errorStopRequested
		case err := <-errCh:
			return initialEventsEnd, err
		case event, ok := <-w.ResultChan():
			if !ok {
				break loop
			}
			if event.Type == watch.Error {
				return initialEventsEnd, apierrors.FromObject(event.Object)
			}
			if !r.acceptable(ctx, event) {
				continue
			}
			m, err := meta.Accessor(event.Object)
			if err != nil {
				utilruntime.HandleErrorWithContext(ctx, err, "Unable to understand watch event", "reflector", r.name, "event", event)
				continue
			}
			rv := m.GetResourceVersion()
			switch event.Type {
			case watch.Added:
				if err := store.Add(event.Object); err != nil {
					utilruntime.HandleErrorWithContext(ctx, err, "Unable to add watch event object to store", "reflector", r.name, "object", event.Object)
				}
			case watch.Modified:
				eventReceivedBesidesAdded = true
				if err := store.Update(event.Object); err != nil {
					utilruntime.HandleErrorWithContext(ctx, err, "Unable to update watch event object to store", "reflector", r.name, "object", event.Object)
				}
			case watch.Deleted:
				eventReceivedBesidesAdded = true
				if err := store.Delete(event.Object); err != nil {
					utilruntime.HandleErrorWithContext(ctx, err, "Unable to delete watch event object from store", "reflector", r.name, "object", event.Object)
				}
			case watch.Bookmark:
				// Nothing changed; the resourceVersion moved on.
				eventReceivedBesidesAdded = true
				if m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true" {
					initialEventsEnd = true
				}
				if bs, ok := store.(ReflectorBookmarkStore); ok {
					if err := bs.Bookmark(rv); err != nil {
						utilruntime.HandleErrorWithContext(ctx, err, "Unable to send bookmark event to store", "reflector", r.name, "object", event.Object)
					}
				}
			default:
				utilruntime.HandleErrorWithContext(ctx, nil, "Unknown watch event", "reflector", r.name, "event", event)
			}
			setRV(rv, eventReceivedBesidesAdded)
			eventCount++
			if exitOnInitialEventsEnd && initialEventsEnd {
				stopWatcher = false
				return true, nil
			}
		}
	}

	// A watch the server ended normally has usually lasted minutes. One
	// that closed at once with nothing in it points at a broken path.
	if r.clock.Since(start) < time.Second && eventCount == 0 {
		return initialEventsEnd, &VeryShortWatchError{Name: r.name}
	}
	return initialEventsEnd, nil
}

// acceptable checks an event's object against the expected type and GVK,
// and rejects Tables, reporting what it rejects.
func (r *Reflector) acceptable(ctx context.Context, event watch.Event) bool {
	if r.expectedType != nil {
		if e, a := r.expectedType, reflect.TypeOf(event.Object); e != a {
			utilruntime.HandleErrorWithContext(ctx, nil, "Unexpected watch event object type", "reflector", r.name, "expectedType", e, "actualType", a)
			return false
		}
	}
	if r.expectedGVK != nil {
		if e, a := *r.expectedGVK, event.Object.GetObjectKind().GroupVersionKind(); e != a {
			utilruntime.HandleErrorWithContext(ctx, nil, "Unexpected watch event object gvk", "reflector", r.name, "expectedGVK", e, "actualGVK", a)
			return false
		}
	}
	if isUnsupportedTableObject(event.Object) {
		utilruntime.HandleErrorWithContext(ctx, nil, "Unsupported watch event object gvk", "reflector", r.name, "actualGVK", event.Object.GetObjectKind().GroupVersionKind())
		return false
	}
	return true
}
