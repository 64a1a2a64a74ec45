package demotest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"informer-from-scratch/internal/demo"
)

// Refuses runs the demo with args, which hold a flag value it cannot use
// (or flags that cannot go together), and checks that it refuses them
// before anything starts: exit status 2, an error on stderr containing
// want, and no "Cluster:" ("集群：") line on stdout (the harness prints one just
// before it starts a playground or connects to a cluster). With
// realCluster, --kubeconfig names a cluster that answers nothing and counts
// every request: there must be none. Without it, the demo takes the
// playground's path; a demo that checked its flags only after starting a
// playground fails the test, having started one (a few seconds).
func Refuses(t *testing.T, opts demo.Options, args []string, realCluster bool, script func(*demo.Env) error, want string) {
	t.Helper()
	english(t)
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "a-kubeconfig-the-demo-must-not-read"))
	t.Setenv(demo.KubeconfigEnv, "")
	var asked func() []string
	if realCluster {
		var path string
		path, asked = untouchableCluster(t)
		// First: the flag package stops at the first word that is not a flag.
		args = append([]string{"--kubeconfig", path}, args...)
	}
	var out, errOut bytes.Buffer
	code := demo.Run(opts, args, &out, &errOut, script)
	if code != 2 || !strings.Contains(errOut.String(), want) {
		t.Errorf("%q: exit status %d, stderr %q; want 2 and an error saying %q", args, code, errOut.String(), want)
	}
	if strings.Contains(out.String(), "Cluster:") || strings.Contains(out.String(), "集群：") {
		t.Errorf("%q: the demo turned to a cluster before refusing:\n%s", args, out.String())
	}
	if asked != nil {
		if reqs := asked(); len(reqs) > 0 {
			t.Errorf("%q: the demo sent the cluster %q before refusing", args, reqs)
		}
	}
}

// untouchableCluster serves a cluster that answers every request with a
// 500, and returns a kubeconfig for it and a function listing the requests
// it received.
func untouchableCluster(t *testing.T) (kubeconfig string, asked func() []string) {
	var mu sync.Mutex
	var reqs []string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reqs = append(reqs, r.Method+" "+r.URL.Path)
		mu.Unlock()
		http.Error(w, "this cluster is not to be asked anything", http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	return Kubeconfig(t, srv.URL, "t"), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), reqs...)
	}
}

// RefusesCommonFlags runs Refuses with what every demo's common flags
// cannot take, on both paths: a value --wait cannot parse, a flag no demo
// has, and words that are not flags (ARGS=fifo for ARGS=--queue=fifo; a
// flag after "--", where the flag package stops). None of them sets
// --wait, so a demo that did not refuse one ends by itself and fails the
// test instead of waiting for a Ctrl-C.
func RefusesCommonFlags(t *testing.T, opts demo.Options, script func(*demo.Env) error) {
	t.Helper()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--wait=maybe"}, `invalid boolean value "maybe" for -wait`},
		{[]string{"--no-such-flag"}, "flag provided but not defined: -no-such-flag"},
		{[]string{"fifo"}, `unexpected argument "fifo"`},
		{[]string{"--", "--wait"}, `unexpected argument "--wait"`},
	} {
		for _, realCluster := range []bool{false, true} {
			Refuses(t, opts, tc.args, realCluster, script, tc.want)
		}
	}
}
