//go:build ignore

// A plausible wrong answer to lab 07: the wait takes every informer the
// factory holds, started or not. An informer requested after Start never
// syncs, since nothing runs it, so the wait lasts until its context ends
// and reports a failure client-go's factory does not (kubernetes#92777).

package factory

func (f *sharedInformerFactory) WaitForCacheSyncWithContext(ctx context.Context) SyncResult {
	requested := func() map[reflect.Type]informer.SharedIndexInformer {
		f.lock.Lock()
		defer f.lock.Unlock()
		requested := map[reflect.Type]informer.SharedIndexInformer{}
		for informerType, inf := range f.informers {
			requested[informerType] = inf
		}
		return requested
	}()

	checkers := make([]informer.DoneChecker, 0, len(requested))
	for _, inf := range requested {
		checkers = append(checkers, inf.HasSyncedChecker())
	}
	informer.WaitFor(ctx, "", checkers...)

	res := SyncResult{Synced: make(map[reflect.Type]bool, len(requested))}
	failed := false
	for informerType, inf := range requested {
		synced := inf.HasSynced()
		failed = failed || !synced
		res.Synced[informerType] = synced
	}
	if failed {
		res.Err = context.Cause(ctx)
	}
	return res
}
