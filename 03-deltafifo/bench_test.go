package deltafifo

import (
	"fmt"
	"testing"
)

// The benchmarks feed the same stream to client-go's queues and ours: 100
// objects, each added and updated twice (the updates interleaved), then pop
// until empty. Run with `make bench` or
//
//	go test -run '^$' -bench . -benchmem ./03-deltafifo/
func benchStream() []op {
	var ops []op
	rv := 0
	for round := range 3 {
		for i := range 100 {
			rv++
			s := pod(fmt.Sprintf("p%03d", i), rv)
			if round == 0 {
				ops = append(ops, add(s))
			} else {
				ops = append(ops, update(s))
			}
		}
	}
	return ops
}

// benchQueue pops pops times per round: the number of pops that empties the
// queue (checked after the loop, so client-go's reflection-based length is
// not timed).
func benchQueue(b *testing.B, newQueue func(fifoConfig) *queueUnderTest, c fifoConfig, popOp opKind, pops int) {
	stream := benchStream()
	objs := make([]interface{}, len(stream))
	for i, o := range stream {
		objs[i] = o.obj.ours() // both packages take *corev1.Pod
	}
	noop := func(interface{}, bool) error { return nil }
	var q *queueUnderTest
	for b.Loop() {
		q = newQueue(c)
		q.known = nil // measure the queue, not the test store
		for i, o := range stream {
			var err error
			if o.kind == opAdd {
				err = q.add(objs[i])
			} else {
				err = q.update(objs[i])
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		for range pops {
			if popOp == opPopBatch {
				_ = q.popBatch(func(Deltas, bool) error { return nil }, noop)
			} else {
				_, _ = q.pop(noop)
			}
		}
	}
	if n := q.length(); n != 0 {
		b.Fatalf("%d pops left %d items queued", pops, n)
	}
}

func BenchmarkDeltaFIFO(b *testing.B) {
	c := fifoConfig{emitReplaced: true}
	// 100 keys: 100 pops of 3 deltas each.
	b.Run("client-go", func(b *testing.B) { benchQueue(b, clientGoDeltaFIFO, c, opPop, 100) })
	b.Run("ours", func(b *testing.B) { benchQueue(b, oursDeltaFIFO, c, opPop, 100) })
}

func BenchmarkRealFIFO(b *testing.B) {
	c := fifoConfig{atomic: true, bookmark: true, unlock: true}
	// 300 events: 300 pops, or 3 batches of 100 distinct objects.
	b.Run("Pop/client-go", func(b *testing.B) { benchQueue(b, clientGoRealFIFO, c, opPop, 300) })
	b.Run("Pop/ours", func(b *testing.B) { benchQueue(b, oursRealFIFO, c, opPop, 300) })
	b.Run("PopBatch/client-go", func(b *testing.B) { benchQueue(b, clientGoRealFIFO, c, opPopBatch, 3) })
	b.Run("PopBatch/ours", func(b *testing.B) { benchQueue(b, oursRealFIFO, c, opPopBatch, 3) })
}
