//go:build ignore

// A plausible wrong answer to lab 08: Done takes the item out of processing
// but never looks at dirty. An item added again while a worker held it is
// left marked dirty and in no FIFO: the change that came during the
// reconcile is never reconciled, and every later Add of the item finds it
// dirty and does nothing.

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
	q.processing.Delete(item)
	q.metrics.done(item)
	if q.processing.Len() == 0 && q.drain {
		q.cond.Broadcast()
	}
}
