package main

import (
	"strconv"
	"strings"
	"testing"

	"informer-from-scratch/internal/demo/demotest"
	"informer-from-scratch/internal/timeline"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as
// `make run-stage 1` does, and checks it exits 0 having shown each step,
// each write before the events it caused (its seven creates: the answers
// to writes are held back, so a write printed late would come after them).
func TestDemoRunsToCompletion(t *testing.T) {
	tr := demotest.RunCausalTranscript(t, options, nil, run, 7,
		"5 pods in 3 requests",            // the pager made three requests
		`continue="" — no continue token`, // and stopped at the last page
		"MODIFIED  stage01/web-1",         // the watch saw the label change
		"DELETED   stage01/web-2",         // and the deletion
		"sendInitialEvents=true",          // the WatchList request
		"k8s.io/initial-events-end=true",  // its bookmark
		"ADDED     stage01/web-7",         // and the stream carried on
	)
	initialEventsAgreeWithTheirRows(t, tr)
}

// initialEventsAgreeWithTheirRows: the note after the WatchList's bookmark
// (sayInitialEvents) counts the ADDED rows between the WatchList request's
// row and the bookmark's.
func initialEventsAgreeWithTheirRows(t *testing.T, tr demotest.Transcript) {
	t.Helper()
	added, streaming := 0, false
	for _, r := range tr.Rows {
		switch {
		case r.Kind != timeline.KindEvent:
		case r.Layer == "http" && strings.Contains(r.Protocol, "sendInitialEvents=true"):
			streaming = true
		case streaming && r.Layer == "watch" && r.What == "ADDED":
			added++
		case streaming && r.Layer == "watch" && r.What == "BOOKMARK":
			streaming = false
		}
	}
	notes := demotest.NoteArgs(tr, sayInitialEvents)
	if len(notes) != 1 || notes[0][0] != strconv.Itoa(added) || added == 0 {
		t.Errorf("the note says %q initial ADDED events; the rows show %d", notes, added)
	}
}

// TestRowsSpeakChinese runs the demo with --lang=zh: the steps, the notes
// and the words of every row in Chinese, the rows' protocol as in English.
func TestRowsSpeakChinese(t *testing.T) {
	demotest.InChinese(t, options, nil, run, sayPodsInRequests.Format(5, 3).ZH, sayLastPage.ZH)
}
