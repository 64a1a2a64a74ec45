package processor

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/clock"
)

// TestWithoutBufferAddWaitsWhileTheHandlerIsBusy pins the teaching switch
// stage 06's blocking-listener break is built on (client-go has no such
// switch): with a stuck handler, a listener's Add returns at once while the
// ring takes the backlog, as client-go's does; WithoutBuffer, only two Adds
// return (one notification in the handler, one in pop's hand) and the third
// waits for the handler. Either way, once the handler is released, every
// notification arrives, in order.
func TestWithoutBufferAddWaitsWhileTheHandlerIsBusy(t *testing.T) {
	type result struct {
		ReturnedWhileStuck int   // Adds that returned while the handler was stuck
		Delivered          []int // what the handler got, in order
	}
	for _, tc := range []struct {
		name       string
		unbuffered bool
		want       result
	}{
		{"with its ring, like client-go's", false, result{ReturnedWhileStuck: 3, Delivered: []int{0, 1, 2}}},
		{"WithoutBuffer", true, result{ReturnedWhileStuck: 2, Delivered: []int{0, 1, 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got result
			synctest.Test(t, func(t *testing.T) {
				gate := make(chan struct{})
				var mu sync.Mutex
				handler := ResourceEventHandlerDetailedFuncs{AddFunc: func(obj any, _ bool) {
					<-gate
					mu.Lock()
					got.Delivered = append(got.Delivered, obj.(int))
					mu.Unlock()
				}}
				p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
				synced := &doneChan{name: "test", ch: make(chan struct{})}
				close(synced.ch)
				l, err := NewProcessListener(handler, 0, 0, time.Now(), InitialBufferSize, synced)
				if err != nil {
					t.Fatal(err)
				}
				if tc.unbuffered {
					l.WithoutBuffer()
				}
				if _, _, err := p.AddListener(l); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				var wg sync.WaitGroup
				wg.Go(func() { p.Run(ctx) })
				returned := make(chan int, 3)
				wg.Go(func() {
					for i := range 3 {
						p.Distribute(AddNotification{NewObj: i}, false)
						returned <- i
					}
				})
				synctest.Wait() // everything that can move without the handler has moved
				got.ReturnedWhileStuck = len(returned)
				close(gate)
				for range 3 - got.ReturnedWhileStuck {
					<-returned
				}
				// Everything that will ever reach the handler has reached it.
				synctest.Wait()
				cancel()
				wg.Wait()
			})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("three notifications to a listener whose handler is stuck in the first (-want +ours):\n%s", diff)
			}
		})
	}
}

// TestStoppingGivesUpOnASourceThatNeverSyncs: watchSynced, a listener's
// third goroutine, waits for its source's HasSynced or for pop to return,
// whichever comes first, as client-go's watchSynced does: pop closes done on
// its way out. So a source that never syncs does not keep the processor from
// stopping (its Run waits for every listener's goroutines), and the
// registration's HasSynced stays false.
func TestStoppingGivesUpOnASourceThatNeverSyncs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
		never := &doneChan{name: "a source that never syncs", ch: make(chan struct{})}
		handler := ResourceEventHandlerDetailedFuncs{AddFunc: func(any, bool) {}}
		l, err := NewProcessListener(handler, 0, 0, time.Now(), InitialBufferSize, never)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.AddListener(l); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		stopped := make(chan struct{})
		go func() {
			p.Run(ctx)
			close(stopped)
		}()
		p.Distribute(AddNotification{NewObj: 1, IsInInitialList: true}, false)
		synctest.Wait()
		cancel()
		synctest.Wait() // everything that can end has ended
		select {
		case <-stopped:
		default:
			t.Error("the processor's Run did not return when its context ended: it waits for every listener's goroutines, " +
				"and watchSynced still waits for a source that never syncs. pop must close p.done when it returns: " +
				"that is what tells watchSynced to give up")
			// Let watchSynced go, so the bubble ends and the next tests run.
			select {
			case <-l.done:
			default:
				close(l.done)
			}
			<-stopped
		}
		if l.HasSynced() {
			t.Error("the registration's HasSynced is true, but its source never synced")
		}
	})
}
