//go:build ignore

// A plausible wrong answer to lab 03: Pop releases the lock before it calls
// process ("never call out while holding a lock"). Every single-threaded
// scenario comes out as client-go's, but process no longer runs under the
// queue's lock, so an informer's cache update can race Replace, Delete and
// Resync, which read that cache (KnownObjects).

package deltafifo

func (f *DeltaFIFO) Pop(process PopProcessFunc) (interface{}, error) {
	f.lock.Lock()
	for len(f.queue) == 0 {
		if f.closed {
			f.lock.Unlock()
			return nil, ErrFIFOClosed
		}
		f.cond.Wait()
	}
	isInInitialList := !f.initial.hasSynced()
	id := f.queue[0]
	f.queue = f.queue[1:]
	f.initial.popped(1)
	item := f.items[id]
	delete(f.items, id)
	f.lock.Unlock()
	return item, process(item, isInInitialList)
}
