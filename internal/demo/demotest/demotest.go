// Package demotest runs a whole stage demo inside a test, on a playground, as
// `make run-stage N` does, so that a demo that stops working fails `make test`.
package demotest

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"informer-from-scratch/internal/demo"
)

// Run runs the demo with no flags and KUBECONFIG exported (pointing at a
// cluster that does not exist), as most learners' shells have it: the demo
// must run on a fresh playground all the same. It fails the test unless the
// demo exits 0, checks that its output contains every string in want, and
// returns the output for further checks.
func Run(t *testing.T, opts demo.Options, script func(*demo.Env) error, want ...string) string {
	t.Helper()
	return RunWithArgs(t, opts, nil, script, want...)
}

// RunWithArgs is Run with the demo's own flags (stage 06's --queue).
func RunWithArgs(t *testing.T, opts demo.Options, args []string, script func(*demo.Env) error, want ...string) string {
	t.Helper()
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "a-kubeconfig-the-demo-must-not-read"))
	t.Setenv(demo.KubeconfigEnv, "")
	var out, errOut bytes.Buffer
	if code := demo.Run(opts, args, &out, &errOut, script); code != 0 {
		t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	want = append(want,
		"Cluster: the embedded playground", // KUBECONFIG did not take it elsewhere
		"Playground stopped",               // and everything was cleaned up
	)
	for _, w := range want {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out.String())
		}
	}
	return out.String()
}
