//go:build ignore

// A plausible wrong answer to lab 08: Add keeps the queue stingy (an item
// already dirty is not queued twice) but forgets the processing set. An
// item added while a worker holds it goes straight back in the FIFO, so a
// second worker can Get it while the first still reconciles it: promise 3,
// "never twice at once", is gone.

package workqueue

func (q *Typed[T]) Add(item T) {
	if q.items.refused(item) {
		return
	}
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	if q.shuttingDown {
		return
	}
	if q.dirty.Has(item) {
		q.queue.Touch(item)
		return
	}
	q.metrics.add(item)
	q.dirty.Insert(item)
	q.queue.Push(item)
	q.cond.Signal()
}
