package workqueue

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	cgworkqueue "k8s.io/client-go/util/workqueue"
)

// recordHandledErrors collects what goes to utilruntime.HandleError for the
// rest of the test.
func recordHandledErrors(t *testing.T) func() []string {
	var mu sync.Mutex
	var errs []string
	old := utilruntime.ErrorHandlers
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{func(_ context.Context, err error, _ string, _ ...any) {
		mu.Lock()
		defer mu.Unlock()
		errs = append(errs, err.Error())
	}}
	t.Cleanup(func() { utilruntime.ErrorHandlers = old })
	return func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), errs...)
	}
}

// TestUnhashableItemsAreRefused: a queue of any (client-go's untyped one, or
// a typed one at T = any) takes any item, and an
// object by value (a corev1.Pod holds maps and slices) cannot be a map key.
// client-go's Add panics with "hash of unhashable type"; its AddAfter would
// panic in the waiting loop's goroutine and crash the process (not run here).
// Ours refuses the item at each way in (Add, AddAfter, AddRateLimited), with
// an error that names its type, and carries on. Done, Forget and NumRequeues
// take what Get handed out, so only a caller's bug brings them such an item:
// they panic on it, as client-go's do.
func TestUnhashableItemsAreRefused(t *testing.T) {
	pod := corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web", Labels: map[string]string{"app": "web"}}}

	//lint:ignore SA1019 the untyped queue is the one that accepts any item: that is what this test is about.
	theirs := cgworkqueue.NewRateLimitingQueue(cgworkqueue.DefaultControllerRateLimiter())
	defer theirs.ShutDown()
	if !panics(func() { theirs.Add(pod) }) {
		t.Errorf("client-go: Add of a Pod value did not panic; it used to")
	}

	errs := recordHandledErrors(t)
	ours := NewTypedRateLimitingQueue(DefaultTypedControllerRateLimiter[any]())
	defer ours.ShutDown()
	calls := map[string]func(){
		"Add":            func() { ours.Add(pod) },
		"AddAfter":       func() { ours.AddAfter(pod, time.Millisecond) },
		"AddRateLimited": func() { ours.AddRateLimited(pod) },
	}
	for name, call := range calls {
		if panics(call) {
			t.Errorf("ours: %s of a Pod value panicked", name)
		}
	}
	if got := errs(); len(got) != len(calls) {
		t.Errorf("ours: %d errors reported for %d refused calls: %q", len(got), len(calls), got)
	} else if !strings.Contains(got[0], "v1.Pod") || !strings.Contains(got[0], "namespace/name") {
		t.Errorf("ours: the error does not name the type and say what to queue instead: %s", got[0])
	}
	for name, call := range map[string][2]func(){
		"Done":        {func() { theirs.Done(pod) }, func() { ours.Done(pod) }},
		"Forget":      {func() { theirs.Forget(pod) }, func() { ours.Forget(pod) }},
		"NumRequeues": {func() { theirs.NumRequeues(pod) }, func() { ours.NumRequeues(pod) }},
	} {
		if p, q := panics(call[0]), panics(call[1]); !p || !q {
			t.Errorf("%s of a Pod value no Get handed out: client-go panicked %v, ours %v; want both to (only a caller's bug gets there)", name, p, q)
		}
	}

	// The queue still works, and a hashable item of the same interface type
	// goes through.
	ours.Add("ns/web")
	if item, _ := ours.Get(); item != "ns/web" || ours.Len() != 0 {
		t.Errorf("ours: after the refusals, Get returned %v and left %d items; want ns/web and 0", item, ours.Len())
	}
	ours.Done("ns/web")
}

// TestItemCheckCostsNothingForPlainTypes: only types that can hold an
// interface are checked at run time.
func TestItemCheckCostsNothingForPlainTypes(t *testing.T) {
	type withInterface struct {
		Key   string
		Extra any
	}
	type plain struct {
		Namespace, Name string
		Gen             [2]int64
	}
	if newItemCheck[string]().needed || newItemCheck[plain]().needed || newItemCheck[*corev1.Pod]().needed {
		t.Error("a type that cannot hold an interface is checked")
	}
	if !newItemCheck[any]().needed || !newItemCheck[withInterface]().needed || !newItemCheck[[1]any]().needed {
		t.Error("a type that can hold an interface is not checked")
	}
	if err := checkHashable(withInterface{Key: "k", Extra: []int{1}}); err == nil {
		t.Error("a struct holding a slice in an interface field passed the check")
	}
	if err := checkHashable(withInterface{Key: "k", Extra: 1}); err != nil {
		t.Errorf("a struct holding an int in an interface field failed the check: %v", err)
	}
}
