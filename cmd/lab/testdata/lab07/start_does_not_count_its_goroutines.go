//go:build ignore

// A plausible wrong answer to lab 07: Start runs each informer once, on a
// plain go statement that f.wg does not count, so Shutdown has nothing to
// wait for and returns while the informers are still stopping.

package factory

func (f *sharedInformerFactory) StartWithContext(ctx context.Context) {
	f.lock.Lock()
	defer f.lock.Unlock()

	if f.shuttingDown {
		return
	}
	for informerType, inf := range f.informers {
		if f.startedInformers[informerType] {
			continue
		}
		go inf.RunWithContext(ctx)
		f.startedInformers[informerType] = true
	}
}
