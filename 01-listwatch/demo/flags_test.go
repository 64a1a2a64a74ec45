package main

import (
	"testing"

	"informer-from-scratch/internal/demo/demotest"
)

// TestBadFlagsAreRefusedBeforeAnythingStarts: the demo takes the common
// flags only; a value or a word they cannot take is refused with a
// sentence, before a playground starts (on a first run, minutes of
// building) or a real cluster is asked anything.
func TestBadFlagsAreRefusedBeforeAnythingStarts(t *testing.T) {
	demotest.RefusesCommonFlags(t, options, run)
}
