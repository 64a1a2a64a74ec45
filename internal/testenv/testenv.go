// Not a mirror of client-go: what the test packages that run informers on
// the playground share (stage 02's, 06's, 07's, 08's controller,
// proving-ground/chaos and internal/faultproxy): a playground started once per
// package and stopped by TestMain, goleak at the end and after each
// Shutdown, a capture of what informers report through
// utilruntime.HandleError, and an event handler that records its calls.
// It is imported by tests only.

// Package testenv is the test environment of the packages that run on the
// playground.
package testenv

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"go.uber.org/goleak"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"

	"informer-from-scratch/internal/playground"
)

// Options is what a test package asks of its environment.
type Options struct {
	// Playground is how Cluster starts the package's playground. By
	// default its watch cache is on, as a real cluster has it, so that
	// informers stream their initial list with WatchList; a package that
	// needs a compaction to produce a real 410 turns it off. Progress is
	// os.Stderr when nil.
	Playground playground.Options
	// Logger is klog's logger during the tests. The zero Logger discards:
	// both libraries' informers log the failures some tests provoke on
	// purpose.
	Logger logr.Logger
}

// Main is a test package's TestMain, after whatever process-wide set-up the
// package needs of its own: it sets klog's logger, runs the tests, stops the
// playground if one was started, and then fails the package if any test
// left a goroutine behind.
func Main(m *testing.M, opts Options) {
	if opts.Playground.Progress == nil {
		opts.Playground.Progress = os.Stderr
	}
	options = opts.Playground
	klog.SetLogger(opts.Logger)
	code := m.Run()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stopping the playground:", err)
		}
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

var (
	options   playground.Options // Main's Options.Playground
	once      sync.Once
	shared    *playground.Cluster
	sharedErr error
)

// Cluster starts the package's playground, as Main's Options ask, the
// first time a test needs it; Main stops it.
func Cluster(t *testing.T) *playground.Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the playground; skipped with -short")
	}
	once.Do(func() {
		shared, sharedErr = playground.Start(context.Background(), options)
	})
	if sharedErr != nil {
		t.Fatalf("starting the playground: %v", sharedErr)
	}
	return shared
}

// GoroutinesBefore is taken before a test builds its factories;
// NoLeakAfterShutdown, after Shutdown returned, fails the test if a
// goroutine started since is still running. The clientsets' HTTP
// connections are not the informers' and outlive them: they are ignored.
func GoroutinesBefore() goleak.Option { return goleak.IgnoreCurrent() }

// NoLeakAfterShutdown: see GoroutinesBefore.
func NoLeakAfterShutdown(t *testing.T, who string, before goleak.Option) {
	t.Helper()
	err := goleak.Find(before,
		goleak.IgnoreAnyFunction("net/http.(*persistConn).readLoop"),
		goleak.IgnoreAnyFunction("net/http.(*persistConn).writeLoop"),
		goleak.IgnoreAnyFunction("net/http.(*http2ClientConn).readLoop"),
		goleak.IgnoreAnyFunction("golang.org/x/net/http2.(*ClientConn).readLoop"),
	)
	if err != nil {
		t.Errorf("%s: goroutines left after Shutdown returned: %v", who, err)
	}
}

// ErrorLog collects what informers report through utilruntime.HandleError
// (the only way a running informer, of either library, tells of a mistake
// such as being run twice, or a request that failed).
type ErrorLog struct {
	mu   sync.Mutex
	msgs []string
}

// CaptureErrors replaces utilruntime's error handlers until the test ends.
// The tests of a package do not run in parallel, and a test swaps them only
// while no informer runs. Besides letting a test read the reports, it keeps
// the default handlers away from testing/synctest: the default one sleeps
// to rate-limit itself, from a timestamp a bubble's clock can be decades
// away from.
func CaptureErrors(t *testing.T) *ErrorLog {
	l := &ErrorLog{}
	saved := utilruntime.ErrorHandlers
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{func(_ context.Context, err error, msg string, _ ...any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.msgs = append(l.msgs, fmt.Sprintf("%s: %v", msg, err))
	}}
	t.Cleanup(func() { utilruntime.ErrorHandlers = saved })
	return l
}

// Take returns what was reported since the last Take.
func (l *ErrorLog) Take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	msgs := l.msgs
	l.msgs = nil
	return msgs
}
