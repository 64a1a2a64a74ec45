//go:build ignore

// A plausible wrong answer to lab 08, read from client-go: Done as
// client-go writes it. It pushes any dirty item, even one it never handed
// out (a stray Done queues a waiting item twice, and two workers can hold
// it), and when the processing set empties it wakes one ShutDownWithDrain
// (Signal) where ours wakes every one (Broadcast): the deliberate
// differences the chapter lists.

package workqueue

func (q *Typed[T]) Done(item T) {
	if q.items.refused(item) {
		return
	}
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	q.metrics.done(item)
	q.processing.Delete(item)
	if q.dirty.Has(item) {
		q.queue.Push(item)
		q.cond.Signal()
	} else if q.processing.Len() == 0 {
		q.cond.Signal()
	}
}
