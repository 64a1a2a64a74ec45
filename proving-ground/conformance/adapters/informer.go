//go:build conformance

// Adapter for client-go's informer tests (tools/cache shared_informer_test.go,
// controller_test.go, wait_test.go, typed_test.go, controller_bench_test.go
// and shared_informer_bench_test.go), run in package informer by
// proving-ground/conformance. Compiled only there: the build tag keeps every
// ordinary build away from it.
//
// In client-go every layer of the informer is one package; here stage 06
// builds on stages 01-05, and vocabulary.go already aliases the names an
// informer's user meets. This file adds the rest of what the tests name: the
// queues' and stores' constructors, the deprecated constructors as thin
// wrappers, and two helpers that read the processor's listeners, which here
// are stage 05's (stages.go has client-go's declarations of those removed).

package informer

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	clientgocache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	listwatch "informer-from-scratch/01-listwatch"
	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
)

// Stage 03: the delta types and the queue's options.
type (
	RealFIFOOptions = deltafifo.RealFIFOOptions
	KeyListerGetter = deltafifo.KeyListerGetter
)

const (
	Added   = deltafifo.Added
	Deleted = deltafifo.Deleted
)

// Stage 04: the stores, their transactions, the typed indexer, the lister
// helper the benchmark reads through.
type (
	Transaction      = indexer.Transaction
	TransactionError = indexer.TransactionError
	// typedIndexer is stage 04's own type (informer_indexer.go names it
	// for this package).
	typedIndexer[T any] = indexer.ConformanceTypedIndexer[T]
)

var (
	NewStore           = indexer.NewStore
	NewIndexer         = indexer.NewIndexer
	ListAllByNamespace = indexer.ListAllByNamespace
)

func TypedIndexersToIndexers[T any](indexers TypedIndexers[T]) Indexers {
	return indexer.TypedIndexersToIndexers(indexers)
}

// RealFIFO is stage 03's RealFIFO with the two things client-go's tests
// read from theirs: the logger they pass on to processDeltas (ours does not
// log, so it is only carried), and keyOf (informer_deltafifo.go). The
// controller sees the queue's own methods, PopBatch included, through the
// embedded pointer.
type RealFIFO struct {
	*deltafifo.RealFIFO
	logger klog.Logger
}

func (f *RealFIFO) keyOf(obj interface{}) (string, error) { return f.ConformanceKeyOf(obj) }

func NewRealFIFOWithOptions(opts RealFIFOOptions) *RealFIFO {
	return &RealFIFO{RealFIFO: deltafifo.NewRealFIFOWithOptions(opts), logger: klog.Background()}
}

// NewRealFIFO is client-go's deprecated constructor, which stage 03 leaves
// out; client-go's defines it exactly so, over NewRealFIFOWithOptions.
func NewRealFIFO(keyFunc KeyFunc, knownObjects KeyListerGetter, transformer TransformFunc) *RealFIFO {
	return NewRealFIFOWithOptions(RealFIFOOptions{
		KeyFunction:  keyFunc,
		KnownObjects: knownObjects,
		Transformer:  transformer,
	})
}

// processDeltasWithLogger and processDeltasInBatchWithLogger take
// client-go's arguments, a klog.Logger first, and call ours, which do not
// log. stages.go points the tests' calls of processDeltas and
// processDeltasInBatch here.
func processDeltasWithLogger(_ klog.Logger, handler ResourceEventHandler, clientState Store, deltas Deltas, isInInitialList bool, keyFunc KeyFunc) error {
	return processDeltas(handler, clientState, deltas, isInInitialList, keyFunc)
}

func processDeltasInBatchWithLogger(_ klog.Logger, handler ResourceEventHandler, clientState Store, deltas []Delta, isInInitialList bool, keyFunc KeyFunc) error {
	return processDeltasInBatch(handler, clientState, deltas, isInInitialList, keyFunc)
}

// NewInformer and NewTransformingInformer are client-go's deprecated
// constructors, which stage 06 leaves out; client-go's define them exactly
// so, as NewInformerWithOptions with these fields.
func NewInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler) (Store, Controller) {
	return NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: objType, Handler: h, ResyncPeriod: resyncPeriod})
}

func NewTransformingInformer(lw ListerWatcher, objType runtime.Object, resyncPeriod time.Duration, h ResourceEventHandler, transformer TransformFunc) (Store, Controller) {
	return NewInformerWithOptions(InformerOptions{ListerWatcher: lw, ObjectType: objType, Handler: h, ResyncPeriod: resyncPeriod, Transform: transformer})
}

// ObjectToName is left out of stage 03 (03-deltafifo/doc.go). The one test
// that runs and calls it, TestDeletedObjectGetObjectName, uses it for the
// expected value only, so it is client-go's own, its answer carried over
// into our ObjectName: the oracle, not a copy.
func ObjectToName(obj interface{}) (ObjectName, error) {
	n, err := clientgocache.ObjectToName(obj)
	return ObjectName{Namespace: n.Namespace, Name: n.Name}, err
}

// eventHandlerCount and isRegistered are client-go's helpers of the same
// names (shared_informer_test.go), which read the processor's listeners:
// here the processor is stage 05's, whose accessors informer_processor.go
// adds. Each reads what client-go's does, under the same locks.
func eventHandlerCount(i SharedInformer) int {
	s := i.(*sharedIndexInformer)
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	return s.processor.ConformanceListenerCount()
}

func isRegistered(i SharedInformer, h ResourceEventHandlerRegistration) bool {
	s := i.(*sharedIndexInformer)
	return s.processor.ConformanceGetListener(h) != nil
}

// listWatchWithDeprecatedFuncs is client-go's ListWatch with the deprecated
// context-less ListFunc and WatchFunc, which TestUpdate fills in and stage
// 01's ListWatch (ListWatch here, by alias) leaves out: stage 01's
// ListWatch under the hood (listwatch_deprecated.go). stages.go points the
// tests' ListWatch type at it (types).
type listWatchWithDeprecatedFuncs = listwatch.ConformanceListWatch

// processorClock and processorGetListener reach what client-go's
// TestResyncCheckPeriod and TestSharedInformerWatchDisruption reach in the
// processor, which is stage 05's here, through informer_processor.go's
// accessors. stages.go points the tests' informer.processor.clock (which
// they set) at *processorClock(informer), and informer.processor.getListener
// (a function they then call for a listener's resyncPeriod) at
// processorGetListener(informer), in those two assignments and nowhere else.
func processorClock(s *sharedIndexInformer) *clock.PassiveClock {
	return s.processor.ConformanceClock()
}

// listenerResync is the one field of client-go's processorListener that
// TestResyncCheckPeriod reads, read when the test asks for it.
type listenerResync struct{ resyncPeriod time.Duration }

func processorGetListener(s *sharedIndexInformer) func(ResourceEventHandlerRegistration) *listenerResync {
	return func(h ResourceEventHandlerRegistration) *listenerResync {
		l := s.processor.ConformanceGetListener(h)
		if l == nil {
			return nil // as client-go's getListener: the test then fails on it
		}
		return &listenerResync{resyncPeriod: l.ConformanceResyncPeriod()}
	}
}

// sharedProcessorRunHook is client-go's seam in sharedProcessor.run, which
// lets a test delay the processor's start. Stage 05's processor has no such
// seam, so a test that sets one cannot say anything about ours: Store fails
// it loudly rather than let it pass without its delay.
var sharedProcessorRunHook noRunHook

type noRunHook struct{}

func (noRunHook) Store(hook *func()) {
	if hook != nil {
		panic(fmt.Sprintf("conformance: stage 05's processor has no run hook; a test that sets one (%p) cannot run here", hook))
	}
}
