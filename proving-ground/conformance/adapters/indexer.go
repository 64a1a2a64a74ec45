//go:build conformance

// Adapter for client-go's store, indexer and lister tests (tools/cache
// store_test.go, thread_safe_store_test.go, index_test.go, listers_test.go),
// run in package indexer by proving-ground/conformance. Compiled only there: the
// build tag keeps every ordinary build away from it.
//
// typed_test.go, which also tests the typed indexer, runs in stage 06's
// package: it tests the typed handlers (stage 05) and the typed informer
// (stage 06) too, and only stage 06 sees all three.

package indexer

import (
	deltafifo "informer-from-scratch/03-deltafifo"
)

// The key functions live in stage 03; client-go has them in the same
// package as the store.
type KeyError = deltafifo.KeyError

var MetaNamespaceKeyFunc = deltafifo.MetaNamespaceKeyFunc
