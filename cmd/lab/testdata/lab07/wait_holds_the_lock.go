//go:build ignore

// A plausible wrong answer to lab 07: the wait takes the factory's lock as
// InformerFor and Start do, and holds it while it waits. Its answer is
// right; but meanwhile every other part of the program that asks the
// factory for an informer, or calls Start, waits with it, as long as an
// informer that cannot sync keeps the wait going.

package factory

func (f *sharedInformerFactory) WaitForCacheSyncWithContext(ctx context.Context) SyncResult {
	f.lock.Lock()
	defer f.lock.Unlock()

	var checkers []informer.DoneChecker
	for informerType, inf := range f.informers {
		if f.startedInformers[informerType] {
			checkers = append(checkers, inf.HasSyncedChecker())
		}
	}
	informer.WaitFor(ctx, "", checkers...)

	res := SyncResult{Synced: map[reflect.Type]bool{}}
	failed := false
	for informerType, inf := range f.informers {
		if !f.startedInformers[informerType] {
			continue
		}
		synced := inf.HasSynced()
		failed = failed || !synced
		res.Synced[informerType] = synced
	}
	if failed {
		res.Err = context.Cause(ctx)
	}
	return res
}
