//go:build ignore

// A plausible wrong answer to lab 03: Pop asks whether the queue is closed
// before it looks for an item, so a closed queue stops handing out what it
// still holds. client-go's Pop reports ErrFIFOClosed only once the queue is
// both closed and empty: what was queued before Close is still delivered.

package deltafifo

func (f *DeltaFIFO) Pop(process PopProcessFunc) (interface{}, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for {
		if f.closed {
			return nil, ErrFIFOClosed
		}
		if len(f.queue) > 0 {
			break
		}
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
