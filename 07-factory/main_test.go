package factory_test

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

// TestMain silences klog (both factories' informers log the failures some
// tests provoke on purpose), stops the playground the integration tests
// share, and then fails the package if any test left a goroutine behind.
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

// cluster starts the playground the first time a test needs it, with its
// watch cache on (as a real cluster has it), so that informers stream their
// initial list with WatchList.
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

// goroutinesBefore is taken before a test builds its factories;
// noLeakAfterShutdown, after Shutdown returned, fails the test if a
// goroutine started since is still running. The clientsets' HTTP
// connections are not the informers' and outlive them: they are ignored.
func goroutinesBefore() goleak.Option { return goleak.IgnoreCurrent() }

func noLeakAfterShutdown(t *testing.T, who string, before goleak.Option) {
	t.Helper()
	err := goleak.Find(before,
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreAnyFunction("net/http.(*http2ClientConn).readLoop"),
		goleak.IgnoreAnyFunction("golang.org/x/net/http2.(*ClientConn).readLoop"),
	)
	if err != nil {
		t.Errorf("%s: goroutines left after Shutdown returned: %v", who, err)
	}
}
