//go:build conformance

// Accessors for stage 03's internals that client-go's reflector tests read
// (tools/cache/reflector_test.go, TestReflectorRespectStoreTransformer). In
// client-go the queues and the reflector share one package, so that test
// reads a queue's fields directly; here the queues are stage 03, so
// proving-ground/conformance adds this file to package deltafifo (as an ordinary
// file, for the run only) and the reflector's adapter calls it. Each
// accessor reads what client-go's test helper of the same role reads, under
// the same lock. Compiled only there: the build tag keeps every ordinary
// build away from it.

package deltafifo

// ConformanceItems is client-go's RealFIFO.getItems
// (the_real_fifo_test.go): a copy of the queue, oldest first.
func (f *RealFIFO) ConformanceItems() []Delta {
	f.lock.Lock()
	defer f.lock.Unlock()
	return append([]Delta(nil), f.items...)
}

// ConformanceKeyFunc is the RealFIFO's key function, which client-go's test
// calls as store.keyFunc.
func (f *RealFIFO) ConformanceKeyFunc() KeyFunc { return f.keyFunc }

// ConformanceList is client-go's DeltaFIFO.list (delta_fifo_test.go): the
// newest object of every queued key.
func (f *DeltaFIFO) ConformanceList() []interface{} {
	f.lock.RLock()
	defer f.lock.RUnlock()
	list := make([]interface{}, 0, len(f.items))
	for _, item := range f.items {
		list = append(list, item.Newest().Object)
	}
	return list
}
