package workqueue

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	cgworkqueue "k8s.io/client-go/util/workqueue"
)

// runFIFO applies pushes (true) and pops (false, skipped when empty) to
// client-go's DefaultQueue and ours, and returns what each popped and its
// Len after every step.
func runFIFO(ops []bool) (theirs, ours []int) {
	t, o := cgworkqueue.DefaultQueue[int](), DefaultQueue[int]()
	for i, push := range ops {
		switch {
		case push:
			t.Push(i)
			o.Push(i)
		case t.Len() > 0:
			theirs, ours = append(theirs, t.Pop()), append(ours, o.Pop())
		}
		theirs, ours = append(theirs, -t.Len()), append(ours, -o.Len())
	}
	return theirs, ours
}

// TestDefaultQueueMatchesClientGo: our FIFO reuses its array where client-go's
// re-slices; the order and the lengths must not change. Push-heavy, balanced
// and pop-heavy walks make it grow, compact and empty.
func TestDefaultQueueMatchesClientGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, pPush := range []float64{0.3, 0.5, 0.55, 0.7, 0.95} {
		ops := make([]bool, 20000)
		for i := range ops {
			ops[i] = rng.Float64() < pPush
		}
		theirs, ours := runFIFO(ops)
		if !slices.Equal(theirs, ours) {
			t.Errorf("pPush %.2f: pops and lengths differ (-client-go +ours):\n%s", pPush, cmp.Diff(theirs, ours))
		}
	}
}

// FuzzDefaultQueue: each bit of the input is a push (1) or a pop (0).
func FuzzDefaultQueue(f *testing.F) {
	f.Add([]byte{0xff, 0x0f, 0xf0, 0xaa})
	f.Add([]byte{0xfe, 0xfe, 0x01, 0x7f, 0x00})
	f.Fuzz(func(t *testing.T, program []byte) {
		var ops []bool
		for _, b := range program {
			for bit := range 8 {
				ops = append(ops, b&(1<<bit) != 0)
			}
		}
		theirs, ours := runFIFO(ops)
		if diff := cmp.Diff(theirs, ours); diff != "" {
			t.Errorf("(-client-go +ours):\n%s", diff)
		}
	})
}

// TestDefaultQueueLetsPoppedItemsGo: a popped slot is cleared, so the array
// holds no pointer to an item that left the queue.
func TestDefaultQueueLetsPoppedItemsGo(t *testing.T) {
	q := DefaultQueue[*int]().(*fifo[*int])
	one, two := new(int), new(int)
	q.Push(one)
	q.Push(two)
	q.Pop()
	if q.items[0] != nil {
		t.Error("the popped slot still points at the item")
	}
	q.Pop()
	if q.Len() != 0 || len(q.items) != 0 || q.head != 0 {
		t.Errorf("an emptied FIFO did not start again at the front: len %d, head %d", len(q.items), q.head)
	}
}
