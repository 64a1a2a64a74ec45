// Package demotest runs a whole stage demo inside a test, on a playground, as
// `make run-stage N` does, so that a demo that stops working fails `make test`.
package demotest

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

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

// Kubeconfig writes a kubeconfig for server, with a bearer token and TLS
// verification off (a test server's certificate is its own), and returns
// its path: a "real cluster" for a demo's --kubeconfig.
func Kubeconfig(t *testing.T, server, token string) string {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["c"] = &clientcmdapi.Cluster{Server: server, InsecureSkipTLSVerify: true}
	cfg.AuthInfos["u"] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts["ctx"] = &clientcmdapi.Context{Cluster: "c", AuthInfo: "u"}
	cfg.CurrentContext = "ctx"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// RowsShowBreak checks the output of a demo run with --break=name: each of
// want (regular expressions) must match, each after the one before it, and
// none of not may match anywhere (the rows that show the mechanism the
// switch took away still at work).
func RowsShowBreak(t *testing.T, name, out string, want, not []string) {
	t.Helper()
	rest := out
	for _, row := range want {
		loc := regexp.MustCompile(row).FindStringIndex(rest)
		if loc == nil {
			t.Fatalf("--break=%s: no row matching %q after the rows before it:\n%s", name, row, out)
		}
		rest = rest[loc[1]:]
	}
	for _, row := range not {
		if regexp.MustCompile(row).MatchString(out) {
			t.Errorf("--break=%s: a row matches %q, which the switch should prevent:\n%s", name, row, out)
		}
	}
}
