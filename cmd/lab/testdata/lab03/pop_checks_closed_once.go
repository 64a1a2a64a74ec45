//go:build ignore

// A plausible wrong answer to lab 03: Pop asks whether the queue is closed
// once, before it waits, and not again when Close wakes it: a Pop blocked on
// an empty queue goes back to sleep and never returns.

package deltafifo

func (f *DeltaFIFO) Pop(process PopProcessFunc) (interface{}, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	if len(f.queue) == 0 && f.closed {
		return nil, ErrFIFOClosed
	}
	for len(f.queue) == 0 {
		f.cond.Wait()
	}
	isInInitialList := !f.initial.hasSynced()
	id := f.queue[0]
	f.queue = f.queue[1:]
	f.initial.popped(1)
	item := f.items[id]
	delete(f.items, id)
	return item, process(item, isInInitialList)
}
