package chaos

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"informer-from-scratch/internal/faultproxy"
)

// ControllerReport is what a controller chaos run did and how each side
// came out of it.
type ControllerReport struct {
	Seed     uint64
	Duration time.Duration
	Plan     []faultproxy.Planned
	Workload FooWorkloadCounts
	// Proxy counts the proxy's faults; Playground the compactions and
	// restarts.
	Proxy      faultproxy.Stats
	Playground map[faultproxy.Kind]int
	Sides      []ControllerSideReport
	// LastWord is how many Foos the last word scaled in each namespace
	// (0: there was none, as some side did not converge before it).
	LastWord int
	// Foos and Deployments are how many the first side's namespace held
	// at the end.
	Foos, Deployments int
	// PeakGoroutines and PeakHeap are the whole test process's, sampled
	// every 100ms while the workload ran and until convergence.
	PeakGoroutines int
	PeakHeap       uint64
	// Failures say what went wrong; none means the run passed.
	Failures []string
}

// ControllerSideReport is one side's part of a run.
type ControllerSideReport struct {
	Name, Namespace string
	// Lists, Watches and Writes count the requests the controller sent
	// through the proxy: its informers' lists (and WatchList streams) and
	// watches, and its writes (Deployments, Foo status).
	Lists, Watches, Writes int
	// Reconciles counts syncHandler calls, Failed those that returned an
	// error, Requeues the AddRateLimited that followed, LongestWait the
	// longest delay the rate limiter gave a key.
	Reconciles, Failed, Requeues int
	LongestWait                  time.Duration
	// Converged and ConvergeTime are for the storm: from the end of the
	// faults until the namespace was what its Foos ask for.
	Converged    bool
	ConvergeTime time.Duration
	// LastWordConverged and LastWordTime are for the last word: from the
	// scaling of every Foo, with the controllers' writes answered 500,
	// until the namespace was right again.
	LastWordConverged bool
	LastWordTime      time.Duration
	// LastWordWait is the longest delay the rate limiter gave a key failed
	// by the last word's 500s: 5ms for a fresh failure, unless the storm's
	// failures left the limiter's overall bucket in debt.
	LastWordWait time.Duration
}

// String prints the report for a person.
func (r *ControllerReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "controller chaos report: seed %d, %s of workload and faults\n", r.Seed, r.Duration)
	w := r.Workload
	fmt.Fprintf(&b, "workload, in each namespace: %d Foo creates, %d scales, %d deletes; behind the controllers' backs %d Deployment deletes, %d edits (%d writes refused as no-ops, %d retried through a restart); %d Foos and %d Deployments at the end\n",
		w.Creates, w.Scales, w.Deletes, w.DeploymentDeletes, w.DeploymentEdits, w.NoOps, w.Retries, r.Foos, r.Deployments)
	if r.LastWord > 0 {
		fmt.Fprintf(&b, "the last word: %d Foos scaled in each namespace once both had converged, the controllers' next writes answered 500\n", r.LastWord)
	}
	fmt.Fprintf(&b, "requests through the proxy: %d (%d watches); ERROR events from the apiserver itself: %v; answered 502 (apiserver unreachable): %d\n", r.Proxy.Requests, r.Proxy.Watches, r.Proxy.ServerErrors, r.Proxy.Unreachable)
	writeFaultTable(&b, r.Plan, r.Proxy, r.Playground)

	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nside\tlists\twatches\twrites\treconciles\tfailed\trequeues\tlongest wait\tconverged\tafter the last word\t")
	for _, s := range r.Sides {
		last := "-"
		if r.LastWord > 0 {
			// The rate limiter's shortest delay is 5ms: 0 is no retry at all.
			retry := "no retry scheduled"
			if s.LastWordWait > 0 {
				retry = "retried after " + s.LastWordWait.Round(time.Millisecond).String()
			}
			last = fmt.Sprintf("%s (%s)", convergedIn(s.LastWordConverged, s.LastWordTime), retry)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\t%s\t\n", s.Name, s.Lists, s.Watches, s.Writes, s.Reconciles, s.Failed, s.Requeues,
			s.LongestWait.Round(time.Millisecond), convergedIn(s.Converged, s.ConvergeTime), last)
	}
	tw.Flush()
	writeResult(&b, r.PeakGoroutines, r.PeakHeap, r.Failures, "every Foo has exactly its Deployment (replicas, owner, available) and reports it, no orphan is left, and both namespaces are equal")
	return b.String()
}

func convergedIn(ok bool, took time.Duration) string {
	if !ok {
		return fmt.Sprintf("NO (gave up after %s)", took.Round(time.Second))
	}
	return fmt.Sprintf("in %s", took.Round(10*time.Millisecond))
}
