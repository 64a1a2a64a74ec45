package main

import (
	"testing"

	"informer-from-scratch/internal/demo/demotest"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as
// `make run-stage 4` does, and checks it exits 0 having shown each lesson,
// and each write before what it caused in the cache (its eight creates and
// its patch: the answers to writes are held back, so a write printed when
// its call returned would come after the cache's row).
func TestDemoRunsToCompletion(t *testing.T) {
	demotest.RunCausal(t, options, run, 9,
		"REPLACE   8 pods", // the Reflector filled the cache
		"error: indexer conflict: map[byNode:{}] — added a second time: refused", // AddIndexers on a name in use
		"byNode=node-2",                          // a question answered from an index
		"0 HTTP request(s) sent while answering", // and none from the server
		"[shop/cache-1 shop/web-2] — after",      // the update moved web-2 into app=cache
		"app=cache app=db app=web",               // and the emptied app=worker bucket is gone
	)
}

// TestRowsSpeakChinese runs the demo with --lang=zh: the steps, the notes
// and the words of every row in Chinese, the rows' protocol as in English.
func TestRowsSpeakChinese(t *testing.T) {
	demotest.InChinese(t, options, nil, run, sayPods.Format(8).ZH, sayWholeState.ZH)
}
