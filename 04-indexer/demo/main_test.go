package main

import (
	"testing"

	"informer-from-scratch/internal/demo/demotest"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as
// `make run-stage 4` does, and checks it exits 0 having shown each lesson.
func TestDemoRunsToCompletion(t *testing.T) {
	demotest.Run(t, options, run,
		"REPLACE   8 pods",                          // the Reflector filled the cache
		"refused: indexer conflict: map[byNode:{}]", // AddIndexers on a name in use
		"byNode=node-2",                             // a question answered from an index
		"0 HTTP request(s) sent while answering",    // and none from the server
		"after: [shop/cache-1 shop/web-2]",          // the update moved web-2 into app=cache
		"app=cache app=db app=web",                  // and the emptied app=worker bucket is gone
	)
}
