package informer

import "time"

// SetProcessorRunHook makes every informer run hook on its processor's
// goroutine before the processor starts its listeners, until the returned
// function restores the previous hook. Tests use it to start the processor
// late, as client-go's tests use sharedProcessorRunHook.
func SetProcessorRunHook(hook func()) (restore func()) {
	old := processorRunHook.Swap(&hook)
	return func() { processorRunHook.Store(old) }
}

// ResyncCheckPeriod is how often the informer's reflector will ask whether
// a resync is due: its resyncCheckPeriod.
func ResyncCheckPeriod(i SharedInformer) time.Duration {
	s := i.(*sharedIndexInformer)
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	return s.resyncCheckPeriod
}
