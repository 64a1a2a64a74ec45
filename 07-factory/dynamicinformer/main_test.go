package dynamicinformer_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"go.uber.org/goleak"
	"k8s.io/klog/v2"

	"informer-from-scratch/internal/playground"
)

// TestMain silences klog, stops the shared playground, and fails the
// package if any test left a goroutine behind.
func TestMain(m *testing.M) {
	klog.SetLogger(logr.Discard())
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

func cluster(t *testing.T) *playground.Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the playground; skipped with -short")
	}
	clusterOnce.Do(func() {
		sharedCluster, clusterErr = playground.Start(context.Background(), playground.Options{Progress: os.Stderr})
	})
	if clusterErr != nil {
		t.Fatalf("starting the playground: %v", clusterErr)
	}
	return sharedCluster
}
