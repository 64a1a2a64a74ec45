//go:build ignore

// A plausible wrong answer to lab 08: Done skips the lock, on the reasoning
// that only the worker holding an item calls Done for it. But the sets are
// shared by every item: Done's Delete from processing races with every
// other worker's Get and Add, a data race that -race reports (and that,
// without it, can corrupt the maps). Only the race detector sees it
// reliably (without it, about one check in six passed):
//
//lab:flags -race

package workqueue

func (q *Typed[T]) Done(item T) {
	if q.items.refused(item) {
		return
	}
	if !q.processing.Has(item) {
		return
	}
	q.processing.Delete(item)
	q.metrics.done(item)
	if q.dirty.Has(item) {
		q.cond.L.Lock()
		q.queue.Push(item)
		q.cond.Signal()
		q.cond.L.Unlock()
	}
	if q.processing.Len() == 0 && q.drain {
		q.cond.Broadcast()
	}
}
