package reflector_test

import (
	"context"
	"testing"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/testenv"
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
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{recordHandledError}
	testenv.Main(m, testenv.Options{
		// The watch cache is off so that a compaction produces a real 410.
		Playground: playground.Options{DisableWatchCache: true},
	})
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

// cluster starts the playground the first time a test needs it; TestMain
// stops it.
func cluster(t *testing.T) *playground.Cluster { return testenv.Cluster(t) }
