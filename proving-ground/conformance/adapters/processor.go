//go:build conformance

// Adapter for client-go's processor tests (tools/cache
// processor_listener_test.go, event_handler_name_test.go and
// synctrack/synctrack_test.go), run in package processor by
// proving-ground/conformance. Compiled only there: the build tag keeps every
// ordinary build away from it.

package processor

import (
	"time"

	"k8s.io/klog/v2"
)

// client-go's unexported names for what stage 05 exports (stage 06's
// informer lives in another package).
type (
	processorListener = ProcessorListener
	addNotification   = AddNotification
)

// newProcessListener is client-go's constructor. Ours takes no logger (we do
// not log) and returns an error for a nil handler or checker where client-go
// builds a listener that fails later; the tests pass neither, so an error
// here is a broken fixture.
func newProcessListener(_ klog.Logger, handler ResourceEventHandler, requestedResyncPeriod, resyncPeriod time.Duration, now time.Time, bufferSize int, hasSynced DoneChecker) *processorListener {
	p, err := NewProcessListener(handler, requestedResyncPeriod, resyncPeriod, now, bufferSize, hasSynced)
	if err != nil {
		panic(err)
	}
	return p
}

// add is client-go's name for Add.
func (p *ProcessorListener) add(notification Notification) { p.Add(notification) }

// testAsyncFuncs is client-go's helper of the same name
// (synctrack_test.go), which builds synctrack's AsyncTracker for
// TestBasicLogic's Async case. Stage 05 leaves the AsyncTracker out
// (05-processor/doc.go), so that case is excluded (exclusions.txt) and this
// stands in for the helper only so that the file compiles and the test's
// SingleFile case, stage 05's tracker, runs. stages.go has client-go's
// declaration removed. Should the Async case ever run here, it fails
// loudly rather than pass against nothing.
func testAsyncFuncs() (upstreamHasSynced func(), start func(), finished func(), hasSynced func() bool, synced <-chan struct{}) {
	panic("conformance: stage 05 has no AsyncTracker (05-processor/doc.go); TestBasicLogic's Async case cannot run here")
}
