// Mirrors k8s.io/client-go v0.37.2 util/workqueue/delaying_queue.go: waitFor,
// waitForPriorityQueue (Len, Less, Swap, Push, Pop, Peek) and insert.

package workqueue

import (
	"container/heap"
	"time"
)

// waitFor is an item the waiting loop will add to the queue at readyAt.
type waitFor[T any] struct {
	data    T
	readyAt time.Time
	// index is the entry's position in the heap, kept up to date by Swap,
	// so heap.Fix can move it when its deadline is brought forward.
	index int
}

// waitForPriorityQueue is a binary min-heap of entries by readyAt, for
// container/heap: the entry due first is at index 0. Entries with the same
// readyAt come out in whatever order the heap holds them, which is neither
// the order they were added nor its reverse; client-go's heap is the same, so
// ours gives the same order (the differential tests check it).
type waitForPriorityQueue[T any] []*waitFor[T]

func (pq waitForPriorityQueue[T]) Len() int { return len(pq) }

func (pq waitForPriorityQueue[T]) Less(i, j int) bool {
	return pq[i].readyAt.Before(pq[j].readyAt)
}

func (pq waitForPriorityQueue[T]) Swap(i, j int) {
	pq[i], pq[j] = pq[j], pq[i]
	pq[i].index = i
	pq[j].index = j
}

// Push and Pop are for container/heap, which calls them after (Push) or
// before (Pop) restoring the heap order; use heap.Push and heap.Pop.
func (pq *waitForPriorityQueue[T]) Push(x any) {
	entry := x.(*waitFor[T])
	entry.index = len(*pq)
	*pq = append(*pq, entry)
}

func (pq *waitForPriorityQueue[T]) Pop() any {
	old := *pq
	last := old[len(old)-1]
	old[len(old)-1] = nil // let the entry go: the array is reused by the next Push
	last.index = -1
	*pq = old[:len(old)-1]
	return last
}

// Peek returns the entry due first without removing it. The heap must not be
// empty.
func (pq waitForPriorityQueue[T]) Peek() *waitFor[T] {
	return pq[0]
}

// insert schedules entry. An item waits at most once: if it is already in the
// heap, the earlier of the two deadlines wins, so AddAfter can bring an item
// forward but never push it back.
func insert[T comparable](pq *waitForPriorityQueue[T], known map[T]*waitFor[T], entry *waitFor[T]) {
	if existing, ok := known[entry.data]; ok {
		if entry.readyAt.Before(existing.readyAt) {
			existing.readyAt = entry.readyAt
			heap.Fix(pq, existing.index)
		}
		return
	}
	heap.Push(pq, entry)
	known[entry.data] = entry
}
