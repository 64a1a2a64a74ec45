// Mirrors k8s.io/client-go v0.37.2 informers/factory.go:
// sharedInformerFactory.WaitForCacheSync and WaitForCacheSyncWithContext;
// and tools/cache/shared_informer.go: SyncResult and SyncResult.AsError.

package factory

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/wait"

	informer "informer-from-scratch/06-sharedinformer"
)

// SyncResult is what WaitForCacheSyncWithContext found: per type whether
// its informer has synced, and if not all have, why the wait stopped.
//
// An informer that has synced holds the first complete list; its handlers
// may still be working through it. A controller that needs its handlers
// caught up waits for their registrations too (informer.WaitFor with each
// registration's HasSyncedChecker).
//
// client-go declares it in tools/cache, beside the informer; stage 06 had no
// use for it, so it lives here, with its only user.
type SyncResult struct {
	// Err is nil when every started informer synced; otherwise the reason
	// the wait stopped: context.Cause of the context.
	Err error
	// Synced maps the type of every started informer to whether it synced.
	Synced map[reflect.Type]bool
}

// AsError is nil when every informer synced, and otherwise an error naming
// the ones that did not, sorted, and wrapping Err.
func (c SyncResult) AsError() error {
	if c.Err == nil {
		return nil
	}
	unsynced := make([]string, 0, len(c.Synced))
	for t, synced := range c.Synced {
		if !synced {
			unsynced = append(unsynced, t.String())
		}
	}
	slices.Sort(unsynced)
	return fmt.Errorf("failed to sync all caches: %s: %w", strings.Join(unsynced, ", "), c.Err)
}

// WaitForCacheSync waits until every started informer has synced, or stopCh
// is closed, and reports per type whether it did.
func (f *sharedInformerFactory) WaitForCacheSync(stopCh <-chan struct{}) map[reflect.Type]bool {
	return f.WaitForCacheSyncWithContext(wait.ContextForChannel(stopCh)).Synced
}

// WaitForCacheSyncWithContext waits, without polling, until every informer
// Start has started has synced, or ctx ends. Informers requested but not
// started are not waited for and not reported: a wait for an informer that
// nobody started would never end (the most common way to hang a controller
// at start, kubernetes#92777).
//
// It copies the started informers under the lock and waits holding none,
// as client-go does: a wait may last as long as ctx, and meanwhile other
// parts of the program ask the factory for informers and Start them.
//
//lab:07
func (f *sharedInformerFactory) WaitForCacheSyncWithContext(ctx context.Context) SyncResult {
	started := func() map[reflect.Type]informer.SharedIndexInformer {
		f.lock.Lock()
		defer f.lock.Unlock()
		started := map[reflect.Type]informer.SharedIndexInformer{}
		for informerType, inf := range f.informers {
			if f.startedInformers[informerType] {
				started[informerType] = inf
			}
		}
		return started
	}()

	checkers := make([]informer.DoneChecker, 0, len(started))
	for _, inf := range started {
		checkers = append(checkers, inf.HasSyncedChecker())
	}
	informer.WaitFor(ctx, "" /* no logging */, checkers...)

	res := SyncResult{Synced: make(map[reflect.Type]bool, len(started))}
	failed := false
	for informerType, inf := range started {
		synced := inf.HasSynced()
		failed = failed || !synced
		res.Synced[informerType] = synced
	}
	if failed {
		// WaitFor only stops early when ctx ends, so the cause is set.
		res.Err = context.Cause(ctx)
	}
	return res
}
