package reflector_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"go.uber.org/goleak"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"

	"informer-from-scratch/internal/playground"
)

// TestMain routes utilruntime.HandleErrorWithContext, which both reflectors
// use for the problems they report and skip (a wrong object type, a store
// that fails), into the recorder carried by the reflector's context, so the
// differential tests compare those reports too. It silences klog, which only
// client-go's reflector writes to. It stops the one playground the
// integration tests share, if one was started. And it fails the package if a
// test left a goroutine behind: a reflector's list, watch and resync loops
// must all end when its context does.
func TestMain(m *testing.M) {
	klog.SetLogger(logr.Discard())
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{recordHandledError}
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

type recorderKey struct{}

// recordHandledError is the only utilruntime error handler during the tests:
// it replaces the default ones, whose 1ms rate limit sleeps would otherwise
// shift the timelines the scripted tests compare.
func recordHandledError(ctx context.Context, err error, msg string, _ ...any) {
	rec, ok := ctx.Value(recorderKey{}).(*recorder)
	if !ok {
		return
	}
	detail := msg
	if err != nil {
		detail += ": " + err.Error()
	}
	rec.add(entry{Call: "HandleError", Arg: detail})
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
