package demo_test

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/demo/demotest"
	"informer-from-scratch/internal/lang"
)

const secret = "do-not-print-this-token"

// kubeconfigFor writes a kubeconfig for server with a bearer token.
func kubeconfigFor(t *testing.T, server string) string {
	t.Helper()
	return demotest.Kubeconfig(t, server, secret)
}

func run(t *testing.T, args []string, script func(*demo.Env) error) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = demo.Run(demo.Options{Stage: 1, Title: lang.T("test", "测试")}, args, &out, &errOut, script)
	return code, out.String(), errOut.String()
}

func mustNotRun(t *testing.T) func(*demo.Env) error {
	return func(*demo.Env) error {
		t.Error("the script ran although the cluster is unusable")
		return nil
	}
}

func TestUnreachableClusterFailsWithOneClearSentence(t *testing.T) {
	// Port 1 on loopback: nothing listens there, the connection is refused.
	path := kubeconfigFor(t, "https://127.0.0.1:1")
	code, stdout, stderr := run(t, []string{"--kubeconfig", path}, mustNotRun(t))
	if code != 1 {
		t.Errorf("exit code %d, want 1", code)
	}
	if !strings.Contains(stderr, "error: cannot reach the cluster at https://127.0.0.1:1") {
		t.Errorf("stderr does not say the cluster is unreachable:\n%s", stderr)
	}
	if strings.Contains(stdout+stderr, secret) {
		t.Errorf("the output contains the kubeconfig's token")
	}
	if !strings.Contains(stdout, "read-only") {
		t.Errorf("stdout does not say a real cluster is used read-only:\n%s", stdout)
	}
}

// The variable the README names points the demos at a real cluster; the
// banner says so, and the flag wins over it.
func TestInformerKubeconfigPointsAtARealCluster(t *testing.T) {
	t.Setenv(demo.KubeconfigEnv, kubeconfigFor(t, "https://127.0.0.1:1"))
	code, stdout, stderr := run(t, nil, mustNotRun(t))
	if code != 1 || !strings.Contains(stderr, "cannot reach the cluster at https://127.0.0.1:1") {
		t.Errorf("exit code %d, stderr %q; want 1 and the unreachable cluster of $%s", code, stderr, demo.KubeconfigEnv)
	}
	if !strings.Contains(stdout, "Cluster: a real cluster") || !strings.Contains(stdout, "given with $"+demo.KubeconfigEnv) {
		t.Errorf("the banner does not say which cluster is used, and why:\n%s", stdout)
	}
	code, stdout, stderr = run(t, []string{"--kubeconfig", kubeconfigFor(t, "https://127.0.0.1:2")}, mustNotRun(t))
	if code != 1 || !strings.Contains(stderr, "https://127.0.0.1:2") || !strings.Contains(stdout, "given with --kubeconfig") {
		t.Errorf("--kubeconfig did not win over $%s: exit code %d\nstdout:\n%s\nstderr:\n%s", demo.KubeconfigEnv, code, stdout, stderr)
	}
}

func TestMissingKubeconfigFails(t *testing.T) {
	code, _, stderr := run(t, []string{"--kubeconfig", filepath.Join(t.TempDir(), "nope")}, mustNotRun(t))
	if code != 1 || !strings.Contains(stderr, "error: ") {
		t.Errorf("exit code %d, stderr %q; want 1 and an error line", code, stderr)
	}
}

func TestMalformedKubeconfigFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubeconfig")
	os.WriteFile(path, []byte("clusters: [this is not: a kubeconfig"), 0o600)
	code, _, stderr := run(t, []string{"--kubeconfig", path}, mustNotRun(t))
	if code != 1 || !strings.Contains(stderr, "error: ") {
		t.Errorf("exit code %d, stderr %q; want 1 and an error line", code, stderr)
	}
}

func TestUnknownFlagIsAUsageError(t *testing.T) {
	code, _, stderr := run(t, []string{"--no-such-flag"}, mustNotRun(t))
	if code != 2 || !strings.Contains(stderr, "flag provided but not defined") {
		t.Errorf("exit code %d, stderr %q; want 2 and the flag error", code, stderr)
	}
}

// Only stages 06 and 08 have --break; on the others the refusal says where
// that stage's break-it is instead, in the learner's language.
func TestBreakOnAStageWithoutItSaysWhereToLook(t *testing.T) {
	for _, tc := range []struct{ lang, want string }{
		{"en", "the demos of stages 06 and 08 take it"},
		{"zh", "第 6 和第 8 阶段的 demo 才有"},
	} {
		code, _, stderr := run(t, []string{"--lang=" + tc.lang, "--break=help"}, mustNotRun(t))
		if code != 2 || !strings.Contains(stderr, "-break") || !strings.Contains(stderr, tc.want) {
			t.Errorf("--lang=%s --break=help: exit %d, stderr:\n%s\nwant 2, the flag error and %q", tc.lang, code, stderr, tc.want)
		}
	}
	if _, _, stderr := run(t, []string{"--no-such-flag"}, mustNotRun(t)); strings.Contains(stderr, "--break") {
		t.Errorf("--no-such-flag: the --break hint is given for another flag:\n%s", stderr)
	}
}

func TestHelpExitsZero(t *testing.T) {
	code, _, stderr := run(t, []string{"--help"}, mustNotRun(t))
	if code != 0 || !strings.Contains(stderr, "-kubeconfig") {
		t.Errorf("exit code %d, stderr %q; want 0 and the flags", code, stderr)
	}
}

// An exported KUBECONFIG, as most Kubernetes developers have, does not take
// the demo away from the playground; the banner says it was ignored. And a
// script's error is reported.
func TestExportedKubeconfigIsIgnoredAndScriptErrorsAreReported(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a playground")
	}
	t.Setenv("KUBECONFIG", kubeconfigFor(t, "https://127.0.0.1:1"))
	t.Setenv(demo.KubeconfigEnv, "")
	code, stdout, stderr := run(t, nil, func(env *demo.Env) error {
		if !env.OnPlayground() || !env.Writes {
			t.Errorf("KUBECONFIG exported, no --kubeconfig: not on a writable playground")
		}
		return errors.New("the script failed on purpose")
	})
	if code != 1 || !strings.Contains(stderr, "error: the script failed on purpose") {
		t.Errorf("exit code %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "Cluster: the embedded playground") || !strings.Contains(stdout, "KUBECONFIG is set, and ignored") {
		t.Errorf("the banner does not say the playground is used and KUBECONFIG ignored:\n%s", stdout)
	}
}

// On a real cluster a demo only reads: no flag turns writes on (the --write
// of earlier versions is gone), and only a demo whose Options ask for it
// (stage 08's controller) may write, in a namespace of its own.
func TestARealClusterIsReadOnlyUnlessTheStageWrites(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"major":"1","minor":"37","gitVersion":"v1.37.1"}`))
	}))
	defer srv.Close()
	path := kubeconfigFor(t, srv.URL)

	code, _, stderr := run(t, []string{"--kubeconfig", path, "--write"}, mustNotRun(t))
	if code != 2 || !strings.Contains(stderr, "flag provided but not defined: -write") {
		t.Errorf("--write: exit code %d, stderr %q; want 2 and the flag error", code, stderr)
	}

	for _, writes := range []bool{false, true} {
		var out, errOut bytes.Buffer
		var got bool
		code := demo.Run(demo.Options{Stage: 8, Title: lang.T("test", "测试"), WritesOnRealCluster: writes}, []string{"--kubeconfig", path}, &out, &errOut, func(env *demo.Env) error {
			got = env.Writes
			if !writes {
				if _, err := env.Namespace("x"); err == nil || !strings.Contains(err.Error(), "only reads") {
					t.Errorf("Namespace on a read-only real cluster returned %v, want an error saying the demo only reads", err)
				}
			}
			return nil
		})
		if code != 0 {
			t.Fatalf("WritesOnRealCluster=%v: exit code %d, stderr %q", writes, code, errOut.String())
		}
		if got != writes {
			t.Errorf("WritesOnRealCluster=%v: env.Writes=%v", writes, got)
		}
		want := "read-only"
		if writes {
			want = "only in a namespace of its own"
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("WritesOnRealCluster=%v: the banner does not say %q:\n%s", writes, want, out.String())
		}
	}
}
