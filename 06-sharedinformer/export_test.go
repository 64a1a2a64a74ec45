package informer

// SetProcessorRunHook makes every informer run hook on its processor's
// goroutine before the processor starts its listeners, until the returned
// function restores the previous hook. Tests use it to start the processor
// late, as client-go's tests use sharedProcessorRunHook.
func SetProcessorRunHook(hook func()) (restore func()) {
	old := processorRunHook.Swap(&hook)
	return func() { processorRunHook.Store(old) }
}
