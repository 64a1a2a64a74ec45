package main

import (
	"math"
	"strings"
	"testing"
)

func TestSignTestIsTheTwoSidedBinomialTail(t *testing.T) {
	for _, c := range []struct {
		k, n int
		want float64
	}{
		{5, 5, 2.0 / 32},        // all five one way: 2 × (1/32)
		{0, 5, 2.0 / 32},        // all five the other way: the same
		{4, 5, 2 * 6.0 / 32},    // 2 × (5+1)/32
		{15, 30, 1},             // an even split cannot be told from chance
		{24, 30, 0.001430906},   // 2 × P(X ≥ 24), X ~ B(30, 1/2)
		{20, 30, 0.09873714736}, // 2 × P(X ≥ 20)
		{0, 0, 1},               // only ties: no evidence either way
	} {
		if got := signTest(c.k, c.n); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("signTest(%d, %d) = %.9f, want %.9f", c.k, c.n, got, c.want)
		}
	}
}

func TestQuantileInterpolatesBetweenRanks(t *testing.T) {
	vs := []float64{4, 1, 3, 2} // unsorted on purpose: quantile must not depend on order
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.25, 1.75}, {0.5, 2.5}, {1, 4}} {
		if got := quantile(vs, c.q); got != c.want {
			t.Errorf("quantile(%v, %v) = %v, want %v", vs, c.q, got, c.want)
		}
	}
	if vs[0] != 4 {
		t.Errorf("quantile sorted its argument in place: %v", vs)
	}
}

// A pair ours loses counts as worse for a latency when ours is higher and
// for events/s when ours is lower; a tie (0 GCs on both sides) is not worse.
func TestPairSummaryCountsThePairsOursLost(t *testing.T) {
	cg := []result{
		{P50: 1e-3, P99: 2e-3, EventsPerSec: 1000},
		{P50: 1e-3, P99: 4e-3, EventsPerSec: 1000},
		{P50: 1e-3, P99: 2e-3, EventsPerSec: 1000},
	}
	ours := []result{
		{P50: 1e-3, P99: 3e-3, EventsPerSec: 900},
		{P50: 1e-3, P99: 2e-3, EventsPerSec: 1100},
		{P50: 1e-3, P99: 4e-3, EventsPerSec: 800},
	}
	got := pairSummary(1, cg, ours)
	for _, want := range []string{
		"| p50 | 1.0 ms (1.0 ms–1.0 ms) | 1.0 ms (1.0 ms–1.0 ms) | 1.00 (1.00–1.00) | 0 of 3 |",
		"| p99 | 2.0 ms (2.0 ms–3.0 ms) | 3.0 ms (2.5 ms–3.5 ms) | 1.50 (0.50–2.00) | 2 of 3 |",
		"| GCs, paced phase | 0.0 (0.0–0.0) | 0.0 (0.0–0.0) | 1.00 (1.00–1.00) | 0 of 3 | 1.000 |", // ties are no evidence
		"| 1.11 (0.91–1.25) | 2 of 3 |", // events/s: client-go ÷ ours
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the summary lacks %q:\n%s", want, got)
		}
	}
}
