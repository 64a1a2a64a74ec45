package informer_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"
)

// listThenWatch lists one pod and hands out one fake watch; it says it
// cannot stream a WatchList, so both reflectors LIST then WATCH.
type listThenWatch struct{ w *watch.FakeWatcher }

func (l listThenWatch) List(metav1.ListOptions) (runtime.Object, error) {
	pod := newPod("a", "web")
	pod.ResourceVersion = "10"
	return &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "10"}, Items: []corev1.Pod{*pod}}, nil
}
func (l listThenWatch) Watch(metav1.ListOptions) (watch.Interface, error) { return l.w, nil }
func (l listThenWatch) IsWatchListSemanticsUnSupported() bool             { return true }

// TestCacheResourceVersionFollowsBookmarksLikeClientGo: the cache's
// LastStoreSyncResourceVersion after the list, after an event, and after a
// watch bookmark, which reaches the cache as a Bookmark delta (the RealFIFO
// emits it in line) and moves nothing else. client-go's own informer tests
// never send a bookmark: with processDeltas ignoring Bookmark, they all pass.
func TestCacheResourceVersionFollowsBookmarksLikeClientGo(t *testing.T) {
	type store interface{ LastStoreSyncResourceVersion() string }
	run := func(newInformer func(lw listThenWatch) (run func(context.Context), synced func() bool, cache store)) (seen []string) {
		synctest.Test(t, func(t *testing.T) {
			w := watch.NewFake()
			runInformer, synced, cached := newInformer(listThenWatch{w})
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Go(func() { runInformer(ctx) })
			synctest.Wait()
			if !synced() {
				t.Fatal("not synced after the list")
			}
			seen = append(seen, "list: "+cached.LastStoreSyncResourceVersion())
			pod := newPod("b", "web")
			pod.ResourceVersion = "11"
			w.Add(pod)
			synctest.Wait()
			seen = append(seen, "add: "+cached.LastStoreSyncResourceVersion())
			w.Action(watch.Bookmark, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "20"}})
			synctest.Wait()
			seen = append(seen, "bookmark: "+cached.LastStoreSyncResourceVersion())
			cancel()
			wg.Wait()
		})
		return seen
	}
	theirs := run(func(lw listThenWatch) (func(context.Context), func() bool, store) {
		inf := cache.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, cache.Indexers{})
		return inf.RunWithContext, inf.HasSynced, inf.GetStore()
	})
	ours := run(func(lw listThenWatch) (func(context.Context), func() bool, store) {
		inf := informer.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, informer.Indexers{})
		return inf.RunWithContext, inf.HasSynced, inf.GetStore()
	})
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("the cache's resourceVersion (-client-go +ours):\n%s", diff)
	}
	if len(theirs) == 3 && theirs[2] != "bookmark: 20" {
		t.Errorf("client-go's cache did not take the bookmark's resourceVersion (%v); this test's premise is out of date", theirs)
	}
}
