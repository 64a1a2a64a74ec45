// Package demotest runs a whole stage demo inside a test, on a playground, as
// `make run-stage N` does, so that a demo that stops working fails `make test`.
package demotest

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/timeline"
)

// Run runs the demo with no flags and KUBECONFIG exported (pointing at a
// cluster that does not exist), as most learners' shells have it: the demo
// must run on a fresh playground all the same. It fails the test unless the
// demo exits 0, checks that its output contains every string in want, and
// returns the output for further checks. The demo narrates in English,
// whatever the machine's locale, unless args say --lang.
func Run(t *testing.T, opts demo.Options, script func(*demo.Env) error, want ...string) string {
	t.Helper()
	return RunWithArgs(t, opts, nil, script, want...)
}

// RunWithArgs is Run with the demo's own flags (stage 06's --queue).
func RunWithArgs(t *testing.T, opts demo.Options, args []string, script func(*demo.Env) error, want ...string) string {
	t.Helper()
	return RunTranscript(t, opts, args, script, want...).Out
}

// Transcript is what a demo printed, and the timeline's rows as its
// subscribers received them.
type Transcript struct {
	Out  string
	Rows []timeline.Row
}

// RunTranscript is RunWithArgs returning the timeline's rows too.
func RunTranscript(t *testing.T, opts demo.Options, args []string, script func(*demo.Env) error, want ...string) Transcript {
	t.Helper()
	english(t)
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "a-kubeconfig-the-demo-must-not-read"))
	t.Setenv(demo.KubeconfigEnv, "")
	var mu sync.Mutex
	var rows []timeline.Row
	recorded := func(env *demo.Env) error {
		defer env.Timeline.Subscribe(func(r timeline.Row) {
			mu.Lock()
			defer mu.Unlock()
			rows = append(rows, r)
		})()
		return script(env)
	}
	var out, errOut bytes.Buffer
	if code := demo.Run(opts, args, &out, &errOut, recorded); code != 0 {
		t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	l := lang.EN
	if demo.FlagAsks(args, "lang", lang.ZH) {
		l = lang.ZH
	}
	want = append(want,
		demo.SayPlayground.In(l),        // KUBECONFIG did not take it elsewhere
		demo.SayPlaygroundStopped.In(l), // and everything was cleaned up
	)
	for _, w := range want {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out.String())
		}
	}
	mu.Lock()
	defer mu.Unlock()
	return Transcript{Out: out.String(), Rows: rows}
}

// english makes the locale's language English for the rest of the test,
// so that a demo run without --lang narrates in the language its test
// expects, whatever the machine's LANG.
func english(t *testing.T) {
	t.Setenv("LC_ALL", "C")
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

// RunOnRealCluster runs the demo with args and --kubeconfig on a second
// playground, standing in for a real cluster: a demo must only read there
// (stage 08's, which writes in a namespace of its own, has its own test).
// It fails the test unless the demo exits 0, says in its banner that it is
// read-only, prints every string in want, and leaves every object of
// resources (the kinds the demo reads or would write) as it found it, down
// to the resourceVersion. It returns the output.
func RunOnRealCluster(t *testing.T, opts demo.Options, args []string, script func(*demo.Env) error, resources []schema.GroupVersionResource, want ...string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a playground")
	}
	c, err := playground.Start(context.Background(), playground.Options{Progress: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	english(t)
	t.Setenv(demo.KubeconfigEnv, "")
	client, err := dynamic.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	before := settled(t, client, resources)
	var out, errOut bytes.Buffer
	if code := demo.Run(opts, append(args, "--kubeconfig", c.Kubeconfig), &out, &errOut, script); code != 0 {
		t.Fatalf("exit code %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	for _, w := range append(want, "read-only: this demo makes no change to it") {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out.String())
		}
	}
	if diff := cmp.Diff(before, contents(t, client, resources)); diff != "" {
		t.Errorf("the demo changed the real cluster (-before +after):\n%s", diff)
	}
	return out.String()
}

// contents lists the objects of resources by resource and key, with their
// resourceVersions: any write changes it.
func contents(t *testing.T, client dynamic.Interface, resources []schema.GroupVersionResource) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, gvr := range resources {
		list, err := client.Resource(gvr).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, item := range list.Items {
			out[gvr.Resource+" "+item.GetNamespace()+"/"+item.GetName()] = item.GetResourceVersion()
		}
	}
	return out
}

// settled waits until the apiserver has made the objects it makes by itself
// after it starts (the default/kubernetes service, a config map in
// kube-system): two looks a second apart see the same.
func settled(t *testing.T, client dynamic.Interface, resources []schema.GroupVersionResource) map[string]string {
	t.Helper()
	last := contents(t, client, resources)
	for range 60 {
		time.Sleep(time.Second)
		now := contents(t, client, resources)
		_, err := client.Resource(schema.GroupVersionResource{Version: "v1", Resource: "services"}).Namespace("default").Get(context.Background(), "kubernetes", metav1.GetOptions{})
		if err == nil && maps.Equal(last, now) {
			return now
		}
		last = now
	}
	t.Fatal("the cluster did not settle within a minute")
	return nil
}
