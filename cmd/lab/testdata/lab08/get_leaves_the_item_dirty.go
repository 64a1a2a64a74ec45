//go:build ignore

// A plausible wrong answer to lab 08: Get moves the item to the processing
// set but leaves it in dirty. An Add during the reconcile then finds it
// dirty and does nothing, and Done, finding it dirty, queues it again
// whether or not anything changed: every item is handed out again after
// each Done, for ever.

package workqueue

func (q *Typed[T]) Get() (item T, shutdown bool) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	for q.queue.Len() == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if q.queue.Len() == 0 {
		return item, true
	}
	item = q.queue.Pop()
	q.metrics.get(item)
	q.processing.Insert(item)
	return item, false
}
