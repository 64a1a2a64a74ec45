//go:build ignore

// A plausible wrong answer to lab 07: Start runs every informer the factory
// holds, each time it is called. The first Start is right; a second one,
// made to run an informer requested since, runs the first ones again
// (stage 06 refuses and reports it, and client-go's factory would not).

package factory

func (f *sharedInformerFactory) StartWithContext(ctx context.Context) {
	f.lock.Lock()
	defer f.lock.Unlock()

	if f.shuttingDown {
		return
	}
	for informerType, inf := range f.informers {
		f.wg.Go(func() { inf.RunWithContext(ctx) })
		f.startedInformers[informerType] = true
	}
}
