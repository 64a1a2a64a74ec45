package webviewtest

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"informer-from-scratch/internal/demo"
)

// Demo is a stage's demo running with --web in the test's process, on a
// playground of its own.
type Demo struct {
	// URL is the page's address, as the demo printed it.
	URL string
	// Out is the demo's output so far.
	Out *Output
}

// StartDemo runs a demo's script with args, as `make run-stage N ARGS=...`
// does, and waits until its output matches ready, whose first group is the
// page's URL: the line a demo prints once its story is over and its
// buttons act. The test's cleanup stops it by ending the script's context
// (demotest.Interrupt is the test of a real Ctrl-C, through demo.Run's
// signal handling), and checks that it exited 0 and that its output holds
// each of wantAtEnd.
func StartDemo(t *testing.T, opts demo.Options, run func(*demo.Env) error, args []string, ready *regexp.Regexp, wantAtEnd ...string) *Demo {
	t.Helper()
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "a-kubeconfig-the-demo-must-not-read"))
	t.Setenv(demo.KubeconfigEnv, "")
	d := &Demo{Out: &Output{changed: make(chan struct{})}}
	ctx, cancel := context.WithCancel(context.Background())
	var errOut bytes.Buffer
	exited := make(chan int)
	go func() {
		exited <- demo.Run(opts, args, d.Out, &errOut, func(env *demo.Env) error {
			// Ctrl-C, for a test: the demo stays up until ctx ends.
			envCtx, stop := context.WithCancel(env.Ctx)
			defer stop()
			context.AfterFunc(ctx, stop)
			env.Ctx = envCtx
			return run(env)
		})
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-exited; code != 0 {
			t.Errorf("the demo exited with %d\nstdout:\n%s\nstderr:\n%s", code, d.Out.String(), errOut.String())
		}
		for _, want := range wantAtEnd {
			if !strings.Contains(d.Out.String(), want) {
				t.Errorf("the demo's output lacks %q:\n%s", want, d.Out.String())
			}
		}
	})
	d.URL = d.Out.WaitFor(t, ready, exited)[1]
	return d
}

// Output is a demo's output, written by its goroutines and read by the
// test, which can wait for a line to appear.
type Output struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{}
}

func (o *Output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	close(o.changed)
	o.changed = make(chan struct{})
	return o.b.Write(p)
}

func (o *Output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.b.String()
}

// WaitFor waits until the output matches re and returns the match, failing
// if the demo exits or a minute passes first.
func (o *Output) WaitFor(t *testing.T, re *regexp.Regexp, exited <-chan int) []string {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		o.mu.Lock()
		m, changed := re.FindStringSubmatch(o.b.String()), o.changed
		o.mu.Unlock()
		if m != nil {
			return m
		}
		select {
		case <-changed:
		case code := <-exited:
			t.Fatalf("the demo exited with %d before printing %s:\n%s", code, re, o.String())
		case <-deadline:
			t.Fatalf("waited a minute for %s:\n%s", re, o.String())
		}
	}
}
