package main

import (
	"bytes"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"informer-from-scratch/internal/demo"
)

// TestCtrlCShutsTheControllerDownAndExitsZero sends the test process a real
// SIGINT while the story runs (the controller is reconciling the Foo it was
// just asked to scale), as Ctrl-C in a terminal does. The controller must
// shut down as sample-controller's does: stop taking keys, drain, stop its
// informers; the demo then prints its metrics, stops the playground and
// exits 0, not 130, and TestMain's goleak finds nothing left behind.
//
// (The web view's tests end the demo by cancelling the script's context,
// which the harness does not see; this one goes through demo.Run's own
// signal handling.)
func TestCtrlCShutsTheControllerDownAndExitsZero(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a playground")
	}
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "a-kubeconfig-the-demo-must-not-read"))
	t.Setenv(demo.KubeconfigEnv, "")
	// Our own registration keeps the SIGINT from ending the test binary
	// should it arrive after demo.Run has stopped listening.
	caught := make(chan os.Signal, 1)
	signal.Notify(caught, os.Interrupt)
	defer signal.Stop(caught)

	out := &lockedBuffer{}
	var errOut bytes.Buffer
	exited := make(chan int, 1)
	go func() { exited <- demo.Run(options, nil, out, &errOut, run) }()
	for deadline := time.Now().Add(3 * time.Minute); !strings.Contains(out.String(), "Step 4: Scale the Foo"); time.Sleep(20 * time.Millisecond) {
		select {
		case code := <-exited:
			t.Fatalf("the demo exited with %d before step 4:\n%s\n%s", code, out.String(), errOut.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no step 4 after 3 minutes:\n%s", out.String())
		}
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code := <-exited
	got := out.String()
	if code != 0 {
		t.Fatalf("exit code %d after Ctrl-C, want 0 (a clean shutdown)\nstdout:\n%s\nstderr:\n%s", code, got, errOut.String())
	}
	inOrder(t, got,
		"Step 4: Scale the Foo",
		"controller ShutDownWithDrain",
		"controller Drained",
		"controller Shutdown                                 workers returned",
		"controller Shutdown                                 informers stopped",
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

// lockedBuffer is the demo's output, written by its goroutines while the
// test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
