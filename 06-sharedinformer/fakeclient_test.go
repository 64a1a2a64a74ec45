package informer_test

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	informer "informer-from-scratch/06-sharedinformer"
)

// TestFakeClientsetMatchesClientGo: most controllers are unit-tested on
// client-go's kubernetes/fake clientset, which cannot serve a WatchList
// stream and says so. Both informers are built the way client-go's
// generated informers are (a ListWatch over the typed client, wrapped with
// ToListWatcherWithWatchListSemantics and the clientset), with WatchList at
// its default (on): both must sync, and a handler must see the same calls
// for the same creates, updates and deletes made through the clientset.
// (The fake sets no resourceVersions, so every update has the same, empty,
// one on both sides and counts as a sync: it still reaches a handler that
// asked for no resync, whose flag is only lowered at a resync tick.)
func TestFakeClientsetMatchesClientGo(t *testing.T) {
	type outcome struct {
		Synced bool
		Calls  []string
		Cache  map[string]string
	}
	run := func(t *testing.T, clientGo bool) outcome {
		var out outcome
		synctest.Test(t, func(t *testing.T) {
			client := fake.NewClientset(newPod("a", "web"), newPod("b", "web"))
			pods := client.CoreV1().Pods("ns")
			list := func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				return pods.List(ctx, opts)
			}
			watchFunc := func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
				return pods.Watch(ctx, opts)
			}
			rec := newRecorder(time.Now())
			var runInformer func(context.Context)
			var synced <-chan struct{}
			var store func() []any
			if clientGo {
				lw := cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{ListWithContextFunc: list, WatchFuncWithContext: watchFunc}, client)
				inf := cache.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, cache.Indexers{})
				reg, err := inf.AddEventHandler(rec)
				if err != nil {
					t.Fatal(err)
				}
				runInformer, synced, store = inf.RunWithContext, reg.HasSyncedChecker().Done(), inf.GetStore().List
			} else {
				lw := listwatch.ToListWatcherWithWatchListSemantics(&listwatch.ListWatch{ListWithContextFunc: list, WatchFuncWithContext: watchFunc}, client)
				inf := informer.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, informer.Indexers{})
				reg, err := inf.AddEventHandler(rec)
				if err != nil {
					t.Fatal(err)
				}
				runInformer, synced, store = inf.RunWithContext, reg.HasSyncedChecker().Done(), inf.GetStore().List
			}
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Go(func() { runInformer(ctx) })
			synctest.Wait()
			select {
			case <-synced:
				out.Synced = true
			default:
				cancel()
				wg.Wait()
				return // never synced: the outcome says so
			}
			steps := []func() error{
				func() error { _, err := pods.Create(ctx, newPod("c", "web"), metav1.CreateOptions{}); return err },
				func() error { _, err := pods.Update(ctx, newPod("a", "db"), metav1.UpdateOptions{}); return err },
				func() error { return pods.Delete(ctx, "b", metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)}) },
			}
			for _, step := range steps {
				if err := step(); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
			}
			out.Cache = storeContent(store())
			cancel()
			wg.Wait()
			out.Calls = canonical(rec.snapshot(), false)
		})
		return out
	}
	theirs, ours := run(t, true), run(t, false)
	if !theirs.Synced || len(theirs.Calls) == 0 {
		t.Fatalf("client-go's informer did not sync on the fake clientset; this test's premise is out of date: %+v", theirs)
	}
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("on kubernetes/fake (-client-go +ours):\n%s", diff)
	}
}
