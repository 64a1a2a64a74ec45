//go:build ignore

// A plausible wrong answer to lab 08: Get waits on the condition variable
// once, with an if, instead of in a loop. Woken for an item that another
// Get took first (Signal wakes a waiter, but does not hand it the lock),
// it finds the queue empty and returns the zero item with shutdown = true:
// its worker stops while the queue still runs. The race is the
// scheduler's, so the random programs see it only now and then;
// TestGetWokenForNothingWaitsAgain makes it happen every time.

package workqueue

func (q *Typed[T]) Get() (item T, shutdown bool) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	if q.queue.Len() == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if q.queue.Len() == 0 {
		return item, true
	}
	item = q.queue.Pop()
	q.metrics.get(item)
	q.processing.Insert(item)
	q.dirty.Delete(item)
	return item, false
}
