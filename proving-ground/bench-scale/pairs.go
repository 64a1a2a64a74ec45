package main

import (
	"fmt"
	"math"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"informer-from-scratch/proving-ground/replay"
)

// pairRuns answers one question with many small comparisons rather than
// one table of medians: is our steady-state latency with `handlers`
// handlers worse than client-go's? A tail latency on a shared 2-core
// machine moves by several times from one run to the next, so one run
// each proves nothing, and a side that always runs first meets the
// machine in a different mood from the one that runs second. Each pair
// runs both informers back to back, each in its own process and against
// its own replay server, the order swapped from one pair to the next; the
// summary counts the pairs ours lost and gives the distribution of the
// per-pair ratios, with a sign test for "neither side is slower".
func (b *bench) pairRuns(pairs, handlers int) (string, error) {
	pods := replay.Pods(steadyPods)
	var cg, ours []result
	for i := range pairs {
		order := []string{"client-go", "ours"}
		if i%2 == 1 {
			order = []string{"ours", "client-go"}
		}
		for _, impl := range order {
			r, err := b.steadyOnce(pods, impl, handlers, true)
			if err != nil {
				return "", err
			}
			if impl == "ours" {
				ours = append(ours, r)
			} else {
				cg = append(cg, r)
			}
		}
		b.progress("pair %2d/%d (%-9s first): p99 cg %-8s ours %-8s | p50 cg %-8s ours %-8s | p99 to queue cg %-8s ours %-8s | queue to handler cg %-8s ours %-8s | GCs cg %d ours %d",
			i+1, pairs, order[0], seconds(cg[i].P99), seconds(ours[i].P99), seconds(cg[i].P50), seconds(ours[i].P50),
			seconds(cg[i].QueueP99), seconds(ours[i].QueueP99), seconds(cg[i].HandlerP99), seconds(ours[i].HandlerP99), cg[i].GCs, ours[i].GCs)
	}
	return pairSummary(handlers, cg, ours), nil
}

// steadyOnce runs one steady-state measurement against a fresh server: its
// updates can be sent only once.
func (b *bench) steadyOnce(pods []corev1.Pod, impl string, handlers int, diagnose bool) (result, error) {
	srv, err := replay.Start(pods, replay.Options{Encoding: replay.JSON, Updates: steadyBurst + steadyPaced})
	if err != nil {
		return result{}, err
	}
	defer srv.Close()
	r, err := runOne(spec{Kind: "steady", Impl: impl, URL: srv.URL(), Encoding: replay.JSON, Mode: "watchlist",
		N: steadyPods, Handlers: handlers, Burst: steadyBurst, Paced: steadyPaced, Interval: steadyInterval, Diagnose: diagnose})
	if err != nil {
		return result{}, fmt.Errorf("steady %s h=%d: %w", impl, handlers, err)
	}
	return r, nil
}

// pairSummary is the -pairs report: for p50, p99 and events/s, each side's
// median and quartiles, and the per-pair ratio ours÷client-go (for events/s
// client-go÷ours, so that above 1 always means ours was worse).
func pairSummary(handlers int, cg, ours []result) string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format, args...) }
	p("Steady state, %d handler(s), %d pairs (order alternating), from the server's write to the handler's call:\n\n", handlers, len(cg))
	p("| measure | client-go: median (q1–q3) | ours: median (q1–q3) | ratio ours÷cg per pair: median (min–max) | pairs ours worse | sign test p (ties left out) |\n")
	p("| --- | ---: | ---: | ---: | ---: | ---: |\n")
	row := func(name string, field func(result) float64, higherIsBetter bool, format func(float64) string) {
		a, o := values(cg, field), values(ours, field)
		ratios := make([]float64, len(a))
		worse, ties := 0, 0
		for i := range a {
			worst, best := o[i], a[i]
			if higherIsBetter {
				worst, best = a[i], o[i]
			}
			ratios[i] = worst / best
			switch {
			case worst == best:
				ratios[i] = 1 // 0÷0 too: no GC on either side
				ties++
			case worst > best:
				worse++
			}
		}
		p("| %s | %s (%s–%s) | %s (%s–%s) | %.2f (%.2f–%.2f) | %d of %d | %.3f |\n", name,
			format(quantile(a, 0.5)), format(quantile(a, 0.25)), format(quantile(a, 0.75)),
			format(quantile(o, 0.5)), format(quantile(o, 0.25)), format(quantile(o, 0.75)),
			quantile(ratios, 0.5), slices.Min(ratios), slices.Max(ratios), worse, len(ratios), signTest(worse, len(ratios)-ties))
	}
	row("p50", p50, false, seconds)
	row("p99", p99, false, seconds)
	row("p99, write to queue", func(r result) float64 { return r.QueueP99 }, false, seconds)
	row("p99, queue to handler", func(r result) float64 { return r.HandlerP99 }, false, seconds)
	row("GCs, paced phase", func(r result) float64 { return float64(r.GCs) }, false, func(v float64) string { return fmt.Sprintf("%.1f", v) })
	row("GC pause, paced phase", func(r result) float64 { return r.GCPause }, false, seconds)
	row("events/s", rate, true, perSec)
	p("\nFor events/s the ratio is client-go's over ours: above 1 means ours was worse, as for the latencies.\n")
	return w.String()
}

func values(rs []result, field func(result) float64) []float64 {
	vs := make([]float64, len(rs))
	for i, r := range rs {
		vs[i] = field(r)
	}
	return vs
}

// quantile of vs by linear interpolation between the closest ranks.
func quantile(vs []float64, q float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	pos := q * float64(len(s)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(s)-1)
	return s[lo] + (s[hi]-s[lo])*(pos-float64(lo))
}

// signTest is the two-sided p-value of k or a more lopsided count out of n
// pairs, if each pair were a fair coin: small means one side really is
// worse more often than chance would make it. Ties are not among the n:
// they say nothing about which side is worse.
func signTest(k, n int) float64 {
	if n == 0 {
		return 1
	}
	k = max(k, n-k)
	tail := 0.0
	for i := k; i <= n; i++ {
		tail += binomial(n, i) / math.Pow(2, float64(n))
	}
	return min(1, 2*tail)
}

func binomial(n, k int) float64 {
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return c
}
