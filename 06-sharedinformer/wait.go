// Mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go:
// InformerSynced, WaitForNamedCacheSync, WaitForNamedCacheSyncWithContext,
// WaitForCacheSync, WaitFor.

package informer

import (
	"context"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
)

// InformerSynced is a HasSynced function: an informer's, or a
// registration's (the one a controller should wait for).
type InformerSynced func() bool

// syncedPollPeriod is how often WaitForCacheSync asks, as in client-go.
const syncedPollPeriod = 100 * time.Millisecond

// WaitForCacheSync polls every cacheSyncs function until all report true
// (then it returns true) or stopCh is closed (false). Prefer WaitFor, which
// waits on channels instead of polling.
func WaitForCacheSync(stopCh <-chan struct{}, cacheSyncs ...InformerSynced) bool {
	err := wait.PollUntilContextCancel(wait.ContextForChannel(stopCh), syncedPollPeriod, true,
		func(context.Context) (bool, error) {
			for _, synced := range cacheSyncs {
				if !synced() {
					return false, nil
				}
			}
			return true, nil
		})
	return err == nil
}

// WaitForNamedCacheSync is WaitForCacheSync that reports, naming the
// controller, when the caches could not be synced. client-go also logs the
// start and the end of the wait; we do not log.
func WaitForNamedCacheSync(controllerName string, stopCh <-chan struct{}, cacheSyncs ...InformerSynced) bool {
	if !WaitForCacheSync(stopCh, cacheSyncs...) {
		utilruntime.HandleErrorWithContext(context.Background(), nil, "Unable to sync caches", "controller", controllerName)
		return false
	}
	return true
}

// WaitForNamedCacheSyncWithContext is WaitForNamedCacheSync until ctx ends.
func WaitForNamedCacheSyncWithContext(ctx context.Context, cacheSyncs ...InformerSynced) bool {
	if !WaitForCacheSync(ctx.Done(), cacheSyncs...) {
		utilruntime.HandleErrorWithContext(ctx, nil, "Unable to sync caches")
		return false
	}
	return true
}

// WaitFor waits until every checker is done (true) or ctx ends (false,
// unless every checker happened to be done by then). It waits on channels,
// so it needs no polling. what names the wait; client-go logs it with the
// start, each checker's end and a timeout, and ours, which does not log,
// ignores it.
func WaitFor(ctx context.Context, what string, checkers ...DoneChecker) bool {
	for _, checker := range checkers {
		select {
		case <-checker.Done():
		case <-ctx.Done():
		}
	}
	for _, checker := range checkers {
		if !IsDone(checker) {
			return false
		}
	}
	return true
}
