// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go: ReflectorStore,
// ReflectorBookmarkStore, ResourceVersionUpdater, Reflector, Name,
// TypeDescription, Run, RunWithContext, ListAndWatch and
// ListAndWatchWithContext.

package reflector

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/clock"

	listwatch "informer-from-scratch/01-listwatch"
)

// ReflectorStore is what a Reflector writes into: the part of a cache.Store
// it needs. Stage 03's queues and stage 04's Indexer implement it.
type ReflectorStore interface {
	// Add, Update and Delete carry one watch event each.
	Add(obj any) error
	Update(obj any) error
	Delete(obj any) error
	// Replace hands over a complete state (a LIST, or the initial events of
	// a WatchList stream) and the resourceVersion it was read at. Anything
	// the store holds that is not in list is gone from the server. The
	// store owns list afterwards.
	Replace(list []any, resourceVersion string) error
	// Resync means nothing to a plain store; a queue uses it to deliver
	// everything it knows again (see stage 03).
	Resync() error
}

// ReflectorBookmarkStore is implemented by stores that want to hear about
// BOOKMARK events: the resourceVersion moved on with no object changing.
type ReflectorBookmarkStore interface {
	Bookmark(resourceVersion string) error
}

// ResourceVersionUpdater is implemented by stores that track the reflector's
// resourceVersion as it advances with each watch event.
type ResourceVersionUpdater interface {
	UpdateResourceVersion(resourceVersion string)
}

// Reflector keeps a store in step with one resource on the apiserver.
//
// Its contract: it only ever puts objects of expectedType into the store
// (unless expectedType is nil); it calls the store from one goroutine at a
// time, except Resync, which comes from a timer goroutine; and after each
// Replace, the store has seen exactly the server's state at the
// resourceVersion it was given, followed by every change after it, in order.
type Reflector struct {
	// name identifies the reflector in errors; by default it is the
	// file:line that created it.
	name string
	// typeDescription is for display only: the expected GVK or Go type.
	typeDescription string
	// expectedType and expectedGVK are checked on every watch event;
	// a mismatch is reported and the event skipped.
	expectedType reflect.Type
	expectedGVK  *schema.GroupVersionKind

	store         ReflectorStore
	listerWatcher listwatch.ListerWatcherWithContext

	resyncPeriod time.Duration
	// delayHandler returns the next backoff; one state shared by the pause
	// between ListAndWatch rounds and the retries inside the watch loop.
	delayHandler func() time.Duration
	// Watch requests carry a timeout drawn from [min, max), so that the
	// reflectors of a fleet do not all reconnect at the same moment.
	minWatchTimeout time.Duration
	maxWatchTimeout time.Duration
	clock           clock.Clock
	// paginatedResult is set when the first LIST (resourceVersion "0") came
	// back in pages: the watch cache is off, so later lists page too.
	paginatedResult bool
	// useWatchList chooses WatchList streaming over LIST then WATCH.
	useWatchList bool

	rv resourceVersionState

	handlerMu         sync.Mutex
	watchErrorHandler WatchErrorHandlerWithContext
	started           bool

	// WatchListPageSize is the page size of LIST requests. Zero keeps
	// client-go's rule: pages of 500 for resourceVersion "" and "0", one
	// unpaginated request otherwise (so the watch cache can serve it),
	// unless the first LIST (at "0") came back in pages: then the watch
	// cache is off, every list goes to etcd anyway, and every later LIST
	// is paged too (see paginatedResult).
	WatchListPageSize int64
	// ShouldResync is asked at every resync period; nil means always.
	ShouldResync func() bool
	// MaxInternalErrorRetryDuration is how long a watch that keeps failing
	// with 500 Internal Error is restarted in place before the reflector
	// gives up and lists again. Zero means never retry in place.
	MaxInternalErrorRetryDuration time.Duration
}

// Name returns the reflector's name.
func (r *Reflector) Name() string { return r.name }

// TypeDescription returns what the reflector expects to put in its store.
func (r *Reflector) TypeDescription() string { return r.typeDescription }

// Run is RunWithContext with a stop channel.
//
// Deprecated: use RunWithContext.
func (r *Reflector) Run(stopCh <-chan struct{}) {
	r.RunWithContext(wait.ContextForChannel(stopCh))
}

// RunWithContext calls ListAndWatchWithContext until ctx is cancelled. An
// error it returns goes to the watch error handler. Between two rounds it
// waits the backoff, whether the round failed or not: a round only ends when
// something went wrong (the watch broke, the list failed), and a reflector
// that relists in a tight loop is how an apiserver outage becomes a storm.
func (r *Reflector) RunWithContext(ctx context.Context) {
	handler := r.start()
	for {
		if err := r.ListAndWatchWithContext(ctx); err != nil {
			handler(ctx, r, err)
		}
		if !r.sleep(ctx, r.delayHandler()) {
			return
		}
	}
}

// ListAndWatch is ListAndWatchWithContext with a stop channel.
//
// Deprecated: use ListAndWatchWithContext.
func (r *Reflector) ListAndWatch(stopCh <-chan struct{}) error {
	return r.ListAndWatchWithContext(wait.ContextForChannel(stopCh))
}

// ListAndWatchWithContext gets the current state into the store (WatchList
// stream, or LIST if WatchList is off or failed), then watches until the
// watch cannot be continued. It returns an error only when it could not get
// as far as watching; a watch that ends returns nil, and the caller's next
// round lists again.
func (r *Reflector) ListAndWatchWithContext(ctx context.Context) error {
	if err := r.validate(); err != nil {
		return err
	}
	var w watch.Interface
	fallbackToList := !r.useWatchList
	defer func() {
		if w != nil {
			w.Stop()
		}
	}()

	if r.useWatchList {
		var err error
		w, err = r.watchList(ctx)
		if w == nil && err == nil {
			return nil // ctx was cancelled
		}
		if err != nil {
			// The server may not support WatchList, or the stream broke in
			// a way retrying will not fix: a LIST still makes progress.
			fallbackToList = true
			w = nil
		}
	}

	if fallbackToList {
		if err := r.list(ctx); err != nil {
			return err
		}
	}
	return r.watchWithResync(ctx, w)
}

// validate turns a reflector built without a store or a ListerWatcher into
// an error the watch error handler reports, where client-go would panic on
// a nil pointer.
func (r *Reflector) validate() error {
	if r.store == nil {
		return fmt.Errorf("reflector %s has no store", r.name)
	}
	if r.listerWatcher == nil {
		return fmt.Errorf("reflector %s has no ListerWatcher", r.name)
	}
	return nil
}

// sleep waits d on the reflector's clock. It reports false if ctx was
// cancelled first.
func (r *Reflector) sleep(ctx context.Context, d time.Duration) bool {
	t := r.clock.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C():
		return ctx.Err() == nil
	}
}
