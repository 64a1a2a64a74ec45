package main

import (
	"strings"
	"testing"

	"informer-from-scratch/internal/demo/demotest"
	"informer-from-scratch/internal/timeline"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as
// `make run-stage 4` does, and checks it exits 0 having shown each lesson,
// and each write before what it caused in the cache (its eight creates and
// its patch: the answers to writes are held back, so a write printed when
// its call returned would come after the cache's row).
func TestDemoRunsToCompletion(t *testing.T) {
	tr := demotest.RunCausalTranscript(t, options, nil, run, 9,
		"REPLACE   8 pods", // the Reflector filled the cache
		"error: indexer conflict: map[byNode:{}] — added a second time: refused", // AddIndexers on a name in use
		"byNode=node-2",                          // a question answered from an index
		"0 HTTP request(s) sent while answering", // and none from the server
		"[shop/cache-1 shop/web-2] — after",      // the update moved web-2 into app=cache
		"app=cache app=db app=web",               // and the emptied app=worker bucket is gone
	)
	cacheNoteAgreesWithItsRow(t, tr)
}

// cacheNoteAgreesWithItsRow: the note after the first state came
// (sayCacheHolds) counts the pods the cache's REPLACE row says it took.
func cacheNoteAgreesWithItsRow(t *testing.T, tr demotest.Transcript) {
	t.Helper()
	replaced := ""
	for _, r := range tr.Rows {
		if r.Kind == timeline.KindEvent && r.Layer == "cache" && r.What == "REPLACE" && r.ObjectText != nil {
			replaced = strings.Fields(r.ObjectText.EN)[0] // "8 pods"
			break
		}
	}
	notes := demotest.NoteArgs(tr, sayCacheHolds)
	if len(notes) != 1 || notes[0][0] != replaced {
		t.Errorf("the note says %q; the cache's REPLACE row took %q pods", notes, replaced)
	}
}

// TestRowsSpeakChinese runs the demo with --lang=zh: the steps, the notes
// and the words of every row in Chinese, the rows' protocol as in English.
func TestRowsSpeakChinese(t *testing.T) {
	demotest.InChinese(t, options, nil, run, sayPods.Format(8).ZH, sayWholeState.ZH)
}
