package demotest

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

// Interrupt runs the demo on a playground with args, waits until its output
// holds after, then sends the test process a real SIGINT, as Ctrl-C in a
// terminal does, so that demo.Run's own signal handling sees it (a test
// that cancels the script's context goes around it). It returns the exit
// code and the output.
func Interrupt(t *testing.T, opts demo.Options, args []string, script func(*demo.Env) error, after string) (code int, out string) {
	t.Helper()
	english(t)
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "a-kubeconfig-the-demo-must-not-read"))
	t.Setenv(demo.KubeconfigEnv, "")
	// Our own registration keeps the SIGINT from ending the test binary
	// should it arrive after demo.Run has stopped listening.
	caught := make(chan os.Signal, 1)
	signal.Notify(caught, os.Interrupt)
	defer signal.Stop(caught)

	stdout := &lockedBuffer{}
	var errOut bytes.Buffer
	exited := make(chan int, 1)
	go func() { exited <- demo.Run(opts, args, stdout, &errOut, script) }()
	for deadline := time.Now().Add(3 * time.Minute); !strings.Contains(stdout.String(), after); time.Sleep(20 * time.Millisecond) {
		select {
		case code := <-exited:
			t.Fatalf("the demo exited with %d before printing %q:\n%s\n%s", code, after, stdout.String(), errOut.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q after 3 minutes:\n%s", after, stdout.String())
		}
	}
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	code = <-exited
	return code, stdout.String() + errOut.String()
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
