//go:build ignore

// A plausible wrong answer to lab 05: grow doubles the array and copies the
// old one over as it is, keeping beg. That is right only when the contents
// did not wrap around the end of the old array; when they did, the oldest
// elements sit at the end of the old part, and the ones that wrapped to its
// front are read after the empty slots in between (zero values, in the
// wrong order).

package processor

func (r *RingGrowing[T]) grow() {
	newN := r.n * 2
	if newN == 0 {
		newN = defaultRingSize
	}
	newData := make([]T, newN)
	copy(newData, r.data)
	r.data, r.n = newData, newN
}
