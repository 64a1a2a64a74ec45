package informer_test

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
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"
	fcache "k8s.io/client-go/tools/cache/testing"

	informer "informer-from-scratch/06-sharedinformer"
)

// A handler that panics, through a whole informer. In client-go v0.37.2 the
// listener's HandleCrash logs the panic and panics again, nothing recovers,
// and the process exits with status 2 (stage 05's chapter walks through
// it). Ours does the same by default; SharedIndexInformerOptions.OnHandlerPanic
// is the opt-in "log and keep going".

const panicChildEnv = "STAGE06_HANDLER_PANIC_CHILD"

// panicky prints each pod it is told about and panics on "b".
type panicky struct{}

func (panicky) OnAdd(obj any, _ bool) {
	pod := obj.(*corev1.Pod)
	fmt.Printf("handled %s\n", pod.Name)
	if pod.Name == "b" {
		panic("handler bug: boom")
	}
}
func (panicky) OnUpdate(_, _ any) {}
func (panicky) OnDelete(any)      {}

// TestHandlerPanicChild is not a test on its own: the crash test runs the
// test binary again with only this test and a side in the environment.
func TestHandlerPanicChild(t *testing.T) {
	side := os.Getenv(panicChildEnv)
	if side == "" {
		t.Skip("runs only as the child process of TestHandlerPanicCrashesTheProcessLikeClientGo")
	}
	source := fcache.NewFakeControllerSource()
	for _, name := range []string{"a", "b", "c"} {
		source.Add(newPod(name, "web"))
	}
	var run func(context.Context)
	if side == "client-go" {
		inf := cache.NewSharedInformer(sortedSource{source}, &corev1.Pod{}, 0)
		if _, err := inf.AddEventHandler(panicky{}); err != nil {
			t.Fatal(err)
		}
		run = inf.RunWithContext
	} else {
		inf := informer.NewSharedInformer(sortedSource{source}, &corev1.Pod{}, 0)
		if _, err := inf.AddEventHandler(panicky{}); err != nil {
			t.Fatal(err)
		}
		run = inf.RunWithContext
	}
	ctx, cancel := context.WithCancel(context.Background())
	go run(ctx)
	// If the panic did not end the process, this is where it would go on.
	time.Sleep(5 * time.Second)
	fmt.Println("survived")
	cancel()
}

type crashOutcome struct {
	ExitCode      int
	Handled       []string
	ObservedPanic bool // HandleCrash's log line
	PanicRepeated bool // Go's own report: nothing swallowed the panic
	Survived      bool
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
	out.Handled = regexp.MustCompile(`handled \w+`).FindAllString(stdout.String(), -1)
	out.ObservedPanic = strings.Contains(all, `"Observed a panic"`)
	out.PanicRepeated = strings.Contains(all, "panic: handler bug: boom")
	out.Survived = strings.Contains(stdout.String(), "survived")
	return out
}

func TestHandlerPanicCrashesTheProcessLikeClientGo(t *testing.T) {
	theirs := runPanicChild(t, "client-go")
	ours := runPanicChild(t, "ours")
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("a panicking handler ends differently (-client-go +ours):\n%s", diff)
	}
	t.Logf("client-go: %+v", theirs)
	if theirs.Survived || theirs.ExitCode == 0 {
		t.Errorf("client-go's process survived a handler panic; this test's premise is out of date: %+v", theirs)
	}
}

// TestOnHandlerPanicKeepsTheInformerGoing: with the option, a panicking
// handler's notification is skipped and reported, every later one is
// delivered, the other handlers never notice, and the panicking handler's
// registration still syncs (its panic was on an initial add).
func TestOnHandlerPanicKeepsTheInformerGoing(t *testing.T) {
	var reports []string
	var panickyCalls, calmCalls []string
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		source.Add(newPod("a", "web"))
		source.Add(newPod("b", "web"))
		var mu sync.Mutex
		inf := informer.NewSharedIndexInformerWithOptions(sortedSource{source}, &corev1.Pod{}, informer.SharedIndexInformerOptions{
			OnHandlerPanic: func(p informer.HandlerPanic) {
				mu.Lock()
				reports = append(reports, fmt.Sprintf("%v on %T", p.Value, p.Notification))
				mu.Unlock()
			},
		})
		record := func(list *[]string, s string) { mu.Lock(); *list = append(*list, s); mu.Unlock() }
		reg, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) {
				pod := obj.(*corev1.Pod)
				record(&panickyCalls, "add "+pod.Name)
				if pod.Name != "c" {
					panic("boom on " + pod.Name)
				}
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) { record(&calmCalls, "add "+obj.(*corev1.Pod).Name) },
		}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { inf.RunWithContext(ctx) })
		synctest.Wait()
		if !reg.HasSynced() {
			t.Error("the panicking handler's registration never synced")
		}
		source.Add(newPod("c", "web"))
		synctest.Wait()
		cancel()
		wg.Wait()
		source.Shutdown()
	})
	want := []string{"add a", "add b", "add c"}
	if diff := cmp.Diff(want, panickyCalls); diff != "" {
		t.Errorf("the panicking handler's calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, calmCalls); diff != "" {
		t.Errorf("the other handler's calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"boom on a on processor.AddNotification", "boom on b on processor.AddNotification"}, reports); diff != "" {
		t.Errorf("reports (-want +got):\n%s", diff)
	}
}

// TestUnsharedHandlerPanicReachesRunsCaller: the handler of an unshared
// informer runs on processLoop's goroutine, which is RunWithContext's own, so
// its panic comes out of RunWithContext, where the caller may recover it
// (client-go's TestPanicPropagated). Ours once waited for the reflector in a
// deferred call first, for a context nobody had cancelled, and never
// returned.
func TestUnsharedHandlerPanicReachesRunsCaller(t *testing.T) {
	propagated := func(newRun func(*fcache.FakeControllerSource, cache.ResourceEventHandler) func(context.Context)) (got any) {
		synctest.Test(t, func(t *testing.T) {
			source := fcache.NewFakeControllerSource()
			defer source.Shutdown()
			source.Add(newPod("a", "web"))
			run := newRun(source, cache.ResourceEventHandlerFuncs{AddFunc: func(any) { panic("handler bug: boom") }})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			recovered := make(chan any, 1)
			go func() {
				defer func() { recovered <- recover() }()
				run(ctx)
			}()
			select {
			case got = <-recovered:
			case <-time.After(time.Minute): // bubble time: every goroutine is blocked by then
				got = "RunWithContext neither returned nor panicked"
				cancel()
				<-recovered
			}
		})
		return got
	}
	theirs := propagated(func(source *fcache.FakeControllerSource, h cache.ResourceEventHandler) func(context.Context) {
		_, c := cache.NewInformerWithOptions(cache.InformerOptions{ListerWatcher: source, ObjectType: &corev1.Pod{}, Handler: h})
		return c.RunWithContext
	})
	ours := propagated(func(source *fcache.FakeControllerSource, h cache.ResourceEventHandler) func(context.Context) {
		_, c := informer.NewInformerWithOptions(informer.InformerOptions{ListerWatcher: source, ObjectType: &corev1.Pod{}, Handler: h})
		return c.RunWithContext
	})
	if theirs != "handler bug: boom" {
		t.Errorf("client-go's RunWithContext ended with %v; this test's premise is out of date", theirs)
	}
	if ours != theirs {
		t.Errorf("a panicking handler of an unshared informer: ours %v, client-go's %v", ours, theirs)
	}
}
