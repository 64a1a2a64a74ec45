//go:build conformance

// Adapter for client-go's dynamic/dynamiclister/lister_test.go (an external
// test package, dynamiclister_test), run against 07-factory/dynamiclister by
// proving-ground/conformance. Our dynamic lister keeps client-go's names, so the
// import of client-go's package only points at ours. The tests fill an
// indexer from tools/cache and hand it to dynamiclister.New; stages.go
// points that import at this package too, so that the indexer is stage
// 04's (ours takes stage 04's Indexer, which client-go's does not satisfy:
// its methods name tools/cache's types).

package dynamiclister

import (
	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
)

// tools/cache's names the tests use: the key function is stage 03's, the
// indexer stage 04's.
type Indexers = indexer.Indexers

var (
	NewIndexer           = indexer.NewIndexer
	MetaNamespaceKeyFunc = deltafifo.MetaNamespaceKeyFunc
)
