package processor

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	fcache "k8s.io/client-go/tools/cache/testing"
	"k8s.io/utils/ptr"
)

// noWatchList says, as client-go's fake clientsets do, that it cannot serve
// a WatchList stream; FakeControllerSource cannot either.
type noWatchList struct{}

func (noWatchList) IsWatchListSemanticsUnSupported() bool { return true }

// The handlers of the sync-flag scenario: the informer does not resync, so
// ShouldResync is never asked, whatever period each handler wants.
var syncFlagHandlers = []handlerSpec{
	{name: "default"},
	{name: "asks no resync", resync: ptr.To(time.Duration(0))},
	{name: "asks 1s", resync: ptr.To(time.Second)},
}

// untimed is canonical without the times: the relist happens after the
// reflector's jittered backoff on client-go's side, at a fixed moment on
// ours.
func untimed(calls []call) []string {
	for i := range calls {
		calls[i].At = 0
	}
	return canonical(calls)
}

// TestAListenerNeverAskedAboutResyncHearsARelistsUnchangedObjects: a relist
// whose objects did not change reaches the informer as updates with equal
// resourceVersions, which it distributes as sync notifications, delivered
// only to the listeners whose resync the last ShouldResync found due. A
// listener that was never asked counts as due (addListener sets its flag to
// true), so until the first resync tick, which an informer without resync
// never has, every handler hears those updates. client-go runs its informer
// on a FakeControllerSource whose watch is cut and then refused with a 410
// (the reflector backs off, then lists again); ours is fed the same relist.
func TestAListenerNeverAskedAboutResyncHearsARelistsUnchangedObjects(t *testing.T) {
	var theirs, ours map[string][]string
	synctest.Test(t, func(t *testing.T) {
		source := fcache.NewFakeControllerSource()
		for _, name := range []string{"a", "b"} {
			source.Add(newPod(name, "web"))
		}
		// The next watch after expire is set fails with 410, which makes
		// the reflector list again; the list finds a and b unchanged.
		var expire atomic.Bool
		list := func(_ context.Context, options metav1.ListOptions) (runtime.Object, error) {
			return source.List(options)
		}
		watchFunc := func(_ context.Context, options metav1.ListOptions) (watch.Interface, error) {
			if expire.CompareAndSwap(true, false) {
				return nil, apierrors.NewResourceExpired("the test expired it")
			}
			return source.Watch(options)
		}
		lw := cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{ListWithContextFunc: list, WatchFuncWithContext: watchFunc}, noWatchList{})
		informer := cache.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, cache.Indexers{})
		recs := map[string]*recorder{}
		for _, h := range syncFlagHandlers {
			recs[h.name] = newRecorder(time.Now(), 0)
			var err error
			if h.resync == nil {
				_, err = informer.AddEventHandler(recs[h.name])
			} else {
				_, err = informer.AddEventHandlerWithResyncPeriod(recs[h.name], *h.resync)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { informer.RunWithContext(ctx) })
		time.Sleep(time.Second)
		expire.Store(true)
		source.ResetWatch() // the watch ends; the next one meets a 410
		time.Sleep(10 * time.Second)
		cancel()
		wg.Wait()
		source.Shutdown()
		theirs = map[string][]string{}
		for name, rec := range recs {
			theirs[name] = untimed(rec.snapshot())
		}
	})
	synctest.Test(t, func(t *testing.T) {
		f := newFeeder(0, ProcessorOptions{})
		for _, name := range []string{"a", "b"} {
			f.seed(newPod(name, "web"))
		}
		recs := map[string]*recorder{}
		for _, h := range syncFlagHandlers {
			recs[h.name] = newRecorder(time.Now(), 0)
			if _, err := f.AddEventHandler(recs[h.name], h.resync); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { f.Run(ctx) })
		time.Sleep(time.Second)
		f.relist()
		time.Sleep(10 * time.Second)
		cancel()
		wg.Wait()
		ours = map[string][]string{}
		for name, rec := range recs {
			ours[name] = untimed(rec.snapshot())
		}
	})
	for name, calls := range theirs {
		if len(calls) != 4 {
			t.Errorf("client-go's handler %q got %d calls, the scenario expects 2 initial adds and 2 sync updates: %q", name, len(calls), calls)
		}
	}
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("handlers saw different calls (-client-go +ours):\n%s", diff)
	}
}
