package informer_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"
)

// BenchmarkInformerEvents: b.N watch events (updates of 100 pods) through a
// whole informer, from the watch channel to every handler, ours beside
// client-go's in the same run, with 1 and 10 handlers. Each op is one event;
// the timer stops when every handler has been called for every event.
//
//	go test -run '^$' -bench BenchmarkInformerEvents -benchmem ./06-sharedinformer/
func BenchmarkInformerEvents(b *testing.B) {
	for _, handlers := range []int{1, 10} {
		for _, impl := range []string{"client-go", "ours", "ours-deltafifo"} {
			b.Run(fmt.Sprintf("handlers=%d/%s", handlers, impl), func(b *testing.B) {
				benchmarkEvents(b, impl, handlers)
			})
		}
	}
}

// benchSource lists 100 pods and hands out one fake watch. It refuses
// WatchList requests, so that both informers LIST then WATCH.
type benchSource struct {
	pods    []corev1.Pod
	watcher *watch.FakeWatcher
}

func (s *benchSource) List(metav1.ListOptions) (runtime.Object, error) {
	return &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}, Items: s.pods}, nil
}

func (s *benchSource) Watch(options metav1.ListOptions) (watch.Interface, error) {
	if options.SendInitialEvents != nil {
		return nil, errors.New("this source does not stream")
	}
	return s.watcher, nil
}

// countingHandler counts updates and says when it has seen target of them.
type countingHandler struct {
	count  atomic.Int64
	target int64
	done   func()
}

func (h *countingHandler) OnAdd(any, bool) {}
func (h *countingHandler) OnUpdate(_, _ any) {
	if h.count.Add(1) == h.target {
		h.done()
	}
}
func (h *countingHandler) OnDelete(any) {}

func benchmarkEvents(b *testing.B, impl string, handlers int) {
	source := &benchSource{watcher: watch.NewFakeWithChanSize(100, false)}
	for i := range 100 {
		source.pods = append(source.pods, corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			Namespace: "bench", Name: "pod-" + strconv.Itoa(i), ResourceVersion: "1",
		}})
	}

	var all sync.WaitGroup
	counters := make([]*countingHandler, handlers)
	for i := range counters {
		counters[i] = &countingHandler{target: int64(b.N), done: all.Done}
	}
	all.Add(handlers)

	var run func(context.Context)
	var synced func() bool
	switch impl {
	case "client-go":
		inf := cache.NewSharedIndexInformer(source, &corev1.Pod{}, 0, cache.Indexers{})
		for _, h := range counters {
			if _, err := inf.AddEventHandler(h); err != nil {
				b.Fatal(err)
			}
		}
		run, synced = inf.RunWithContext, inf.HasSynced
	default:
		kind := informer.QueueRealFIFO
		if impl == "ours-deltafifo" {
			kind = informer.QueueDeltaFIFO
		}
		inf := informer.NewSharedIndexInformerWithOptions(source, &corev1.Pod{}, informer.SharedIndexInformerOptions{Queue: kind})
		for _, h := range counters {
			if _, err := inf.AddEventHandler(h); err != nil {
				b.Fatal(err)
			}
		}
		run, synced = inf.RunWithContext, inf.HasSynced
	}

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { run(ctx) })
	defer func() {
		cancel()
		wg.Wait()
	}()
	if !cache.WaitForCacheSync(ctx.Done(), synced) {
		b.Fatal("never synced")
	}

	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		// A new object per event, as a decoder makes one: the cache keeps it.
		pod := source.pods[i%len(source.pods)]
		pod.ResourceVersion = strconv.Itoa(i + 2)
		source.watcher.Modify(&pod)
	}
	all.Wait()
	b.StopTimer()
}
