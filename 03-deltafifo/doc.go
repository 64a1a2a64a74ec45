// Package deltafifo is stage 03: the queues between the Reflector and the
// informer. It mirrors k8s.io/client-go v0.37.2 tools/cache/delta_fifo.go
// (DeltaFIFO) and tools/cache/the_real_fifo.go (RealFIFO), and holds the key
// functions every later stage uses.
package deltafifo
