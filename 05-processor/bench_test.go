package processor

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
)

// concurrencyLevel is client-go's: RunParallel runs 5 goroutines per CPU.
const concurrencyLevel = 5

// BenchmarkListener is client-go's BenchmarkListener
// (tools/cache/processor_listener_test.go) on our listener: add from many
// goroutines at once, through pop and its ring, to a handler that counts.
// client-go's builds an unexported processorListener, so it cannot run here;
// its numbers come from `go test -bench BenchmarkListener
// k8s.io/client-go/tools/cache` (see the chapter). BenchmarkDistribute below
// puts both implementations through the same exported door instead.
func BenchmarkListener(b *testing.B) {
	var notification AddNotification

	var swg sync.WaitGroup
	swg.Add(b.N)
	b.SetParallelism(concurrencyLevel)
	// Preallocate enough space so that the benchmark does not grow the ring.
	synced := &doneChan{name: "bench", ch: make(chan struct{})}
	close(synced.ch)
	pl, err := NewProcessListener(&ResourceEventHandlerFuncs{
		AddFunc: func(any) { swg.Done() },
	}, 0, 0, time.Now(), 1024*1024, synced)
	if err != nil {
		b.Fatal(err)
	}
	var wg wait.Group
	defer wg.Wait()       // wait for run and pop to stop
	defer close(pl.addCh) // tell pop, then run, to stop
	wg.Start(pl.run)
	wg.Start(pl.pop)

	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			pl.Add(notification)
		}
	})
	swg.Wait() // until every notification has reached the handler
	b.StopTimer()
}

// countingHandler counts adds; it satisfies both sides' interface.
type countingHandler struct{ wg *sync.WaitGroup }

func (h countingHandler) OnAdd(any, bool)   { h.wg.Done() }
func (h countingHandler) OnUpdate(_, _ any) {}
func (h countingHandler) OnDelete(any)      {}

// BenchmarkDistribute measures one notification fanned out to N handlers and
// delivered, on client-go (a running SharedIndexInformer's OnAdd, which is
// sharedProcessor.distribute) and ours (SharedProcessor.Distribute), from
// parallel goroutines as in BenchmarkListener.
func BenchmarkDistribute(b *testing.B) {
	for _, handlers := range []int{1, 10} {
		for _, impl := range []string{"client-go", "ours"} {
			b.Run(fmt.Sprintf("handlers=%d/%s", handlers, impl), func(b *testing.B) {
				var swg sync.WaitGroup
				swg.Add(b.N * handlers)
				var f fanOut
				if impl == "client-go" {
					hs := make([]cache.ResourceEventHandler, handlers)
					for i := range hs {
						hs[i] = countingHandler{&swg}
					}
					f = startClientGoFanOut(b, hs)
				} else {
					hs := make([]ResourceEventHandler, handlers)
					for i := range hs {
						hs[i] = countingHandler{&swg}
					}
					f = startOurFanOut(b, hs)
				}
				defer f.stop()
				b.SetParallelism(concurrencyLevel)
				b.ReportAllocs()
				b.ResetTimer()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						f.add(nil)
					}
				})
				swg.Wait()
				b.StopTimer()
			})
		}
	}
}
