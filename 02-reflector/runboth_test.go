package reflector_test

// runBoth runs client-go's Reflector and ours over the same scenario, each
// in its own synctest bubble (so every backoff and resync happens in virtual
// time), and compares what they did.

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"

	reflector "informer-from-scratch/02-reflector"
)

type side string

const (
	clientGo side = "client-go"
	ours     side = "ours"
)

// outcome is what one reflector did with a scenario.
type outcome struct {
	Log     []entry
	Store   map[string]string
	LastRV  string
	Resyncs int
	// ScriptUsedUp: the reflector asked for every LIST and WATCH the
	// script holds (within scriptDeadline of virtual time).
	ScriptUsedUp bool
	// WatchesLeftOpen counts the watches still open once the reflector
	// returned: each one would be a connection leaked.
	WatchesLeftOpen int
}

// runner abstracts the two reflectors for the harness.
type runner interface {
	RunWithContext(ctx context.Context)
	ListAndWatchWithContext(ctx context.Context) error
	LastSyncResourceVersion() string
	Name() string
	TypeDescription() string
}

func newReflector(s side, sc scenario, lw *scriptLW, store *recStore) runner {
	return newReflectorWithClock(s, sc, lw, store, nil)
}

// newReflectorWithClock builds one side's reflector for the scenario; a nil
// clock means the real one (which synctest makes virtual).
func newReflectorWithClock(s side, sc scenario, lw *scriptLW, store *recStore, c clock.Clock) runner {
	var expected any = &corev1.Pod{}
	if sc.expectedType != nil {
		expected = sc.expectedType
	}
	if sc.noType {
		expected = nil
	}
	backoff := deterministicBackoff
	var b *wait.Backoff
	if !sc.defaultBackof {
		b = &backoff
	}
	shouldResync := func() func() bool {
		answers := slices.Clone(sc.shouldResync)
		return func() bool {
			if len(answers) == 0 {
				return true
			}
			a := answers[0]
			answers = answers[1:]
			return a
		}
	}()
	switch s {
	case clientGo:
		r := cache.NewReflectorWithOptions(lw, expected, storeFor(s, sc, store), cache.ReflectorOptions{
			Name: "scripted", ResyncPeriod: sc.resync, Backoff: b, Clock: c, MinWatchTimeout: sc.minWatchTimeout,
		})
		r.ShouldResync = shouldResync
		r.WatchListPageSize = sc.pageSize
		r.MaxInternalErrorRetryDuration = sc.maxInternal
		return r
	default:
		r := reflector.NewReflectorWithOptions(lw, expected, storeFor(s, sc, store), reflector.ReflectorOptions{
			Name: "scripted", ResyncPeriod: sc.resync, Backoff: b, Clock: c, MinWatchTimeout: sc.minWatchTimeout,
			UseWatchList: ptr.To(sc.watchList),
		})
		r.ShouldResync = shouldResync
		r.WatchListPageSize = sc.pageSize
		r.MaxInternalErrorRetryDuration = sc.maxInternal
		return r
	}
}

// run runs one reflector over the scenario in a synctest bubble, until it
// has used up the script and (virtual) sc.after has passed.
func run(t *testing.T, s side, sc scenario) outcome {
	return runInspecting(t, s, sc, nil)
}

// runInspecting is run, handing the used-up script to inspect (if not nil)
// before the reflector stops.
func runInspecting(t *testing.T, s side, sc scenario, inspect func(*scriptLW)) outcome {
	var out outcome
	synctest.Test(t, func(t *testing.T) {
		rec := newRecorder()
		lw := newScriptLW(sc, rec)
		store := newRecStore(sc, rec)
		r := newReflector(s, sc, lw, store)
		ctx, cancel := context.WithCancel(recordingContext(rec))
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.RunWithContext(ctx)
		}()
		usedUp := lw.usedUp()
		time.Sleep(sc.after)
		synctest.Wait()
		out = outcome{Log: rec.close(), Store: store.content(), LastRV: r.LastSyncResourceVersion(), Resyncs: store.resyncs, ScriptUsedUp: usedUp}
		if inspect != nil {
			inspect(lw)
		}
		cancel()
		<-done
		out.WatchesLeftOpen = lw.leftOpen()
	})
	return out
}

// runBoth runs the scenario on client-go's reflector (with the
// WatchListClient gate set to match) and on ours, and fails with a diff if
// they did anything differently.
func runBoth(t *testing.T, sc scenario) (cg, our outcome) {
	t.Helper()
	clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, sc.watchList)
	cg = run(t, clientGo, sc)
	our = run(t, ours, sc)
	if sc.defaultBackof {
		checkJitteredBackoff(t, clientGo, cg.Log)
		checkJitteredBackoff(t, ours, our.Log)
		clearTimes(cg.Log)
		clearTimes(our.Log)
	}
	if diff := diffOutcomes(cg, our); diff != "" {
		t.Errorf("the reflectors behaved differently (-client-go +ours):\n%s\nclient-go did:\n%s\nours did:\n%s", diff, logString(cg.Log), logString(our.Log))
	}
	return cg, our
}

// diffOutcomes shows how two outcomes differ: the logs line by line, the
// rest with cmp, and, should the lines agree, the entries in full (a line
// leaves out the options no scenario sets).
func diffOutcomes(cg, our outcome) string {
	diff := diffLog(cg.Log, our.Log)
	if d := cmp.Diff(cg, our, cmpopts.IgnoreFields(outcome{}, "Log")); d != "" {
		diff += d
	}
	if diff == "" {
		diff = cmp.Diff(cg, our)
	}
	return diff
}

func clearTimes(log []entry) {
	for i := range log {
		log[i].At = 0
	}
}

func logString(log []entry) string {
	var b strings.Builder
	for _, e := range log {
		b.WriteString("  " + e.String() + "\n")
	}
	return b.String()
}
