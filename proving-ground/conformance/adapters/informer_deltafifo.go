//go:build conformance

// Accessors for stage 03's internals that client-go's informer tests read
// (tools/cache/controller_test.go, Example: fifo.keyOf). In client-go the
// queues and the controller share one package; here the queues are stage 03,
// so proving-ground/conformance adds this file to package deltafifo (as an
// ordinary file, for the run only) and the informer's adapter calls it.
// Compiled only there: the build tag keeps every ordinary build away from it.

package deltafifo

// ConformanceKeyOf is RealFIFO.keyOf: the key function, taught that a
// Deltas, a Delta and a tombstone carry their object's key.
func (f *RealFIFO) ConformanceKeyOf(obj interface{}) (string, error) { return f.keyOf(obj) }
