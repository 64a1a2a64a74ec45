package chaos_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/testenv"
	"informer-from-scratch/internal/timeline"
	"informer-from-scratch/proving-ground/chaos"
)

var (
	soakSeed     = flag.Uint64("chaos.seed", 0, "TestChaosSoak: the seed (0: skip the soak)")
	soakDuration = flag.Duration("chaos.duration", time.Minute, "TestChaosSoak: how long the workload and the faults run")
	soakEvery    = flag.Duration("chaos.every", 5*time.Second, "TestChaosSoak: the mean gap between two faults")
	timelineTo   = flag.String("chaos.timeline", "", "write the run's timeline (every fault, every LIST and WATCH of each side) to this file")
)

// TestMain: client-go's listener must survive the panicking handler, which
// only utilruntime.ReallyCrash = false allows (process-wide: this test
// binary's alone), and each panic it swallows is counted. klog is silenced
// (the faults make both libraries log on purpose). Then goleak: every
// informer, the proxy and the workload must have ended.
func TestMain(m *testing.M) {
	flag.Parse()
	utilruntime.ReallyCrash = false
	utilruntime.PanicHandlers = append(utilruntime.PanicHandlers, func(context.Context, any) { recoveredByClientGo.Add(1) })
	testenv.Main(m, testenv.Options{Playground: playground.Options{DisableWatchCache: true}})
}

func cluster(t *testing.T) *playground.Cluster { return testenv.Cluster(t) }

// run runs one chaos run of both sides and fails t with the report and the
// command that replays it.
func run(t *testing.T, cfg chaos.Config) *chaos.Report {
	t.Helper()
	cfg.Cluster = cluster(t)
	if cfg.Sides == nil {
		cfg.Sides = []chaos.Side{&clientGoSide{}, &ourSide{}}
	}
	cfg.Timeline = timelineFile(t)
	ctx, cancel := context.WithTimeout(context.Background(), cfg.Duration+cfg.Converge+3*time.Minute)
	defer cancel()
	rep, err := chaos.Run(ctx, cfg)
	var report string
	var failures []string
	if rep != nil {
		report, failures = rep.String(), rep.Failures
	}
	verdict(t, "the chaos run", cfg.Seed, report, failures, err,
		fmt.Sprintf("replay: make chaos SEED=%d DURATION=%s EVERY=%s", cfg.Seed, cfg.Duration, cfg.FaultEvery))
	return rep
}

// timelineFile is a timeline written to the -chaos.timeline file, closed
// when the test ends; nil without the flag.
func timelineFile(t *testing.T) *timeline.Timeline {
	t.Helper()
	if *timelineTo == "" {
		return nil
	}
	f, err := os.Create(*timelineTo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return timeline.New(f)
}

// verdict logs a run's report, if there is one, and fails t with err, the
// run itself failing, or else with the run's failures; either way followed
// by replay, the command that replays the run.
func verdict(t *testing.T, what string, seed uint64, report string, failures []string, err error, replay string) {
	t.Helper()
	if report != "" {
		t.Log("\n" + report)
	}
	if err != nil {
		t.Fatalf("%s itself failed: %v\n%s", what, err, replay)
	}
	if len(failures) > 0 {
		t.Errorf("seed %d failed:\n  %s\n%s", seed, strings.Join(failures, "\n  "), replay)
	}
}

// TestChaos is the short, fixed-seed run `make test` makes: three seeds,
// fifteen seconds of workload and faults each (a fault every 1.2s on
// average), every kind of fault at
// least once per seed (faultproxy.Plan starts with one of each), then both
// sides must match the server within two minutes (usually a few seconds:
// what they wait for is the reflector's backoff, which a run of failures
// grows towards 30s, and up to twice that with its jitter).
func TestChaos(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			rep := run(t, chaos.Config{Seed: seed, Duration: 15 * time.Second, FaultEvery: 1200 * time.Millisecond, Converge: 2 * time.Minute, Pace: 15 * time.Millisecond})
			for _, s := range rep.Sides {
				if s.Delivered.Tombstones == 0 && s.Delivered.Deletes == 0 {
					t.Errorf("%s's handlers got no deletion at all: the run tested nothing about deletes", s.Name)
				}
			}
		})
	}
}

// TestChaosSoak is `make chaos SEED=… DURATION=…`: one long run, with its
// report logged whether it passes or not (make runs it with -v).
func TestChaosSoak(t *testing.T) {
	if *soakSeed == 0 {
		t.Skip("a soak: run it with make chaos SEED=N DURATION=D")
	}
	// Converge: the reflector's backoff after a run of failures reaches
	// 30s, and its jitter doubles that at worst.
	run(t, chaos.Config{Seed: *soakSeed, Duration: *soakDuration, FaultEvery: *soakEvery, Converge: 3 * time.Minute, Pace: 15 * time.Millisecond, Progress: os.Stderr})
}
