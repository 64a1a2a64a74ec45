//go:build ignore

// A plausible wrong answer to lab 03: Pop counts the item as popped before
// it asks whether the initial list is still being delivered, so the last
// object of the first list reaches its handler with isInInitialList=false.

package deltafifo

func (f *DeltaFIFO) Pop(process PopProcessFunc) (interface{}, error) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for len(f.queue) == 0 {
		if f.closed {
			return nil, ErrFIFOClosed
		}
		f.cond.Wait()
	}
	id := f.queue[0]
	f.queue = f.queue[1:]
	f.initial.popped(1)
	isInInitialList := !f.initial.hasSynced()
	item := f.items[id]
	delete(f.items, id)
	return item, process(item, isInInitialList)
}
