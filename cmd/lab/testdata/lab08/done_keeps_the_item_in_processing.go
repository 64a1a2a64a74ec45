//go:build ignore

// A plausible wrong answer to lab 08: Done re-queues a dirty item but never
// takes the item out of the processing set (the Delete was lost in a
// refactoring). The item is never handed out again, and a
// ShutDownWithDrain waits for ever for it to leave processing.

package workqueue

func (q *Typed[T]) Done(item T) {
	if q.items.refused(item) {
		return
	}
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	if !q.processing.Has(item) {
		return
	}
	q.metrics.done(item)
	if q.dirty.Has(item) {
		q.queue.Push(item)
		q.cond.Signal()
	}
	if q.processing.Len() == 0 && q.drain {
		q.cond.Broadcast()
	}
}
