//go:build conformance

// Accessors for stage 05's internals that client-go's informer tests read
// through two helpers of shared_informer_test.go, eventHandlerCount
// (len(processor.listeners)) and isRegistered (processor.getListener), or
// reach themselves: the processor's clock, which TestResyncCheckPeriod and
// TestSharedInformerWatchDisruption set, and its listeners' resync periods,
// which TestResyncCheckPeriod reads (informer.processor.getListener). In
// client-go the processor and the informer share one package; here the
// processor is stage 05, so proving-ground/conformance adds this file to package
// processor (as an ordinary file, for the run only) and the informer's
// adapter declares those two helpers, and what the tests' rewritten lines
// call, over it. Each accessor reads what client-go's does, under the same
// lock (none for the clock and the resync period: client-go's tests touch
// those fields directly). Compiled only there: the build tag keeps every
// ordinary build away from it.

package processor

import (
	"time"

	"k8s.io/utils/clock"
)

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

// ConformanceClock is where p keeps its clock: client-go's tests set the
// processor's clock before the informer runs (informer.processor.clock =
// clock), and the informer's adapter hands them this field to set.
func (p *SharedProcessor) ConformanceClock() *clock.PassiveClock { return &p.clock }

// ConformanceResyncPeriod is the listener's resyncPeriod, which client-go's
// TestResyncCheckPeriod reads as a field of the processor's listener.
func (p *ProcessorListener) ConformanceResyncPeriod() time.Duration { return p.resyncPeriod }
