package processor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
)

// What client-go v0.37.2 does when a handler panics: processorListener.run
// calls each handler method under `defer utilruntime.HandleCrashWithLogger`.
// HandleCrash logs "Observed a panic" with the stack and then, because
// utilruntime.ReallyCrash is true by default, panics again. Nothing above
// run's goroutine recovers, so the process exits (status 2). Only a process
// that sets ReallyCrash = false gets the other branch: the notification is
// skipped, run sleeps one second before the next one, and if the skipped call
// was an initial-list add, the registration's HasSynced never becomes true.

const panicChildEnv = "STAGE05_HANDLER_PANIC_CHILD"

// panickyPrinter prints each int it gets and panics on 1. It satisfies both
// client-go's and our ResourceEventHandler.
type panickyPrinter struct{}

func (panickyPrinter) OnAdd(obj any, _ bool) {
	fmt.Printf("handled %d\n", obj.(int))
	if obj.(int) == 1 {
		panic("handler bug: boom")
	}
}
func (panickyPrinter) OnUpdate(_, _ any) {}
func (panickyPrinter) OnDelete(any)      {}

// TestHandlerPanicChild is not a test on its own: the crash test runs the test
// binary again with only this test and the side in the environment.
func TestHandlerPanicChild(t *testing.T) {
	side := os.Getenv(panicChildEnv)
	if side == "" {
		t.Skip("runs only as the child process of TestHandlerPanicCrashesTheProcessLikeClientGo")
	}
	var f fanOut
	if side == "client-go" {
		f = startClientGoFanOut(t, []cache.ResourceEventHandler{panickyPrinter{}})
	} else {
		f = startOurFanOut(t, []ResourceEventHandler{panickyPrinter{}})
	}
	for i := range 3 {
		f.add(i)
	}
	// If the panic did not end the process, this is where it would go on.
	time.Sleep(5 * time.Second)
	fmt.Println("survived")
	f.stop()
}

// crashOutcome is what the parent sees of a child process.
type crashOutcome struct {
	ExitCode       int
	Handled        []string // the "handled N" lines, in order
	ObservedPanic  bool     // HandleCrash's log line
	PanicRepeated  bool     // Go's own "panic: …" report: the panic was not swallowed
	Survived       bool
	GoroutineTrace bool // the dying goroutine's stack names the listener's run
}

func runPanicChild(t *testing.T, side string) crashOutcome {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHandlerPanicChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), panicChildEnv+"="+side)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var out crashOutcome
	var exitErr *exec.ExitError
	switch {
	case errors.As(err, &exitErr):
		out.ExitCode = exitErr.ExitCode()
	case err != nil:
		t.Fatalf("running the %s child: %v", side, err)
	}
	all := stdout.String() + stderr.String()
	out.Handled = regexp.MustCompile(`handled \d+`).FindAllString(stdout.String(), -1)
	out.ObservedPanic = strings.Contains(all, `"Observed a panic"`)
	out.PanicRepeated = strings.Contains(all, "panic: handler bug: boom")
	out.Survived = strings.Contains(stdout.String(), "survived")
	out.GoroutineTrace = regexp.MustCompile(`(?i)processorListener\)\.(run|deliver)`).MatchString(all)
	if testing.Verbose() {
		t.Logf("%s child's output:\n%s", side, all)
	}
	return out
}

func TestHandlerPanicCrashesTheProcessLikeClientGo(t *testing.T) {
	theirs := runPanicChild(t, "client-go")
	ours := runPanicChild(t, "ours")
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("a panicking handler ends differently (-client-go +ours):\n%s", diff)
	}
	if theirs.Survived || theirs.ExitCode == 0 {
		t.Errorf("client-go's process survived a handler panic; this test's premise is out of date: %+v", theirs)
	}
}

// withReallyCrashOff runs f with utilruntime.ReallyCrash = false, the
// process-wide switch client-go offers, and counts the panics HandleCrash
// observes instead of logging their stacks. The tests in this package do not
// run in parallel, and f's goroutines have all ended when it returns
// (synctest), so nothing reads the variables while they are restored.
func withReallyCrashOff(f func()) (observed int) {
	oldCrash, oldHandlers := utilruntime.ReallyCrash, utilruntime.PanicHandlers
	var mu sync.Mutex
	utilruntime.ReallyCrash = false
	utilruntime.PanicHandlers = []func(context.Context, any){func(context.Context, any) {
		mu.Lock()
		observed++
		mu.Unlock()
	}}
	defer func() { utilruntime.ReallyCrash, utilruntime.PanicHandlers = oldCrash, oldHandlers }()
	f()
	return observed
}

var panicScenario = scenario{
	name:           "a handler that panics on every call about pod a",
	informerResync: 0,
	initial:        []sourceOp{{name: "a", app: "web"}},
	handlers: []handlerSpec{
		{name: "panics on a", panicOn: func(c call) bool { return c.Key == "ns/a" }},
		{name: "bystander"},
	},
	ops: []sourceOp{
		{at: 2500 * time.Millisecond, op: "modify", name: "a", app: "web"},
		{at: 2600 * time.Millisecond, op: "add", name: "b", app: "web"},
		{at: 4200 * time.Millisecond, op: "delete", name: "b", app: "web"},
	},
	stopAt: 6500 * time.Millisecond,
}

// TestReallyCrashOffSkipsPausesAndNeverSyncsLikeClientGo: with the process-wide
// switch off, ours does exactly what client-go does, including the one-second
// pause after each panic and the registration that never syncs
// (kubernetes/kubernetes#129024).
func TestReallyCrashOffSkipsPausesAndNeverSyncsLikeClientGo(t *testing.T) {
	var theirs, ours outcome
	theirPanics := withReallyCrashOff(func() {
		synctest.Test(t, func(t *testing.T) { theirs = play(t, panicScenario, newClientGoSide(panicScenario)) })
	})
	ourPanics := withReallyCrashOff(func() {
		synctest.Test(t, func(t *testing.T) { ours = play(t, panicScenario, newOurSide(panicScenario)) })
	})
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("(-client-go +ours):\n%s", diff)
	}
	logOutcome(t, ours)
	if theirPanics != ourPanics || ourPanics != 2 {
		t.Errorf("HandleCrash observed %d panics in client-go, %d in ours; the scenario makes 2", theirPanics, ourPanics)
	}
	if _, synced := theirs.SyncedAt["panics on a"]; synced {
		t.Errorf("client-go's registration synced after its initial add panicked; kubernetes/kubernetes#129024 seems fixed, update the chapter")
	}
}

// TestOnHandlerPanicLogsAndKeepsGoing is the DIFFERENCE: with
// ProcessorOptions.OnHandlerPanic set, a panicking handler costs only the
// skipped call. Its calls and HasSynced match client-go with a handler that
// does not panic at all: no pause, no stuck HasSynced, no crash. Each panic is
// reported once, with the handler, the notification and the value.
func TestOnHandlerPanicLogsAndKeepsGoing(t *testing.T) {
	calm := panicScenario
	calm.handlers = []handlerSpec{{name: "panics on a"}, {name: "bystander"}}
	var theirs, ours outcome
	var mu sync.Mutex
	var reports []string
	synctest.Test(t, func(t *testing.T) { theirs = play(t, calm, newClientGoSide(calm)) })
	synctest.Test(t, func(t *testing.T) {
		opts := ProcessorOptions{OnHandlerPanic: func(h HandlerPanic) {
			mu.Lock()
			defer mu.Unlock()
			reports = append(reports, fmt.Sprintf("%s: %T: %v: stack=%v", h.Handler, h.Notification, h.Value, len(h.Stack) > 0))
		}}
		ours = play(t, panicScenario, newOurSideWithOptions(panicScenario, opts))
	})
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("(-client-go with a calm handler +ours with a panicking one and OnHandlerPanic):\n%s", diff)
	}
	want := []string{
		"*processor.recorder: processor.AddNotification: handler bug on 0s add ns/a rv=1 initial: stack=true",
		"*processor.recorder: processor.UpdateNotification: handler bug on 2.5s update ns/a rv=2 old=1: stack=true",
	}
	if diff := cmp.Diff(want, reports); diff != "" {
		t.Errorf("panic reports (-want +got):\n%s", diff)
	}
}

func TestLogAndContinueLogsThePanic(t *testing.T) {
	logged := captureHandledErrors(t)
	LogAndContinue(HandlerPanic{Handler: "h", Notification: DeleteNotification{}, Value: "boom", Stack: []byte("stack here")})
	if len(logged()) != 1 || !strings.Contains(logged()[0], "event handler h panicked on processor.DeleteNotification: boom") || !strings.Contains(logged()[0], "stack here") {
		t.Errorf("LogAndContinue logged %q", logged())
	}
}
