//go:build conformance

// Adapter for client-go's store, indexer and lister tests (tools/cache
// store_test.go, thread_safe_store_test.go, index_test.go, listers_test.go,
// typed_test.go), run in package indexer by internal/conformance. Compiled
// only there: the build tag keeps every ordinary build away from it.
//
// typed_test.go tests three of our stages: the typed indexer (here), the
// typed handlers (stage 05) and the typed informer (stage 06). It runs in
// this package, which stage 05 does not import, so its handler tests reach
// stage 05 through the aliases below; its informer tests wait for stage 06
// (exclusions.txt).

package indexer

import (
	deltafifo "informer-from-scratch/03-deltafifo"
	processor "informer-from-scratch/05-processor"
)

// The key functions live in stage 03; client-go has them in the same
// package as the store.
type KeyError = deltafifo.KeyError

var MetaNamespaceKeyFunc = deltafifo.MetaNamespaceKeyFunc

// Stage 05's typed handler layer; client-go has it in controller.go, in the
// same package as the indexer.
type (
	TypedResourceEventHandler[T processor.Object]              = processor.TypedResourceEventHandler[T]
	DeletedObject[T processor.Object]                          = processor.DeletedObject[T]
	TypedResourceEventHandlerFuncs[T processor.Object]         = processor.TypedResourceEventHandlerFuncs[T]
	TypedResourceEventHandlerDetailedFuncs[T processor.Object] = processor.TypedResourceEventHandlerDetailedFuncs[T]
	TypedFilteringResourceEventHandler[T processor.Object]     = processor.TypedFilteringResourceEventHandler[T]
)
