package chaos_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	"informer-from-scratch/proving-ground/chaos"
)

var breakOurs = flag.String("chaos.break", "", "the controller runs: break our controller on purpose (drop-retries or no-deployment-events), to see the run go red")

// runController runs one controller chaos run, ours beside client-go's, and
// fails t with the report and the command that replays it.
func runController(t *testing.T, cfg chaos.ControllerConfig) *chaos.ControllerReport {
	t.Helper()
	cfg.Cluster = cluster(t)
	cfg.Sides = []chaos.ControllerSide{clientGoController{}, ourController{breakIt: *breakOurs}}
	cfg.Timeline = timelineFile(t)
	ctx, cancel := context.WithTimeout(context.Background(), cfg.Duration+2*cfg.Converge+15*time.Minute)
	defer cancel()
	// No panic may escape: on our stack one would end the test binary; on
	// client-go's, HandleCrash swallows it only because TestMain sets
	// utilruntime.ReallyCrash = false, so count them.
	panicsBefore := recoveredByClientGo.Load()
	rep, err := chaos.RunController(ctx, cfg)
	if n := recoveredByClientGo.Load() - panicsBefore; n > 0 && rep != nil {
		rep.Failures = append(rep.Failures, fmt.Sprintf("%d panics on client-go's stack, which a real process would not survive", n))
	}
	var report string
	var failures []string
	if rep != nil {
		report, failures = rep.String(), rep.Failures
	}
	verdict(t, "the controller chaos run", cfg.Seed, report, failures, err,
		fmt.Sprintf("replay: make chaos CONTROLLER=1 SEED=%d DURATION=%s EVERY=%s", cfg.Seed, cfg.Duration, cfg.FaultEvery))
	return rep
}

// TestChaosController is the short, fixed-seed controller run `make test`
// makes: one seed, twelve seconds of Foo workload and faults (a fault every
// second on average: eleven, every kind at least once, the apiserver's
// restart included). Each namespace must then be what its Foos ask for
// within a minute (usually a few seconds: the wait is the informers'
// backoff after the restart), and again after the last word (every Foo
// scaled, the controllers' first writes answered 500), which only a
// controller that retries its failed keys survives; that wait stretches to
// the retries the controller scheduled (see RunController).
func TestChaosController(t *testing.T) {
	rep := runController(t, chaos.ControllerConfig{Seed: 1, Duration: 12 * time.Second, FaultEvery: time.Second, Converge: time.Minute})
	// A run in which nothing failed proves nothing about the retries.
	for _, s := range rep.Sides {
		if s.Failed == 0 {
			t.Errorf("%s: no reconcile failed under the faults: the run tested no retry", s.Name)
		}
	}
	if w := rep.Workload; w.Deletes == 0 || w.DeploymentDeletes == 0 || w.DeploymentEdits == 0 {
		t.Errorf("the workload left out a kind of change: %+v", w)
	}
	if rep.LastWord == 0 && len(rep.Failures) == 0 {
		t.Error("the seed left no Foo for the last word: it tested no retry of a failed write; pick another")
	}
	for _, s := range rep.Sides {
		if rep.LastWord > 0 && s.LastWordConverged && s.LastWordWait == 0 {
			t.Errorf("%s: none of its writes met the last word's 500s: the last word tested no retry there", s.Name)
		}
	}
}

// TestChaosControllerSoak is `make chaos CONTROLLER=1 SEED=… DURATION=…`:
// one long controller run, its report logged whether it passes or not.
func TestChaosControllerSoak(t *testing.T) {
	if *soakSeed == 0 {
		t.Skip("a soak: run it with make chaos CONTROLLER=1 SEED=N DURATION=D")
	}
	runController(t, chaos.ControllerConfig{Seed: *soakSeed, Duration: *soakDuration, FaultEvery: *soakEvery, Converge: 3 * time.Minute, Progress: os.Stderr})
}
