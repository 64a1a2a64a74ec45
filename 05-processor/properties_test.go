package processor

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/buffer"
	"k8s.io/utils/clock"
)

// fanOut is a running processor with handlers registered, on either side:
// add distributes one notification to all of them.
type fanOut struct {
	add  func(obj any)
	stop func()
	// depth is how many notifications wait in a handler's buffer; -1 when the
	// side does not expose it (client-go).
	depth func(handler int) int64
	// capacity is the handler's ring's capacity; -1 when the side does not
	// expose it (client-go).
	capacity func(handler int) int64
}

// startOurFanOut starts our processor with the given handlers.
func startOurFanOut(t testing.TB, handlers []ResourceEventHandler) fanOut {
	p := NewSharedProcessor(clock.RealClock{}, ProcessorOptions{})
	synced := &doneChan{name: "test", ch: make(chan struct{})}
	close(synced.ch)
	listeners := make([]*ProcessorListener, len(handlers))
	for i, h := range handlers {
		l, err := NewProcessListener(h, 0, 0, p.clock.Now(), InitialBufferSize, synced)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := p.AddListener(l); err != nil {
			t.Fatal(err)
		}
		listeners[i] = l
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { p.Run(ctx) })
	return fanOut{
		add:      func(obj any) { p.Distribute(AddNotification{NewObj: obj}, false) },
		stop:     func() { cancel(); wg.Wait() },
		depth:    func(i int) int64 { return listeners[i].PendingNotifications() },
		capacity: func(i int) int64 { return listeners[i].BufferCapacity() },
	}
}

// startClientGoFanOut drives client-go's sharedProcessor through its only
// exported door: a running SharedIndexInformer (on an empty source) is itself
// a ResourceEventHandler whose OnAdd distributes to the registered handlers.
func startClientGoFanOut(t testing.TB, handlers []cache.ResourceEventHandler) fanOut {
	lw := &cache.ListWatch{
		ListWithContextFunc: func(context.Context, metav1.ListOptions) (runtime.Object, error) {
			return &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "1"}}, nil
		},
		WatchFuncWithContext: func(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			if opts.SendInitialEvents != nil && *opts.SendInitialEvents {
				// A WatchList request: refuse, so the reflector falls back
				// to LIST, which returns at once.
				return nil, errors.New("this source does not stream lists")
			}
			return watch.NewFake(), nil
		},
	}
	informer := cache.NewSharedIndexInformer(lw, &corev1.Pod{}, 0, cache.Indexers{})
	for _, h := range handlers {
		if _, err := informer.AddEventHandler(h); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { informer.RunWithContext(ctx) })
	if !cache.WaitFor(ctx, "", informer.HasSyncedChecker()) {
		t.Fatal("client-go's informer did not sync on an empty source")
	}
	asHandler, ok := informer.(cache.ResourceEventHandler)
	if !ok {
		t.Fatalf("%T is not a ResourceEventHandler any more", informer)
	}
	return fanOut{
		add:      func(obj any) { asHandler.OnAdd(obj, false) },
		stop:     func() { cancel(); wg.Wait() },
		depth:    func(int) int64 { return -1 },
		capacity: func(int) int64 { return -1 },
	}
}

// seqHandler records the ints it is given; a gated one blocks in its first
// call until the gate opens.
type seqHandler struct {
	gate <-chan struct{}
	got  []int
	done chan struct{}
	want int
}

func (h *seqHandler) OnAdd(obj any, _ bool) {
	if h.gate != nil && len(h.got) == 0 {
		<-h.gate
	}
	h.got = append(h.got, obj.(int)) // only run's goroutine touches got
	if len(h.got) == h.want {
		close(h.done)
	}
}
func (h *seqHandler) OnUpdate(_, _ any) {}
func (h *seqHandler) OnDelete(any)      {}

// fanOutResult is what a side delivered.
type fanOutResult struct {
	// Sequences holds, per handler, what arrived, summarized: the count and
	// the first position where the value was not the one sent there.
	Sequences []string
	// FastDoneWhileSlowBlocked: every other handler got everything while the
	// slow one was still stuck in its first call.
	FastDoneWhileSlowBlocked bool
}

func summarize(got []int) string {
	for i, v := range got {
		if v != i {
			return fmt.Sprintf("%d delivered, first out of order at %d (got %d)", len(got), i, v)
		}
	}
	return fmt.Sprintf("%d delivered, all in order", len(got))
}

// ringGauges are what the slow handler's listener says of its ring: how many
// notifications wait in it, and its capacity (-1 when the side does not say).
type ringGauges struct{ depth, capacity int64 }

// runFanOut sends n notifications to handlers handlers, the first of which
// is blocked until all have been sent, inside a synctest bubble. It also
// returns the slow handler's ring gauges as they were then (stuck), and
// once everything had been delivered (drained).
func runFanOut(t *testing.T, n, handlers int, start func(hs []*seqHandler) fanOut) (res fanOutResult, stuck, drained ringGauges) {
	synctest.Test(t, func(t *testing.T) {
		gate := make(chan struct{})
		hs := make([]*seqHandler, handlers)
		for i := range hs {
			hs[i] = &seqHandler{done: make(chan struct{}), want: n, got: make([]int, 0, n)}
		}
		hs[0].gate = gate
		f := start(hs)
		for i := range n {
			f.add(i)
		}
		// Distribute returned n times with the slow handler stuck: it never
		// waited for it. Now let everything that can move, move.
		synctest.Wait()
		res.FastDoneWhileSlowBlocked = true
		for _, h := range hs[1:] {
			select {
			case <-h.done:
			default:
				res.FastDoneWhileSlowBlocked = false
			}
		}
		stuck = ringGauges{f.depth(0), f.capacity(0)}
		close(gate)
		// Wait for everything that will ever arrive, not for all n: a
		// listener that lost notifications then shows up in the summary
		// below instead of deadlocking the bubble.
		synctest.Wait()
		drained = ringGauges{f.depth(0), f.capacity(0)}
		f.stop()
		for _, h := range hs {
			res.Sequences = append(res.Sequences, summarize(h.got))
		}
	})
	return res, stuck, drained
}

// TestManyNotificationsReachEveryHandlerInOrder: 100,000 notifications to 10
// handlers, one of them stuck until the end. Every handler gets all of them
// in order, the fast ones finish without waiting for the slow one, and
// client-go's processor behaves the same.
func TestManyNotificationsReachEveryHandlerInOrder(t *testing.T) {
	const n, handlers = 100_000, 10
	theirs, _, _ := runFanOut(t, n, handlers, func(hs []*seqHandler) fanOut {
		cg := make([]cache.ResourceEventHandler, len(hs))
		for i, h := range hs {
			cg[i] = h
		}
		return startClientGoFanOut(t, cg)
	})
	ours, stuck, drained := runFanOut(t, n, handlers, func(hs []*seqHandler) fanOut {
		our := make([]ResourceEventHandler, len(hs))
		for i, h := range hs {
			our[i] = h
		}
		return startOurFanOut(t, our)
	})
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("(-client-go +ours):\n%s", diff)
	}
	want := fanOutResult{FastDoneWhileSlowBlocked: true}
	for range handlers {
		want.Sequences = append(want.Sequences, summarize(seq(n)))
	}
	if diff := cmp.Diff(want, ours); diff != "" {
		t.Errorf("ours broke the delivery contract (-contract +ours):\n%s", diff)
	}
	// While the slow handler was stuck, its first notification was in the
	// handler, the second in pop's hand, all the others in its ring.
	if stuck.depth != n-2 {
		t.Errorf("ours: the slow listener's ring held %d notifications, want %d", stuck.depth, n-2)
	}
	// Its capacity is what k8s.io/utils' ring, client-go's, grows to with
	// as many written: the gauge BufferCapacity reads follows the ring.
	//lint:ignore SA1019 client-go's processorListener still builds its ring with NewRingGrowing: the oracle is that exact ring.
	ref := buffer.NewRingGrowing(InitialBufferSize)
	for range n - 2 {
		ref.WriteOne(0)
	}
	if stuck.capacity != int64(ref.Cap()) {
		t.Errorf("ours: the slow listener's BufferCapacity was %d; k8s.io/utils' ring holding %d has grown to %d", stuck.capacity, n-2, ref.Cap())
	}
	// Once the slow handler had caught up, its ring was empty, and kept its
	// array: the gauges follow the ring both ways (pop takes one off the
	// length for every ReadOne), and the ring never shrinks.
	if want := (ringGauges{0, stuck.capacity}); drained != want {
		t.Errorf("ours: once every notification was delivered, the slow listener said PendingNotifications=%d BufferCapacity=%d; want %d and %d (an empty ring that kept its array)", drained.depth, drained.capacity, want.depth, want.capacity)
	}
}

// TestBufferCapacityCountsTheWriteThatGrewTheRing: InitialBufferSize+3
// notifications to one stuck handler leave one in the handler, one in pop's
// hand and InitialBufferSize+1 in the ring, so the last write is the one that
// made the ring grow. BufferCapacity must already say so. The fan-out above
// cannot tell a gauge read before WriteOne from one read after it: its last
// growth comes tens of thousands of writes before the end.
func TestBufferCapacityCountsTheWriteThatGrewTheRing(t *testing.T) {
	const n = InitialBufferSize + 3
	_, stuck, _ := runFanOut(t, n, 1, func(hs []*seqHandler) fanOut {
		return startOurFanOut(t, []ResourceEventHandler{hs[0]})
	})
	//lint:ignore SA1019 client-go's processorListener still builds its ring with NewRingGrowing: the oracle is that exact ring.
	ref := buffer.NewRingGrowing(InitialBufferSize)
	for range n - 2 {
		ref.WriteOne(0)
	}
	if stuck.capacity != int64(ref.Cap()) {
		t.Errorf("ours: with %d notifications in the ring, the last of which made it grow, BufferCapacity was %d; k8s.io/utils' ring has grown to %d (read the capacity after WriteOne, not before)", n-2, stuck.capacity, ref.Cap())
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
