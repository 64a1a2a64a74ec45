// Mirrors k8s.io/client-go v0.37.2 informers/factory.go:
// sharedInformerFactory.Start, StartWithContext and Shutdown.

package factory

import (
	"context"

	"k8s.io/apimachinery/pkg/util/wait"
)

// Start is StartWithContext until stopCh is closed.
func (f *sharedInformerFactory) Start(stopCh <-chan struct{}) {
	f.StartWithContext(wait.ContextForChannel(stopCh))
}

// StartWithContext runs every informer requested so far and not started
// yet, each on a goroutine of its own, until ctx is cancelled. It does not
// wait for anything, so it may be called again after more informers have
// been requested; an informer already started is left alone (running it
// twice would be stage 06's error). After Shutdown it does nothing.
//
//lab:07
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
		f.wg.Go(func() { inf.RunWithContext(ctx) })
		f.startedInformers[informerType] = true
	}
}

// Shutdown stops the factory from starting anything more, then waits for
// every informer goroutine it started to return. It does not stop them:
// they stop when the context (or stop channel) they were started with ends,
// so cancel it before calling Shutdown, or from another goroutine while
// Shutdown waits. Then every goroutine the informers started has ended too:
// stage 06's RunWithContext returns only after its reflector, processLoop,
// processor and listeners have. Safe to call many times, concurrently.
func (f *sharedInformerFactory) Shutdown() {
	f.lock.Lock()
	f.shuttingDown = true
	f.lock.Unlock()

	// Outside the lock: an informer being started by a concurrent
	// StartWithContext has already been counted (wg.Go under the lock), and
	// a StartWithContext that comes after this point does nothing.
	f.wg.Wait()
}
