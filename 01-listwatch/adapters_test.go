package listwatch_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	"informer-from-scratch/internal/reqlog"
)

// legacy implements only the deprecated context-less interface and records
// the calls it gets.
type legacy struct{ calls []string }

func (l *legacy) List(o metav1.ListOptions) (runtime.Object, error) {
	l.calls = append(l.calls, "List rv="+o.ResourceVersion)
	return &metav1.List{}, nil
}

func (l *legacy) Watch(o metav1.ListOptions) (watch.Interface, error) {
	l.calls = append(l.calls, "Watch rv="+o.ResourceVersion)
	return watch.NewEmptyWatch(), nil
}

func TestToListerWatcherWithContextMatchesClientGo(t *testing.T) {
	ctx := context.Background()
	drive := func(lw interface {
		ListWithContext(context.Context, metav1.ListOptions) (runtime.Object, error)
		WatchWithContext(context.Context, metav1.ListOptions) (watch.Interface, error)
	}) {
		lw.ListWithContext(ctx, metav1.ListOptions{ResourceVersion: "0"})
		w, _ := lw.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: "7"})
		w.Stop()
	}
	theirs, ours := &legacy{}, &legacy{}
	drive(cache.ToListerWatcherWithContext(theirs))
	drive(listwatch.ToListerWatcherWithContext(ours))
	if diff := cmp.Diff(theirs.calls, ours.calls); diff != "" {
		t.Errorf("calls reaching the legacy ListerWatcher (-client-go +ours):\n%s", diff)
	}

	// A ListerWatcher that already has the context methods is used as is.
	lw := &listwatch.ListWatch{}
	if got := listwatch.ToListerWatcherWithContext(lw); got != listwatch.ListerWatcherWithContext(lw) {
		t.Errorf("ToListerWatcherWithContext wrapped a ListWatch instead of returning it")
	}
}

// TestAZeroListWatchIsAnErrorNotAPanic: client-go calls the missing function
// and panics; ours says which one is missing.
func TestAZeroListWatchIsAnErrorNotAPanic(t *testing.T) {
	lw := &listwatch.ListWatch{}
	if _, err := lw.ListWithContext(context.Background(), metav1.ListOptions{}); err == nil || !strings.Contains(err.Error(), "ListWithContextFunc") {
		t.Errorf("List on a zero ListWatch returned %v, want an error naming ListWithContextFunc", err)
	}
	if _, err := lw.Watch(metav1.ListOptions{}); err == nil || !strings.Contains(err.Error(), "WatchFuncWithContext") {
		t.Errorf("Watch on a zero ListWatch returned %v, want an error naming WatchFuncWithContext", err)
	}
}

// TestNilModifierAndSelectorMeanNoFilter: where client-go panics on a nil
// options modifier or field selector, ours sends exactly the requests
// client-go sends for "no modifier" and fields.Everything().
func TestNilModifierAndSelectorMeanNoFilter(t *testing.T) {
	client := recordingClient(t, nil)
	ns := newNamespace(t, client, "nil-filters", 2)
	ctx := context.Background()
	drive := func(lw listwatch.ListerWatcherWithContext) {
		t.Helper()
		if _, err := lw.ListWithContext(ctx, metav1.ListOptions{}); err != nil {
			t.Fatal(err)
		}
		w, err := lw.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: "0", TimeoutSeconds: ptr.To[int64](1)})
		if err != nil {
			t.Fatal(err)
		}
		w.Stop()
	}
	cgRec, ourRec := &reqlog.Recorder{}, &reqlog.Recorder{}
	cgClient, ourClient := recordingClient(t, cgRec), recordingClient(t, ourRec)
	drive(cache.NewFilteredListWatchFromClient(cgClient.CoreV1().RESTClient(), "pods", ns, func(*metav1.ListOptions) {}))
	drive(cache.NewListWatchFromClient(cgClient.CoreV1().RESTClient(), "pods", ns, fields.Everything()))
	drive(listwatch.NewFilteredListWatchFromClient(ourClient.CoreV1().RESTClient(), "pods", ns, nil))
	drive(listwatch.NewListWatchFromClient(ourClient.CoreV1().RESTClient(), "pods", ns, nil))
	if diff := cmp.Diff(queries(t, cgRec.Requests()), queries(t, ourRec.Requests())); diff != "" {
		t.Errorf("requests (-client-go with no filter +ours with nil):\n%s", diff)
	}
}
