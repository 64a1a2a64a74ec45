//go:build conformance

// Accessors for stage 05's internals that client-go's informer tests read
// through two helpers of shared_informer_test.go: eventHandlerCount
// (len(processor.listeners)) and isRegistered (processor.getListener). In
// client-go the processor and the informer share one package; here the
// processor is stage 05, so internal/conformance adds this file to package
// processor (as an ordinary file, for the run only) and the informer's
// adapter declares those two helpers over it. Each accessor reads what
// client-go's does, under the same lock. Compiled only there: the build tag
// keeps every ordinary build away from it.

package processor

// ConformanceListenerCount is len(p.listeners): how many handlers are
// registered.
func (p *SharedProcessor) ConformanceListenerCount() int {
	p.listenersLock.RLock()
	defer p.listenersLock.RUnlock()
	return len(p.listeners)
}

// ConformanceGetListener is client-go's sharedProcessor.getListener: the
// listener of registration if it is registered here, else nil.
func (p *SharedProcessor) ConformanceGetListener(registration ResourceEventHandlerRegistration) *ProcessorListener {
	p.listenersLock.RLock()
	defer p.listenersLock.RUnlock()
	if l, ok := registration.(*ProcessorListener); ok {
		if _, exists := p.listeners[l]; exists {
			return l
		}
	}
	return nil
}
