// An allocation optimisation a reader may skip: the FIFO behind the queue,
// in client-go's order, reusing its array (queue.go needs only the Queue
// interface below). Mirrors k8s.io/client-go v0.37.2 util/workqueue/queue.go:
// Queue (the storage interface), DefaultQueue and the slice-backed queue
// behind it.

package workqueue

// Queue is the storage a Typed queue keeps its waiting items in: it decides
// the order items come out of Get. Typed calls it only with its own lock
// held, so an implementation needs no locking of its own.
//
// Typed already guarantees that an item is in the storage at most once, so
// Push is never called for an item the storage holds. When an item that is
// waiting is added again, Typed calls Touch instead: a priority queue can use
// it to move the item; the default FIFO ignores it.
type Queue[T comparable] interface {
	// Touch is called when an item already waiting in the storage is added
	// again.
	Touch(item T)
	// Push adds an item the storage does not hold.
	Push(item T)
	// Len is the number of items held.
	Len() int
	// Pop removes and returns the next item. Typed calls it only when Len is
	// not zero.
	Pop() (item T)
}

// DefaultQueue returns the storage every queue uses unless its config names
// another: first in, first out.
func DefaultQueue[T comparable]() Queue[T] {
	return new(fifo[T])
}

// fifo is a slice used as a first-in-first-out queue: Push appends, Pop reads
// at head and moves head on.
//
// client-go's queue pops by re-slicing from the front, so the slice's
// capacity shrinks with every Pop and a queue that is filled and emptied
// again and again reallocates its array all the time (BenchmarkQueue: about
// one allocation per item). Ours keeps the array and reuses it from the
// start once it is empty, or once at least half of it is already read.
type fifo[T comparable] struct {
	items []T // items[head:] are waiting; items[:head] were popped and cleared
	head  int
}

func (q *fifo[T]) Touch(T) {} // FIFO order does not change when an item is added again

func (q *fifo[T]) Push(item T) {
	if len(q.items) == cap(q.items) && q.head >= len(q.items)/2 && q.head > 0 {
		// Full, and at least half of it is read: move the waiting items to
		// the front instead of growing the array.
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items = q.items[:n]
		q.head = 0
	}
	q.items = append(q.items, item)
}

func (q *fifo[T]) Len() int { return len(q.items) - q.head }

func (q *fifo[T]) Pop() T {
	item := q.items[q.head]
	// Clear the slot: a stale copy in the array would keep a pointer item
	// reachable after it left the queue.
	var zero T
	q.items[q.head] = zero
	q.head++
	if q.head == len(q.items) { // empty: start again at the front
		q.items = q.items[:0]
		q.head = 0
	}
	return item
}
