//go:build conformance

// Adapter for client-go's DeltaFIFO and RealFIFO tests (tools/cache
// delta_fifo_test.go, the_real_fifo_test.go, fifo_test.go's helpers), run in
// package deltafifo by proving-ground/conformance. Compiled only there: the build
// tag keeps every ordinary build away from it.

package deltafifo

// NewRealFIFO is client-go's deprecated constructor, which stage 03 leaves
// out; client-go's defines it exactly so, over NewRealFIFOWithOptions.
func NewRealFIFO(keyFunc KeyFunc, knownObjects KeyListerGetter, transformer TransformFunc) *RealFIFO {
	return NewRealFIFOWithOptions(RealFIFOOptions{
		KeyFunction:  keyFunc,
		KnownObjects: knownObjects,
		Transformer:  transformer,
	})
}

// copyDeltas is the helper client-go's getByKey test helper calls: a copy of
// the slice, sharing the objects.
func copyDeltas(d Deltas) Deltas {
	return append(Deltas(nil), d...)
}
