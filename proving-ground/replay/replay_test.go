package replay_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/fields"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/proving-ground/replay"
)

func TestMain(m *testing.M) {
	klog.SetLogger(logr.Discard())
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// Few pods, for a quick test under -race; pages of 50 make three of them.
const (
	testPods     = 120
	testPageSize = 50
	testUpdates  = 20
)

// TestBothInformersEndWithTheServersPods is the scale benchmark's
// correctness check, at a small N: through the replay server, in each
// encoding and each way of listing, client-go's informer and ours must both
// sync, receive every update, and end with the same cache, which must be
// the pods the server replayed with the updates applied. It also checks
// that each side asked for what the mode means (a WatchList, one LIST, or
// three pages), so a mode that silently fell back would fail.
func TestBothInformersEndWithTheServersPods(t *testing.T) {
	pods := replay.Pods(testPods)
	want := map[string]*corev1.Pod{}
	for i := range pods {
		want[pods[i].Namespace+"/"+pods[i].Name] = &pods[i]
	}
	for i := range testUpdates {
		p := replay.UpdatedPod(pods, i)
		want[p.Namespace+"/"+p.Name] = p
	}
	for _, enc := range []replay.Encoding{replay.JSON, replay.Protobuf} {
		for _, mode := range []string{"watchlist", "list", "list-paged"} {
			t.Run(fmt.Sprintf("%s/%s", enc, mode), func(t *testing.T) {
				clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, mode == "watchlist")
				srv, err := replay.Start(pods, replay.Options{Encoding: enc, Paged: mode == "list-paged", MaxPageSize: testPageSize, Updates: testUpdates})
				if err != nil {
					t.Fatal(err)
				}
				defer srv.Close()
				caches := map[string]map[string]*corev1.Pod{}
				for _, side := range []string{"client-go", "ours"} {
					caches[side] = syncAndUpdate(t, srv, side, mode == "watchlist")
				}
				if diff := cmp.Diff(caches["client-go"], caches["ours"]); diff != "" {
					t.Errorf("caches differ (-client-go +ours):\n%s", diff)
				}
				if diff := cmp.Diff(want, caches["ours"]); diff != "" {
					t.Errorf("ours does not hold the replayed pods (-want +ours):\n%s", diff)
				}
				wantLists, wantWatchLists := int64(0), int64(2)
				switch mode {
				case "list":
					wantLists, wantWatchLists = 2, 0
				case "list-paged":
					wantLists, wantWatchLists = 2*3, 0
				}
				c := srv.Counts()
				if c.Lists.Load() != wantLists || c.WatchLists.Load() != wantWatchLists {
					t.Errorf("the two informers made %d LIST and %d WatchList requests, want %d and %d",
						c.Lists.Load(), c.WatchLists.Load(), wantLists, wantWatchLists)
				}
			})
		}
	}
}

// syncAndUpdate runs one side's informer on the server until it has synced
// and its handler has seen every update, and returns its cache.
func syncAndUpdate(t *testing.T, srv *replay.Server, side string, watchList bool) map[string]*corev1.Pod {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client, err := kubernetes.NewForConfig(srv.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	var updates sync.WaitGroup
	updates.Add(testUpdates)
	onUpdate := func(_, _ any) { updates.Done() }

	var run func(context.Context)
	var synced func() bool
	var list func() []any
	switch side {
	case "client-go":
		lw := cache.NewListWatchFromClient(client.CoreV1().RESTClient(), "pods", "", fields.Everything())
		inf := cache.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, cache.Indexers{})
		if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{UpdateFunc: onUpdate}); err != nil {
			t.Fatal(err)
		}
		run, synced, list = inf.RunWithContext, inf.HasSynced, inf.GetStore().List
	case "ours":
		lw := listwatch.NewListWatchFromClient(client.CoreV1().RESTClient(), "pods", "", fields.Everything())
		inf := informer.NewSharedIndexInformerWithOptions(lw, &corev1.Pod{}, informer.SharedIndexInformerOptions{UseWatchList: ptr.To(watchList)})
		if _, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{UpdateFunc: onUpdate}); err != nil {
			t.Fatal(err)
		}
		run, synced, list = inf.RunWithContext, inf.HasSynced, inf.GetStore().List
	}
	var wg sync.WaitGroup
	runCtx, stop := context.WithCancel(ctx)
	defer func() {
		stop()
		wg.Wait()
	}()
	wg.Go(func() { run(runCtx) })
	if !cache.WaitForCacheSync(ctx.Done(), synced) {
		t.Fatalf("%s never synced", side)
	}
	if _, err := srv.Send(ctx, 0, testUpdates, 0); err != nil {
		t.Fatalf("%s: %v", side, err)
	}
	done := make(chan struct{})
	go func() { updates.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatalf("%s: not every update reached its handler", side)
	}
	got := map[string]*corev1.Pod{}
	for _, obj := range list() {
		p := obj.(*corev1.Pod)
		got[p.Namespace+"/"+p.Name] = p
	}
	return got
}
