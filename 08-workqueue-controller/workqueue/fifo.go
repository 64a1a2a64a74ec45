// Mirrors k8s.io/client-go v0.37.2 util/workqueue/queue.go: Queue (the storage
// interface), DefaultQueue and the slice-backed queue behind it.

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

// fifo is a slice used as a first-in-first-out queue: Push appends, Pop takes
// from the front.
type fifo[T comparable] []T

func (q *fifo[T]) Touch(T) {} // FIFO order does not change when an item is added again

func (q *fifo[T]) Push(item T) { *q = append(*q, item) }

func (q *fifo[T]) Len() int { return len(*q) }

func (q *fifo[T]) Pop() T {
	item := (*q)[0]
	// Clear the slot: the backing array outlives this Pop (the slice only
	// moves its start), and a stale copy there would keep a pointer item
	// reachable until append happens to reallocate.
	var zero T
	(*q)[0] = zero
	*q = (*q)[1:]
	return item
}
