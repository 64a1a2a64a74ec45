// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go: watchWithResync
// and watch.

package reflector

import (
	"context"
	"errors"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
)

// watchWithResync runs the watch loop with the resync timer beside it, and
// returns once both have stopped.
func (r *Reflector) watchWithResync(ctx context.Context, w watch.Interface) error {
	resyncerrc := make(chan error, 1)
	resyncCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	wg.Go(func() { r.startResync(resyncCtx, resyncerrc) })
	return r.watch(ctx, w, resyncerrc)
}

// watch consumes w (if the WatchList stream handed one over) and then starts
// watches from the last synced resourceVersion, one after the other, until
// one ends in a way that needs a relist, or ctx is cancelled.
//
// Each watch request carries the last synced resourceVersion, a random
// timeout and allowWatchBookmarks. Every event's resourceVersion becomes the
// last synced one (and reaches a store that is a ResourceVersionUpdater),
// but on a watch from "" or "0" only once an event other than ADDED proved
// the server's replay of the current state is over.
//
// How each ending is handled:
//   - the server closed the watch normally (its timeout): watch again from
//     the last resourceVersion;
//   - the request refused with connection refused or 429, or a 429 that
//     arrives as an ERROR event: back off, then watch again from the same
//     place;
//   - 500 Internal Error: watch again at once, for as long as
//     MaxInternalErrorRetryDuration allows;
//   - 410 Expired: return nil, and let the caller relist after its backoff,
//     at the last resourceVersion (nothing is marked unavailable);
//   - a very short watch (closed within a second of its request, with no
//     event), anything else: log it, client-go's one line at the default
//     verbosity ("Warning: watch ended with error"), and return nil for a
//     relist;
//   - a watch request refused for another reason: return the error;
//   - ctx cancelled: return nil, without a word or another request.
//
//lab:02
func (r *Reflector) watch(ctx context.Context, w watch.Interface, resyncerrc chan error) error {
	retry := NewRetryWithDeadline(r.MaxInternalErrorRetryDuration, time.Minute, apierrors.IsInternalError, r.clock)
	defer func() {
		if w != nil {
			w.Stop()
		}
	}()

	for {
		if ctx.Err() != nil {
			return nil
		}
		// Measured from before the request: some proxies hold the response
		// headers back until the first event.
		start := r.clock.Now()

		// A watch handed over by WatchList is past its initial events, so
		// every event's resourceVersion may be recorded at once.
		propagateRVFromStart := true
		if w == nil {
			options := metav1.ListOptions{
				ResourceVersion: r.LastSyncResourceVersion(),
				// A watch the server ends after a while, at a random
				// moment, so a fleet of reflectors does not reconnect in
				// one wave, and a silently dead connection is noticed.
				TimeoutSeconds: r.watchTimeout(),
				// Bookmarks keep the resourceVersion fresh while nothing
				// changes, so a restarted watch does not start from a point
				// the server has already forgotten. Servers that do not
				// send them ignore the flag.
				AllowWatchBookmarks: true,
			}
			// From "" or "0" the server first sends the current state as
			// ADDED events in no particular order: their resourceVersions
			// must not be recorded until that part is over.
			if options.ResourceVersion == "" || options.ResourceVersion == "0" {
				propagateRVFromStart = false
			}
			var err error
			w, err = r.listerWatcher.WatchWithContext(ctx, options)
			if err != nil {
				if isWatchErrorRetriable(err) {
					if !r.sleep(ctx, r.delayHandler()) {
						return nil
					}
					continue
				}
				return err
			}
		}

		err := r.handleWatch(ctx, start, w, func(rv string, eventReceivedBesidesAdded bool) {
			if propagateRVFromStart || eventReceivedBesidesAdded {
				r.setLastSyncResourceVersion(rv)
				if u, ok := r.store.(ResourceVersionUpdater); ok {
					u.UpdateResourceVersion(rv)
				}
			}
		}, resyncerrc)
		w = nil // handleWatch stopped it
		retry.After(err)
		switch {
		case err == nil:
			continue
		case errors.Is(err, errorStopRequested):
			return nil
		case isExpiredError(err):
			// Relist at the last resourceVersion: a LIST at a specific
			// resourceVersion means "at least this new", which the server
			// can usually still serve.
			return nil
		case apierrors.IsTooManyRequests(err):
			if !r.sleep(ctx, r.delayHandler()) {
				return nil
			}
			continue
		case apierrors.IsInternalError(err) && retry.ShouldRetry():
			continue
		default:
			// The one line client-go logs at the default verbosity here,
			// and the only trace of a watch event that did not decode: the
			// reflector watches again from where it was, so nothing is
			// lost, but a server (or a proxy) sending garbage must show.
			klog.FromContext(ctx).Info("Warning: watch ended with error", "reflector", r.name, "type", r.typeDescription, "err", err)
			return nil
		}
	}
}
