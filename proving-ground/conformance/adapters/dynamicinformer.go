//go:build conformance

// Adapter for client-go's dynamic/dynamicinformer/informer_test.go (an
// external test package, dynamicinformer_test), run against
// 07-factory/dynamicinformer by proving-ground/conformance. Our dynamic factory
// keeps client-go's names, so the import of client-go's package only points
// at ours. The tests also import tools/cache, for the handler they register
// and the wait for the caches; stages.go points that import at this package
// too, so that the names below, stage 06's, are what they call, and no
// client-go informer code runs in these tests.

package dynamicinformer

import (
	"testing"

	"go.uber.org/goleak"

	informer "informer-from-scratch/06-sharedinformer"
)

// tools/cache's names the tests use, from stage 06's vocabulary.
type ResourceEventHandlerFuncs = informer.ResourceEventHandlerFuncs

var WaitForCacheSync = informer.WaitForCacheSync

// TestMain checks, as client-go's tools/cache tests do and its dynamic
// informer tests do not, that no goroutine outlives the tests: each test
// stops its factory's informers by cancelling the context Start was given.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
