//go:build conformance

// Stage 04's typedIndexer under a name another package can use, for
// client-go's TestTypedIndexer (tools/cache/typed_test.go), which builds one
// by its field (typedIndexer[*v1.Pod]{Indexer: raw}). In client-go the typed
// indexer and the informer share one package; here typed_test.go runs in
// stage 06's, so proving-ground/conformance adds this file to package indexer (as
// an ordinary file, for the run only). Compiled only there: the build tag
// keeps every ordinary build away from it.

package indexer

// ConformanceTypedIndexer is typedIndexer itself: an alias, not a copy.
type ConformanceTypedIndexer[T any] = typedIndexer[T]
