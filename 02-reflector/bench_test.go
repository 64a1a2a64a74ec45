package reflector_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	reflector "informer-from-scratch/02-reflector"
)

// BenchmarkReflector measures, for client-go's reflector and ours in the
// same run, one ListAndWatch round: a LIST of n pods into a store, then n
// watch events (ADDED, MODIFIED, DELETED in turn). What it shows is the
// reflector's own cost per object: the store counts and does nothing else.
//
//	go test -run '^$' -bench Reflector -benchmem ./02-reflector/
func BenchmarkReflector(b *testing.B) {
	for _, n := range []int{100, 10000} {
		list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}
		events := make([]watch.Event, n)
		for i := range n {
			p := pod(fmt.Sprintf("p-%d", i), "1")
			list.Items = append(list.Items, *p)
			events[i] = watch.Event{Type: []watch.EventType{watch.Added, watch.Modified, watch.Deleted}[i%3], Object: pod(fmt.Sprintf("q-%d", i), fmt.Sprint(i+2))}
		}
		for _, s := range []side{clientGo, ours} {
			b.Run(fmt.Sprintf("%s/%d", s, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					benchRound(b, s, list, events)
				}
			})
		}
	}
}

func benchRound(b *testing.B, s side, list *corev1.PodList, events []watch.Event) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	store := &countingStore{want: int64(len(events)), done: cancel}
	lw := &benchLW{list: list, events: events}
	switch s {
	case clientGo:
		r := cache.NewReflectorWithOptions(lw, &corev1.Pod{}, store, cache.ReflectorOptions{Name: "bench"})
		_ = r.ListAndWatchWithContext(ctx)
	default:
		r := reflector.NewReflectorWithOptions(lw, &corev1.Pod{}, store, reflector.ReflectorOptions{Name: "bench", UseWatchList: ptr.To(false)})
		_ = r.ListAndWatchWithContext(ctx)
	}
	if store.n.Load() != store.want {
		b.Fatalf("%s: the store got %d events, want %d", s, store.n.Load(), store.want)
	}
}

// benchLW lists the given pods and streams the given events. It says it
// cannot stream a WatchList, so client-go takes the LIST+WATCH path without
// touching its feature gate.
type benchLW struct {
	list   *corev1.PodList
	events []watch.Event
}

func (lw *benchLW) IsWatchListSemanticsUnSupported() bool { return true }

func (lw *benchLW) ListWithContext(context.Context, metav1.ListOptions) (runtime.Object, error) {
	return lw.list, nil
}

func (lw *benchLW) WatchWithContext(context.Context, metav1.ListOptions) (watch.Interface, error) {
	w := watch.NewFakeWithChanSize(len(lw.events), false)
	for _, e := range lw.events {
		w.Action(e.Type, e.Object)
	}
	return w, nil
}

func (lw *benchLW) List(opts metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), opts)
}

func (lw *benchLW) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), opts)
}

// countingStore counts watch events and ends the round after the last.
type countingStore struct {
	n    atomic.Int64
	want int64
	done func()
}

func (s *countingStore) event() error {
	if s.n.Add(1) == s.want {
		s.done()
	}
	return nil
}

func (s *countingStore) Add(any) error               { return s.event() }
func (s *countingStore) Update(any) error            { return s.event() }
func (s *countingStore) Delete(any) error            { return s.event() }
func (s *countingStore) Replace([]any, string) error { return nil }
func (s *countingStore) Resync() error               { return nil }
