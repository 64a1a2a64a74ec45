// Not a mirror of one client-go file: the names an informer's user meets,
// which client-go declares all in one package (tools/cache) and we declare in
// the stage that builds each layer. They are aliases, so a value from this
// package is the earlier stage's value, and the list below doubles as a map
// of where each stage plugs into the informer.

package informer

import (
	listwatch "informer-from-scratch/01-listwatch"
	reflector "informer-from-scratch/02-reflector"
	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
	processor "informer-from-scratch/05-processor"
)

// Stage 01: where the objects come from. The controller's reflector lists
// and watches through a ListerWatcher.
type (
	ListerWatcher = listwatch.ListerWatcher
	ListWatch     = listwatch.ListWatch
)

// Stage 02: the reflector that keeps the queue in step with the server. Its
// watch errors go to the handler SetWatchErrorHandler installs.
type (
	Reflector                    = reflector.Reflector
	WatchErrorHandler            = reflector.WatchErrorHandler
	WatchErrorHandlerWithContext = reflector.WatchErrorHandlerWithContext
)

// Stage 03: the queue between the reflector and the informer's processLoop,
// the deltas it hands out, the key functions, and the tombstone a handler
// may receive on delete.
type (
	Queue                    = deltafifo.Queue
	QueueWithBatch           = deltafifo.QueueWithBatch
	Delta                    = deltafifo.Delta
	Deltas                   = deltafifo.Deltas
	DeltaType                = deltafifo.DeltaType
	PopProcessFunc           = deltafifo.PopProcessFunc
	ProcessBatchFunc         = deltafifo.ProcessBatchFunc
	TransformFunc            = deltafifo.TransformFunc
	KeyFunc                  = deltafifo.KeyFunc
	DeletedFinalStateUnknown = deltafifo.DeletedFinalStateUnknown
	ObjectName               = deltafifo.ObjectName
	DoneChecker              = deltafifo.DoneChecker
)

// ErrFIFOClosed is what the queue's Pop returns once it is closed and empty:
// processLoop's signal to stop.
var ErrFIFOClosed = deltafifo.ErrFIFOClosed

// IsDone reports, without blocking, whether checker has finished.
func IsDone(checker DoneChecker) bool { return deltafifo.IsDone(checker) }

// MetaNamespaceKeyFunc and DeletionHandlingMetaNamespaceKeyFunc are stage
// 03's key functions: "namespace/name", the second also for a tombstone.
var (
	MetaNamespaceKeyFunc                 = deltafifo.MetaNamespaceKeyFunc
	DeletionHandlingMetaNamespaceKeyFunc = deltafifo.DeletionHandlingMetaNamespaceKeyFunc
)

// Stage 04: the cache every informer keeps and its indexes.
type (
	Store            = indexer.Store
	Indexer          = indexer.Indexer
	Indexers         = indexer.Indexers
	IndexFunc        = indexer.IndexFunc
	TransactionStore = indexer.TransactionStore
)

// NamespaceIndex and MetaNamespaceIndexFunc index a cache by namespace, the
// index listers use.
const NamespaceIndex = indexer.NamespaceIndex

// MetaNamespaceIndexFunc indexes an object by its namespace.
var MetaNamespaceIndexFunc = indexer.MetaNamespaceIndexFunc

// Stage 05: what a user registers, what they get back, and the typed forms.
type (
	ResourceEventHandler              = processor.ResourceEventHandler
	ResourceEventHandlerFuncs         = processor.ResourceEventHandlerFuncs
	ResourceEventHandlerDetailedFuncs = processor.ResourceEventHandlerDetailedFuncs
	FilteringResourceEventHandler     = processor.FilteringResourceEventHandler
	ResourceEventHandlerRegistration  = processor.ResourceEventHandlerRegistration
	HandlerPanic                      = processor.HandlerPanic
)

// The typed handler layer (stage 05's handler_typed.go).
type (
	Object                                           = processor.Object
	TypedResourceEventHandler[T Object]              = processor.TypedResourceEventHandler[T]
	TypedResourceEventHandlerFuncs[T Object]         = processor.TypedResourceEventHandlerFuncs[T]
	TypedResourceEventHandlerDetailedFuncs[T Object] = processor.TypedResourceEventHandlerDetailedFuncs[T]
	TypedFilteringResourceEventHandler[T Object]     = processor.TypedFilteringResourceEventHandler[T]
	DeletedObject[T Object]                          = processor.DeletedObject[T]
	TypedIndexers[T any]                             = indexer.TypedIndexers[T]
	TypedIndexer[T any]                              = indexer.TypedIndexer[T]
)
