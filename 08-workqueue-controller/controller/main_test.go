package controller_test

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

// TestMain silences klog (the controllers report the failures some tests
// provoke on purpose), stops the playground the integration tests share,
// and fails the package if a test left a goroutine behind.
func TestMain(m *testing.M) {
	klog.SetLogger(logr.Discard())
	code := m.Run()
	if shared != nil {
		if err := shared.Stop(); err != nil {
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
	once      sync.Once
	shared    *playground.Cluster
	sharedErr error
)

// cluster is the package's playground, started the first time a test needs
// it.
func cluster(t *testing.T) *playground.Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the playground; skipped with -short")
	}
	once.Do(func() {
		shared, sharedErr = playground.Start(context.Background(), playground.Options{Progress: os.Stderr})
	})
	if sharedErr != nil {
		t.Fatalf("starting the playground: %v", sharedErr)
	}
	return shared
}
