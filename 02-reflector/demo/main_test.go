package main

import (
	"testing"

	"informer-from-scratch/internal/demo/demotest"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as
// `make run-stage 2` does, and checks it exits 0 having shown each step,
// and each write before the watch events and store calls it caused (its
// six creates and its label: the answers to writes are held back, so a
// write printed when its call returned would come after them).
func TestDemoRunsToCompletion(t *testing.T) {
	demotest.RunCausal(t, options, run, 7,
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
}

// TestRowsSpeakChinese runs the demo with --lang=zh: the steps, the notes
// and the words of every row in Chinese, the rows' protocol as in English.
func TestRowsSpeakChinese(t *testing.T) {
	demotest.InChinese(t, options, nil, run, sayNewKeys.Format(sayKeys.Format("stage02/web-5")).ZH, sayResyncRow.ZH)
}
