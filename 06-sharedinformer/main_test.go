package informer_test

import (
	"testing"

	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/testenv"
)

// TestMain: testenv.Main silences klog (client-go's informer logs warnings
// the tests provoke on purpose; the bad-input tests turn its recording on),
// stops the playground the integration tests share if one was started, and
// then fails the package if any test left a goroutine behind: an
// informer's reflector, processLoop, processor and listeners must all end
// when its context does.
func TestMain(m *testing.M) {
	testenv.Main(m, testenv.Options{
		Logger: logs.logger(),
		// The watch cache is off so that a compaction produces a real 410.
		Playground: playground.Options{DisableWatchCache: true},
	})
}

// cluster starts the playground the first time a test needs it; TestMain
// stops it.
func cluster(t *testing.T) *playground.Cluster { return testenv.Cluster(t) }
