package main

import (
	"regexp"
	"testing"

	"informer-from-scratch/internal/demo/demotest"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as
// `make run-stage 5` does, and checks it exits 0 having shown each step,
// and each informer row before the handler calls it caused (the LIST and
// the five watch events).
func TestDemoRunsToCompletion(t *testing.T) {
	out := demotest.RunCausal(t, options, run, 6,
		"slow       SYNCED",                  // the slow handler's HasSynced flipped, late
		"RESYNC    5 pods",                   // a resync tick
		"— resync: the same object replayed", // delivered to the resync handler
		"99998 pending",                      // the ring took 100,000 notifications
		"capacity still 131072 slots",        // and kept its array
	)
	// The slow handler fell behind while the others did not.
	if !regexp.MustCompile(`DEPTH +fast=0 slow=[1-9]\d* resync=0`).MatchString(out) {
		t.Errorf("no ring row shows the slow handler behind and the others caught up:\n%s", out)
	}
}

// TestRowsSpeakChinese runs the demo with --lang=zh: the steps, the notes
// and the words of every row in Chinese, the rows' protocol as in English.
func TestRowsSpeakChinese(t *testing.T) {
	demotest.InChinese(t, options, nil, run, sayReplayed.ZH, sayPending.Format(99998).ZH)
}
