//go:build ignore

// A plausible wrong answer to lab 02: a watch that ends with a 429 ERROR
// event is treated like any other failed watch, and the reflector relists.
// A server shedding load gets a full LIST from every reflector it turned
// away, where client-go backs off and watches again from the same place.

package reflector

import (
	"context"
	"errors"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/klog/v2"
)

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
		start := r.clock.Now()

		propagateRVFromStart := true
		if w == nil {
			options := metav1.ListOptions{
				ResourceVersion:     r.LastSyncResourceVersion(),
				TimeoutSeconds:      r.watchTimeout(),
				AllowWatchBookmarks: true,
			}
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
			return nil
		case apierrors.IsInternalError(err) && retry.ShouldRetry():
			continue
		default:
			klog.FromContext(ctx).Info("Warning: watch ended with error", "reflector", r.name, "type", r.typeDescription, "err", err)
			return nil
		}
	}
}
