package main

import (
	"testing"

	"informer-from-scratch/proving-ground/replay"
)

// TestCellsShowTheirSpread: a cell is the median and, in brackets, the
// lowest and highest run; a ratio's spread is of each run over the run
// beside it, not of the medians.
func TestCellsShowTheirSpread(t *testing.T) {
	a, c := syncKey("ours", replay.JSON, "list", 10), syncKey("client-go", replay.JSON, "list", 10)
	b := &bench{results: map[key][]result{
		a: {{SyncSeconds: 2}, {SyncSeconds: 1.1}, {SyncSeconds: 1.2}},
		c: {{SyncSeconds: 1}, {SyncSeconds: 1}, {SyncSeconds: 1.2}},
	}}
	for _, tc := range []struct{ got, want string }{
		{b.cell(a, syncTime, seconds), "1.20 s (1.10–2.00 s)"},
		{b.ratioCell(a, c, syncTime), "1.10 (1.00–2.00)"},
		{withSpread("5 MiB", []float64{5 << 20}, mib), "5 MiB"},
		{withSpread("1.0 ms", []float64{0.0009, 0.0011}, seconds), "1.0 ms (900 µs–1.1 ms)"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
