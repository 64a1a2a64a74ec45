package reflector_test

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	reflector "informer-from-scratch/02-reflector"
)

// printingStore prints each call a reflector makes, and stops the example
// after the last one it expects.
type printingStore struct {
	calls int
	stop  func()
}

func (s *printingStore) print(op string, obj any) error {
	p := obj.(*corev1.Pod)
	fmt.Printf("%s %s rv=%s\n", op, p.Name, p.ResourceVersion)
	return s.count()
}

func (s *printingStore) count() error {
	if s.calls++; s.calls == 3 {
		s.stop()
	}
	return nil
}

func (s *printingStore) Add(obj any) error    { return s.print("Add", obj) }
func (s *printingStore) Update(obj any) error { return s.print("Update", obj) }
func (s *printingStore) Delete(obj any) error { return s.print("Delete", obj) }
func (s *printingStore) Resync() error        { return nil }
func (s *printingStore) Replace(list []any, rv string) error {
	fmt.Printf("Replace %d pods rv=%s\n", len(list), rv)
	return s.count()
}

// A reflector LISTs, hands the list to its store with Replace, then WATCHes
// from the list's resourceVersion and turns each event into a store call.
func ExampleReflector_ListAndWatchWithContext() {
	lw := &listwatch.ListWatch{
		ListWithContextFunc: func(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			fmt.Printf("LIST resourceVersion=%q limit=%d\n", opts.ResourceVersion, opts.Limit)
			return podList("10", "", pod("web-1", "9"), pod("web-2", "10")), nil
		},
		WatchFuncWithContext: func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			fmt.Printf("WATCH resourceVersion=%q allowWatchBookmarks=%v\n", opts.ResourceVersion, opts.AllowWatchBookmarks)
			w := watch.NewFakeWithChanSize(3, false)
			w.Add(pod("web-3", "11"))
			w.Action(watch.Bookmark, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "12"}})
			w.Delete(pod("web-1", "13"))
			return w, nil
		},
	}
	// The store stops the reflector after its third call. Should a broken
	// rule mean that call never comes, the timeout stops it instead, and the
	// example fails at once rather than at the test binary's timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	store := &printingStore{stop: cancel}
	r := reflector.NewReflectorWithOptions(lw, &corev1.Pod{}, store, reflector.ReflectorOptions{UseWatchList: ptr.To(false)})
	if err := r.ListAndWatchWithContext(ctx); err != nil {
		fmt.Println(err)
	}
	fmt.Println("LastSyncResourceVersion:", r.LastSyncResourceVersion())
	// Output:
	// LIST resourceVersion="0" limit=500
	// Replace 2 pods rv=10
	// WATCH resourceVersion="10" allowWatchBookmarks=true
	// Add web-3 rv=11
	// Delete web-1 rv=13
	// LastSyncResourceVersion: 13
}
