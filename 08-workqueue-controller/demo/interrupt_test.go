package main

import (
	"strings"
	"testing"

	"informer-from-scratch/internal/demo/demotest"
)

// TestCtrlCShutsTheControllerDownAndExitsZero sends the test process a real
// SIGINT while the story runs (the controller is reconciling the Foo it was
// just asked to scale), as Ctrl-C in a terminal does. The controller must
// shut down as sample-controller's does: stop taking keys, drain, stop its
// informers; the demo then prints its metrics, stops the playground and
// exits 0, not 130, and TestMain's goleak finds nothing left behind.
//
// (The web view's tests end the demo by cancelling the script's context,
// which the harness does not see; demotest.Interrupt goes through
// demo.Run's own signal handling.)
func TestCtrlCShutsTheControllerDownAndExitsZero(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a playground")
	}
	code, got := demotest.Interrupt(t, options, nil, run, "Step 4: Scale the Foo")
	if code != 0 {
		t.Fatalf("exit code %d after Ctrl-C, want 0 (a clean shutdown)\n%s", code, got)
	}
	inOrder(t, got,
		"Step 4: Scale the Foo",
		"controller ShutDownWithDrain",
		"controller Drained",
		"controller Shutdown                                 — workers returned",
		"controller Shutdown                                 — informers stopped",
		"Ctrl-C: the controller stopped taking keys",
		"The workqueue's metrics",
		"workqueue_adds_total",
		"Done.",
		"Playground stopped",
	)
	for _, not := range []string{"Interrupted", "Delete the Deployment behind"} {
		if strings.Contains(got, not) {
			t.Errorf("the output holds %q: the interrupt should end the story with a clean shutdown\n%s", not, got)
		}
	}
}
