package chaos

import (
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"informer-from-scratch/internal/faultproxy"
)

// Report is what a chaos run did and how each side came out of it.
type Report struct {
	Seed     uint64
	Duration time.Duration
	Plan     []faultproxy.Planned
	Workload WorkloadCounts
	// Proxy counts the proxy's faults; Playground the compactions and
	// restarts.
	Proxy      faultproxy.Stats
	Playground map[faultproxy.Kind]int
	Sides      []SideReport
	// Objects is how many objects the server held at the end.
	Objects int
	// PeakGoroutines and PeakHeap are the whole test process's (both
	// sides, the proxy and the workload together), sampled every 100ms.
	PeakGoroutines int
	PeakHeap       uint64
	// Failures say what went wrong; none means the run passed.
	Failures []string
}

// SideReport is one side's part of a run.
type SideReport struct {
	Name string
	// Lists counts LIST requests and WatchList streams (the first list of
	// each informer, every relist, every retry of a failed one); Watches
	// the watch requests (the first of each informer and every restart).
	Lists, Watches int
	// Delivered sums what every handler received.
	Delivered Delivered
	// Recovered is how many handler panics the library caught.
	Recovered    int
	Converged    bool
	ConvergeTime time.Duration
}

// String prints the report for a person.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "chaos report: seed %d, %s of workload and faults\n", r.Seed, r.Duration)
	fmt.Fprintf(&b, "workload: %d creates, %d updates, %d deletes (%d refused as no-ops, %d retried through a restart); %d objects at the end\n",
		r.Workload.Creates, r.Workload.Updates, r.Workload.Deletes, r.Workload.NoOps, r.Workload.Retries, r.Objects)
	fmt.Fprintf(&b, "requests through the proxy: %d (%d watches); ERROR events from the apiserver itself: %v; answered 502 (apiserver unreachable): %d\n", r.Proxy.Requests, r.Proxy.Watches, r.Proxy.ServerErrors, r.Proxy.Unreachable)

	writeFaultTable(&b, r.Plan, r.Proxy, r.Playground)

	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "\nside\tlists\twatches\tadds\tupdates\tdeletes\ttombstones\tpanics caught\tconverged\t")
	for _, s := range r.Sides {
		d := s.Delivered
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t\n", s.Name, s.Lists, s.Watches, d.Adds, d.Updates, d.Deletes, d.Tombstones, s.Recovered, convergedIn(s.Converged, s.ConvergeTime))
	}
	w.Flush()
	writeResult(&b, r.PeakGoroutines, r.PeakHeap, r.Failures, "every cache and every handler's view equals a fresh LIST")
	return b.String()
}

// writeResult ends a report: the process's peak, then passed if there are
// no failures, or else the failures, one a line.
func writeResult(b *strings.Builder, peakGoroutines int, peakHeap uint64, failures []string, passed string) {
	fmt.Fprintf(b, "\nthe process at its peak: %d goroutines, %.1f MiB of heap\n", peakGoroutines, float64(peakHeap)/(1<<20))
	if len(failures) == 0 {
		b.WriteString("result: " + passed + "\n")
		return
	}
	fmt.Fprintf(b, "result: FAILED (%d)\n", len(failures))
	for _, f := range failures {
		b.WriteString("  - " + f + "\n")
	}
}

// writeFaultTable prints, per kind of fault, how many were planned, how
// many hit and how many the proxy had to skip.
func writeFaultTable(b *strings.Builder, plan []faultproxy.Planned, proxy faultproxy.Stats, made map[faultproxy.Kind]int) {
	planned := map[faultproxy.Kind]int{}
	for _, p := range plan {
		planned[p.Kind]++
	}
	w := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "\nfault\tplanned\thit\tskipped (no watch open, or protobuf)\t")
	for _, k := range faultproxy.AllKinds {
		hit, skipped := proxy.Faults[k], proxy.Skipped[k]
		if k == faultproxy.Compact || k == faultproxy.Restart {
			hit = made[k]
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t\n", k, planned[k], hit, skipped)
	}
	w.Flush()
}
