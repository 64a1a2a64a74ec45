package informer_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"go.uber.org/goleak"
	"k8s.io/klog/v2"

	"informer-from-scratch/internal/playground"
)

// TestMain silences klog (client-go's informer logs warnings the tests
// provoke on purpose; the bad-input tests turn its recording on), stops the playground the integration tests share if
// one was started, and then fails the package if any test left a goroutine
// behind: an informer's reflector, processLoop, processor and listeners must
// all end when its context does.
func TestMain(m *testing.M) {
	klog.SetLogger(logs.logger())
	code := m.Run()
	if sharedCluster != nil {
		if err := sharedCluster.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the playground:", err)
		}
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

var (
	clusterOnce   sync.Once
	sharedCluster *playground.Cluster
	clusterErr    error
)

// cluster starts the playground the first time a test needs it; TestMain
// stops it. The watch cache is off so that a compaction produces a real 410.
func cluster(t *testing.T) *playground.Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the playground; skipped with -short")
	}
	clusterOnce.Do(func() {
		sharedCluster, clusterErr = playground.Start(context.Background(), playground.Options{
			DisableWatchCache: true,
			Progress:          os.Stderr,
		})
	})
	if clusterErr != nil {
		t.Fatalf("starting the playground: %v", clusterErr)
	}
	return sharedCluster
}
