package main

import (
	"bytes"
	"strings"
	"testing"

	"informer-from-scratch/internal/demo"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as
// `make run-stage 1` does, and checks it exits 0 having shown each step.
func TestDemoRunsToCompletion(t *testing.T) {
	t.Setenv("KUBECONFIG", "") // the playground, whatever the environment says
	var out, errOut bytes.Buffer
	if code := demo.Run(options, nil, &out, &errOut, run); code != 0 {
		t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{
		"5 pods in 3 requests",           // the pager made three requests
		"continue=(none: last page)",     // and stopped at the last page
		"MODIFIED  stage01/web-1",        // the watch saw the label change
		"DELETED   stage01/web-2",        // and the deletion
		"sendInitialEvents=true",         // the WatchList request
		"k8s.io/initial-events-end=true", // its bookmark
		"ADDED     stage01/web-7",        // and the stream carried on
		"Playground stopped",             // and everything was cleaned up
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
