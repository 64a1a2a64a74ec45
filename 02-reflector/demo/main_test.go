package main

import (
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"informer-from-scratch/internal/demo/demotest"
	"informer-from-scratch/internal/timeline"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as
// `make run-stage 2` does, and checks it exits 0 having shown each step,
// and each write before the watch events and store calls it caused (its
// six creates and its label: the answers to writes are held back, so a
// write printed when its call returned would come after them).
func TestDemoRunsToCompletion(t *testing.T) {
	tr := demotest.RunCausalTranscript(t, options, nil, run, 7,
		"limit=500&resourceVersion=0",    // the first LIST asks for any version
		"store      Replace   3 objects", // and replaces the store
		"store      Add       stage02/web-4",
		"store      Delete    stage02/web-2",
		"410 Expired",                             // the compaction reached the watch
		"new: stage02/web-5; gone: stage02/web-3", // and the relist repaired the store
		"sendInitialEvents=true",                  // WatchList
		"k8s.io/initial-events-end=true",          // its bookmark
		"store      Resync",                       // resync, with no request
	)
	relistAgreesWithItsRows(t, tr)
}

// relistAgreesWithItsRows reads the relist's step as a person would: the
// pods the demo created and deleted while the connection was cut, and the
// resourceVersion the LIST after the 410 asked for. The note (sayRelisted)
// must name the same.
func relistAgreesWithItsRows(t *testing.T, tr demotest.Transcript) {
	t.Helper()
	notes := demotest.NoteArgs(tr, sayRelisted)
	if len(notes) != 1 {
		t.Fatalf("%d notes of sayRelisted, want 1", len(notes))
	}
	var created, deleted []string
	cut, asked := false, ""
	for _, r := range tr.Rows {
		if r.Kind != timeline.KindEvent {
			continue
		}
		name := r.Object[strings.Index(r.Object, "/")+1:]
		switch {
		case r.Layer == "demo" && r.What == "CUT":
			cut = true
		case r.Layer == "demo" && r.What == "RESTORE":
			cut = false
		case cut && r.Layer == "demo" && r.What == "CREATE":
			created = append(created, name)
		case cut && r.Layer == "demo" && r.What == "DELETE":
			deleted = append(deleted, name)
		case r.Layer == "http" && asked == "" && len(created) > 0 && !strings.Contains(r.Protocol, "watch=true"):
			q, _ := url.ParseQuery(r.Protocol)
			asked = q.Get("resourceVersion") // the relist
		}
	}
	want := []string{asked, strings.Join(created, ", "), strings.Join(deleted, ", ")}
	if diff := cmp.Diff(want, notes[0][1:4]); diff != "" || len(created) == 0 {
		t.Errorf("the note's resourceVersion, new pods and gone pods are not the rows' (-rows +note):\n%s", diff)
	}
}

// TestRowsSpeakChinese runs the demo with --lang=zh: the steps, the notes
// and the words of every row in Chinese, the rows' protocol as in English.
func TestRowsSpeakChinese(t *testing.T) {
	demotest.InChinese(t, options, nil, run, sayNewKeys.Format(sayKeys.Format("stage02/web-5")).ZH, sayResyncRow.ZH)
}
