package listwatch_test

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	listwatch "informer-from-scratch/01-listwatch"
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
