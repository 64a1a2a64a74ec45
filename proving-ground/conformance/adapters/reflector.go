//go:build conformance

// Adapter for client-go's reflector tests (tools/cache reflector_test.go,
// reflector_watchlist_test.go, retry_with_deadline_test.go), run in package
// reflector by proving-ground/conformance. Compiled only there: the build tag keeps
// every ordinary build away from it.
//
// In client-go the reflector, the ListWatch, the stores and the key functions
// share one package; here they are stages 01-04, so most of this file points
// client-go's names at the stage that has them.
//
// The plain FIFO is the one name here that no stage has: stage 03 leaves it
// out (03-deltafifo/doc.go), as no informer uses it. Seven of the reflector
// tests (TestReflectorListAndWatch, the 429 and 500 retries, the connection
// backoff, the relist) hand the reflector a FIFO only to collect what it
// stored, and read it back with Pop and List. For them the runner compiles
// client-go's own fifo.go into this package, read from the module cache at
// run time like the tests themselves (stages.go lists it as support; nothing
// of it is in this repository): a test fixture, as fake_custom_store.go is,
// not a layer we teach. It cannot be an alias of client-go's cache.FIFO:
// the tests call List on it, a method fifo_test.go declares on the FIFO of
// its own package, reading the FIFO's unexported fields. fifo.go needs two
// names of stage 03, KeyError and DoneChecker, aliased below; every other
// name it uses (ReflectorStore, KeyFunc) is already the reflector's.

package reflector

import (
	"context"
	"reflect"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/clock"

	listwatch "informer-from-scratch/01-listwatch"
	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
)

// Stage 01's interface; stage 04's store; stage 03's key function and
// queues' options.
type (
	ListerWatcher    = listwatch.ListerWatcher
	Store            = indexer.Store
	KeyFunc          = deltafifo.KeyFunc
	KeyListerGetter  = deltafifo.KeyListerGetter
	Delta            = deltafifo.Delta
	DeltaFIFOOptions = deltafifo.DeltaFIFOOptions
	// For client-go's fifo.go, the tests' fixture (see above).
	KeyError    = deltafifo.KeyError
	DoneChecker = deltafifo.DoneChecker
)

const Deleted = deltafifo.Deleted

var (
	NewStore             = indexer.NewStore
	MetaNamespaceKeyFunc = deltafifo.MetaNamespaceKeyFunc
)

// RealFIFO and DeltaFIFO are stage 03's queues, wrapped so that the test
// helpers client-go's tests call on them (getItems, keyFunc, list) exist in
// this package: they call the accessors proving-ground/conformance adds to stage
// 03 (reflector_deltafifo.go). The reflector sees the queue's own methods,
// Transformer included, through the embedded pointer.
type RealFIFO struct {
	*deltafifo.RealFIFO
	keyFunc KeyFunc
}

func (f *RealFIFO) getItems() []Delta { return f.ConformanceItems() }

// NewRealFIFO is client-go's deprecated constructor, over ours with options.
func NewRealFIFO(keyFunc KeyFunc, knownObjects KeyListerGetter, transformer TransformFunc) *RealFIFO {
	f := deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{
		KeyFunction:  keyFunc,
		KnownObjects: knownObjects,
		Transformer:  transformer,
	})
	return &RealFIFO{RealFIFO: f, keyFunc: f.ConformanceKeyFunc()}
}

type DeltaFIFO struct{ *deltafifo.DeltaFIFO }

func (f *DeltaFIFO) list() []interface{} { return f.ConformanceList() }

func NewDeltaFIFOWithOptions(opts DeltaFIFOOptions) *DeltaFIFO {
	return &DeltaFIFO{deltafifo.NewDeltaFIFOWithOptions(opts)}
}

// ListWatch is client-go's ListWatch with its deprecated context-less
// fields, which stage 01's leaves out (01-listwatch/doc.go):
// listwatch_deprecated.go, which the runner adds to stage 01's package.
type ListWatch = listwatch.ConformanceListWatch

// handleWatch and handleListWatch are client-go's free functions; ours are
// methods reading the same values from the reflector, so each call builds a
// reflector holding exactly the values the test passed.
func handleWatch(ctx context.Context, start time.Time, w watch.Interface, store ReflectorStore,
	expectedType reflect.Type, expectedGVK *schema.GroupVersionKind, name, expectedTypeName string,
	setLastSyncResourceVersion func(string, bool), clock clock.Clock, errCh chan error) error {
	r := &Reflector{name: name, typeDescription: expectedTypeName, expectedType: expectedType, expectedGVK: expectedGVK, store: store, clock: clock}
	return r.handleWatch(ctx, start, w, setLastSyncResourceVersion, errCh)
}

func handleListWatch(ctx context.Context, start time.Time, w watch.Interface, store ReflectorStore,
	expectedType reflect.Type, expectedGVK *schema.GroupVersionKind, name, expectedTypeName string,
	setLastSyncResourceVersion func(string, bool), clock clock.Clock, errCh chan error) (bool, error) {
	r := &Reflector{name: name, typeDescription: expectedTypeName, expectedType: expectedType, expectedGVK: expectedGVK, store: store, clock: clock}
	return r.handleAnyWatch(ctx, start, w, store, setLastSyncResourceVersion, true, errCh)
}

// client-go's names for our type-checking helpers (typecheck.go).
var (
	getTypeDescriptionFromObject = typeDescriptionOf
	getExpectedGVKFromObject     = expectedGVKOf
)
