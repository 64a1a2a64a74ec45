// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go:
// WatchErrorHandler, WatchErrorHandlerWithContext, DefaultWatchErrorHandler,
// VeryShortWatchError, errorStopRequested, isExpiredError and
// isTooLargeResourceVersionError.

package reflector

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// WatchErrorHandler is WatchErrorHandlerWithContext without a context.
type WatchErrorHandler func(r *Reflector, err error)

// WatchErrorHandlerWithContext is called with every error ListAndWatch
// returns (a failed LIST, a watch request the server refused). The reflector
// backs off and tries again afterwards whatever the handler does; the
// handler is for reporting, and must return quickly.
type WatchErrorHandlerWithContext func(ctx context.Context, r *Reflector, err error)

// DefaultWatchErrorHandler stays quiet about the errors that are part of
// normal life (410 Expired, a watch closed with EOF) and reports the rest
// through utilruntime.HandleErrorWithContext. client-go also logs the quiet
// ones at a high klog verbosity; we do not log.
func DefaultWatchErrorHandler(ctx context.Context, r *Reflector, err error) {
	switch {
	case isExpiredError(err), err == io.EOF, err == io.ErrUnexpectedEOF:
	default:
		utilruntime.HandleErrorWithContext(ctx, err, "Failed to watch", "reflector", r.name, "type", r.typeDescription)
	}
}

// SetWatchErrorHandlerWithContext replaces the watch error handler. It fails
// once the reflector runs. client-go's informer sets this field from inside
// the cache package; ours lives in another package, hence the method (named
// after the informer's).
func (r *Reflector) SetWatchErrorHandlerWithContext(handler WatchErrorHandlerWithContext) error {
	r.handlerMu.Lock()
	defer r.handlerMu.Unlock()
	if r.started {
		return fmt.Errorf("reflector %s: the watch error handler cannot be changed after it started", r.name)
	}
	if handler == nil {
		return fmt.Errorf("reflector %s: nil watch error handler", r.name)
	}
	r.watchErrorHandler = handler
	return nil
}

// SetWatchErrorHandler is SetWatchErrorHandlerWithContext for a handler
// without a context.
func (r *Reflector) SetWatchErrorHandler(handler WatchErrorHandler) error {
	if handler == nil {
		return r.SetWatchErrorHandlerWithContext(nil)
	}
	return r.SetWatchErrorHandlerWithContext(func(_ context.Context, r *Reflector, err error) { handler(r, err) })
}

// start marks the reflector as running and returns its handler.
func (r *Reflector) start() WatchErrorHandlerWithContext {
	r.handlerMu.Lock()
	defer r.handlerMu.Unlock()
	r.started = true
	return r.watchErrorHandler
}

// errorStopRequested ends a watch because the context was cancelled.
var errorStopRequested = errors.New("stop requested")

// VeryShortWatchError is returned when a watch closed within a second without
// delivering a single event: a sign that something between the reflector and
// the apiserver drops the connection, not that nothing changed.
type VeryShortWatchError struct {
	// Name of the reflector.
	Name string
}

func (e *VeryShortWatchError) Error() string {
	return fmt.Sprintf("very short watch: %s: Unexpected watch close - "+
		"watch lasted less than a second and no items received", e.Name)
}

// isExpiredError reports a 410: the resourceVersion asked for has been
// compacted away. Servers before 1.18 sent reason Gone, later ones Expired.
func isExpiredError(err error) bool {
	return apierrors.IsResourceExpired(err) || apierrors.IsGone(err)
}

// isTooLargeResourceVersionError reports that the server has not caught up
// with the resourceVersion asked for (an apiserver whose watch cache lags
// behind the one the reflector talked to before). The last two checks match
// the messages of 1.17 and 1.18 servers, which did not set the cause.
func isTooLargeResourceVersionError(err error) bool {
	if apierrors.HasStatusCause(err, metav1.CauseTypeResourceVersionTooLarge) {
		return true
	}
	if !apierrors.IsTimeout(err) {
		return false
	}
	// A type assertion, not errors.As, as in client-go: only an unwrapped
	// status error is inspected.
	status, ok := err.(apierrors.APIStatus)
	if !ok || status == nil || status.Status().Details == nil {
		return false
	}
	for _, cause := range status.Status().Details.Causes {
		if cause.Message == "Too large resource version" {
			return true
		}
	}
	return strings.Contains(status.Status().Message, "Too large resource version")
}
