// Mirrors k8s.io/utils buffer/ring_growing.go: TypedRingGrowing (RingGrowing),
// the buffer behind processorListener.pendingNotifications in client-go v0.37.2
// tools/cache/shared_informer.go.

package processor

// defaultRingSize is the capacity a zero-capacity ring grows to on its first
// write, as in k8s.io/utils/buffer.
const defaultRingSize = 16

// RingGrowing is a FIFO ring buffer that grows without bound: WriteOne never
// fails and never blocks, it doubles the storage when the ring is full.
// It is what lets a processorListener accept every notification the
// distributor hands it, however far behind its handler is.
//
// The price is memory: the storage only ever grows. After a burst of 100,000
// pending notifications the ring keeps a 131,072-slot array for the rest of
// the process's life, even once it is empty (ReadOne clears each slot so the
// objects themselves can be collected, but not the array). k8s.io/utils has
// since added buffer.Ring, which shrinks back when it empties; client-go
// v0.37.2 still uses the growing one, and so do we.
//
// Not safe for concurrent use: in a listener only the pop goroutine touches it.
type RingGrowing[T any] struct {
	data     []T
	n        int // len(data), kept to mirror the original
	beg      int // index of the oldest element
	readable int // number of elements stored
}

// NewRingGrowing returns a ring with room for initialSize elements before it
// first grows. A negative size is treated as zero.
func NewRingGrowing[T any](initialSize int) *RingGrowing[T] {
	initialSize = max(initialSize, 0)
	return &RingGrowing[T]{data: make([]T, initialSize), n: initialSize}
}

// ReadOne removes and returns the oldest element; ok is false when the ring is
// empty.
func (r *RingGrowing[T]) ReadOne() (data T, ok bool) {
	if r.readable == 0 {
		return data, false
	}
	r.readable--
	element := r.data[r.beg]
	var zero T
	// Drop the reference so the garbage collector can free the object: a
	// notification holds whole API objects.
	r.data[r.beg] = zero
	r.beg = (r.beg + 1) % r.n
	return element, true
}

// WriteOne appends an element, doubling the storage first if the ring is full.
func (r *RingGrowing[T]) WriteOne(data T) {
	if r.readable == r.n {
		r.grow()
	}
	r.data[(r.beg+r.readable)%r.n] = data
	r.readable++
}

// grow doubles the storage (a ring of capacity 0 grows to defaultRingSize)
// and unwraps the elements to start at index 0, in the order they were
// written. WriteOne calls it when the ring is full.
//
//lab:05
func (r *RingGrowing[T]) grow() {
	newN := r.n * 2
	if newN == 0 {
		newN = defaultRingSize
	}
	newData := make([]T, newN)
	// The elements may wrap around the end of the old array: copy the tail
	// part first, then the head part.
	copied := copy(newData, r.data[r.beg:min(r.beg+r.readable, r.n)])
	copy(newData[copied:], r.data[:r.readable-copied])
	r.data, r.n, r.beg = newData, newN, 0
}

// Len is the number of elements waiting to be read.
func (r *RingGrowing[T]) Len() int { return r.readable }

// Cap is the number of elements the ring holds before it grows again. It never
// decreases.
func (r *RingGrowing[T]) Cap() int { return r.n }
