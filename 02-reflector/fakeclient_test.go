package reflector_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"

	listwatch "informer-from-scratch/01-listwatch"
	reflector "informer-from-scratch/02-reflector"
)

// fakeOutcome is what a reflector did on a kubernetes/fake clientset.
type fakeOutcome struct {
	// Store is what the reflector put in its store: empty if it never
	// synced.
	Store map[string]string
	// Requests are the calls the fake clientset saw.
	Requests []string
}

// describeAction prints a fake clientset's LIST or WATCH with the options
// that decide the protocol.
func describeAction(a k8stesting.Action) string {
	var opts metav1.ListOptions
	switch a := a.(type) {
	case k8stesting.ListActionImpl:
		opts = a.ListOptions
	case k8stesting.WatchActionImpl:
		opts = a.ListOptions
	default:
		return a.GetVerb() + " " + a.GetResource().Resource
	}
	s := fmt.Sprintf("%s %s rv=%q", a.GetVerb(), a.GetResource().Resource, opts.ResourceVersion)
	if opts.SendInitialEvents != nil {
		s += fmt.Sprintf(" sendInitialEvents=%v", *opts.SendInitialEvents)
	}
	return s
}

// runOnFake runs one side's reflector for ten (virtual) seconds on a fake
// clientset holding one pod, with WatchList left at its default (on), over a
// ListWatch built the way client-go's generated informers build theirs:
// from the typed client, wrapped by ToListWatcherWithWatchListSemantics with
// the clientset when optOut is set, bare otherwise.
func runOnFake(t *testing.T, s side, optOut bool) fakeOutcome {
	var out fakeOutcome
	synctest.Test(t, func(t *testing.T) {
		client := fake.NewClientset(&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web-1"}})
		list := func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			return client.CoreV1().Pods("ns").List(ctx, opts)
		}
		watchFunc := func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			return client.CoreV1().Pods("ns").Watch(ctx, opts)
		}
		rec := newRecorder()
		store := newRecStore(scenario{}, rec)
		var r runner
		switch s {
		case clientGo:
			var lw cache.ListerWatcher = &cache.ListWatch{ListWithContextFunc: list, WatchFuncWithContext: watchFunc}
			if optOut {
				lw = cache.ToListWatcherWithWatchListSemantics(lw.(*cache.ListWatch), client)
			}
			r = cache.NewReflectorWithOptions(lw, &corev1.Pod{}, store, cache.ReflectorOptions{})
		default:
			var lw listwatch.ListerWatcher = &listwatch.ListWatch{ListWithContextFunc: list, WatchFuncWithContext: watchFunc}
			if optOut {
				lw = listwatch.ToListWatcherWithWatchListSemantics(lw.(*listwatch.ListWatch), client)
			}
			r = reflector.NewReflectorWithOptions(lw, &corev1.Pod{}, store, reflector.ReflectorOptions{})
		}
		ctx, cancel := context.WithCancel(context.WithValue(context.Background(), recorderKey{}, rec))
		done := make(chan struct{})
		go func() {
			defer close(done)
			r.RunWithContext(ctx)
		}()
		time.Sleep(10 * time.Second)
		synctest.Wait()
		out.Store = store.content()
		for _, a := range client.Actions() {
			out.Requests = append(out.Requests, describeAction(a))
		}
		cancel()
		<-done
	})
	return out
}

// TestReflectorSyncsOnAFakeClientsetLikeClientGo: client-go's fake
// clientsets cannot serve a WatchList stream, and say so. Over a ListWatch
// that carries that answer (ToListWatcherWithWatchListSemantics, as
// client-go's generated informers build theirs), a reflector sends LIST and
// WATCH and syncs at once; over a bare ListWatch it opens a WatchList stream
// and waits for ever for the end of the initial events. Ours must do both
// exactly as client-go's does, WatchList on by default on both sides.
func TestReflectorSyncsOnAFakeClientsetLikeClientGo(t *testing.T) {
	for _, optOut := range []bool{true, false} {
		t.Run(fmt.Sprintf("opt-out=%v", optOut), func(t *testing.T) {
			theirs := runOnFake(t, clientGo, optOut)
			our := runOnFake(t, ours, optOut)
			if synced := len(theirs.Store) == 1; synced != optOut {
				t.Errorf("client-go's reflector synced: %v, the test expects %v: update it (client-go did %q)", synced, optOut, theirs.Requests)
			}
			if diff := cmp.Diff(theirs, our); diff != "" {
				t.Errorf("on a fake clientset (-client-go +ours):\n%s", diff)
			}
			t.Logf("client-go: %q", theirs.Requests)
		})
	}
}
