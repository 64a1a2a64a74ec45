package reflector_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"

	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/testenv"
)

// TestMain routes utilruntime.HandleErrorWithContext, which both reflectors
// use for the problems they report and skip (a wrong object type, a store
// that fails), into the recorder carried by the reflector's context, so the
// differential tests compare those reports too. It silences klog's global
// logger: the scripted tests hand each reflector a logger of its own in its
// context (recordingContext), and compare what it logs. It stops the one playground the
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

// recordingContext is the context a scripted test runs a reflector with:
// it carries the recorder, for recordHandledError, and a logger that
// records into it every line the reflector logs at the default verbosity,
// so the differential tests compare what an operator sees in the logs
// without raising -v.
func recordingContext(rec *recorder) context.Context {
	ctx := context.WithValue(context.Background(), recorderKey{}, rec)
	return klog.NewContext(ctx, logr.New(logSink{rec: rec}))
}

// notOurs are the V(0) lines of client-go's reflector that ours leaves out
// on purpose (02-reflector/doc.go): the initial-events-end bookmark ticker's.
var notOurs = []string{
	"Warning: event bookmark expired",
	"Warning: clock does not support WithTicker interface but exitOnInitialEventsEndBookmark was requested",
}

// logSink records a reflector's V(0) log lines as "Log" entries, with their
// key/value pairs in order.
type logSink struct {
	rec    *recorder
	values []any
}

func (logSink) Init(logr.RuntimeInfo)  {}
func (logSink) Enabled(level int) bool { return level == 0 }

func (s logSink) Info(level int, msg string, kv ...any) {
	if level != 0 || slices.Contains(notOurs, msg) {
		return
	}
	s.rec.add(entry{Call: "Log", Arg: msg + formatKV(slices.Concat(s.values, kv))})
}

func (s logSink) Error(err error, msg string, kv ...any) {
	s.rec.add(entry{Call: "LogError", Arg: msg + formatKV(slices.Concat(s.values, []any{"err", err}, kv))})
}

func (s logSink) WithValues(kv ...any) logr.LogSink {
	return logSink{rec: s.rec, values: slices.Concat(s.values, kv)}
}

func (s logSink) WithName(string) logr.LogSink { return s }

func formatKV(kv []any) string {
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		fmt.Fprintf(&b, " %v=%v", kv[i], kv[i+1])
	}
	return b.String()
}

// cluster starts the playground the first time a test needs it; TestMain
// stops it.
func cluster(t *testing.T) *playground.Cluster { return testenv.Cluster(t) }
