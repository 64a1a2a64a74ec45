package processor

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/utils/buffer"
)

// ringOp is one operation: a write of a value, or a read.
type ringOp struct {
	write bool
	value int
}

// ringState is what one side observed after one operation.
type ringState struct {
	Read   int
	ReadOK bool
	Len    int
	Cap    int
}

// runRingOps applies ops to our RingGrowing and to k8s.io/utils'
// buffer.RingGrowing (the type client-go's processorListener uses) and
// returns what each side observed after every operation.
func runRingOps(initialSize int, ops []ringOp) (theirs, ours []ringState) {
	//lint:ignore SA1019 client-go's processorListener still builds its ring with NewRingGrowing: the oracle is that exact ring.
	ref := buffer.NewRingGrowing(initialSize)
	our := NewRingGrowing[int](initialSize)
	for _, op := range ops {
		var t, o ringState
		if op.write {
			ref.WriteOne(op.value)
			our.WriteOne(op.value)
		} else {
			v, ok := ref.ReadOne()
			t.ReadOK = ok
			if ok {
				t.Read = v.(int)
			}
			o.Read, o.ReadOK = our.ReadOne()
		}
		t.Len, t.Cap = ref.Len(), ref.Cap()
		o.Len, o.Cap = our.Len(), our.Cap()
		theirs, ours = append(theirs, t), append(ours, o)
	}
	return theirs, ours
}

// randomRingOps makes n operations, writing with probability pWrite, so the
// ring fills, wraps around and grows while partly read.
func randomRingOps(rng *rand.Rand, n int, pWrite float64) []ringOp {
	ops := make([]ringOp, n)
	for i := range ops {
		ops[i] = ringOp{write: rng.Float64() < pWrite, value: i}
	}
	return ops
}

func TestRingGrowingMatchesUtilsBuffer(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 2026)) // fixed seed: reproducible
	for _, initialSize := range []int{0, 1, 3, 16, 1024} {
		for _, pWrite := range []float64{0.3, 0.5, 0.6, 0.9} {
			t.Run(fmt.Sprintf("initial=%d/pWrite=%.1f", initialSize, pWrite), func(t *testing.T) {
				ops := randomRingOps(rng, 5000, pWrite)
				theirs, ours := runRingOps(initialSize, ops)
				// slices.Equal first: cmp.Diff on 5,000 states is slow under -race.
				if slices.Equal(theirs, ours) {
					return
				}
				if diff := cmp.Diff(theirs, ours); diff != "" {
					t.Errorf("ring states differ after the same operations (-utils/buffer +ours):\n%s", diff)
				}
			})
		}
	}
}

// TestRingGrowingWrapsBeforeGrowing pins the case a random walk may miss: the
// ring is full while its contents wrap around the end of the array.
func TestRingGrowingWrapsBeforeGrowing(t *testing.T) {
	ops := []ringOp{{true, 1}, {true, 2}, {true, 3}, {false, 0}, {false, 0}, {true, 4}, {true, 5}, {true, 6}, {true, 7}}
	for range 4 {
		ops = append(ops, ringOp{})
	}
	theirs, ours := runRingOps(3, ops)
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("(-utils/buffer +ours):\n%s", diff)
	}
}

func TestNewRingGrowingTreatsNegativeSizeAsZero(t *testing.T) {
	r := NewRingGrowing[int](-5)
	r.WriteOne(1)
	if v, ok := r.ReadOne(); !ok || v != 1 || r.Cap() != defaultRingSize {
		t.Errorf("after one write and read: got (%d, %v), cap %d; want (1, true), cap %d", v, ok, r.Cap(), defaultRingSize)
	}
}

// FuzzRingGrowing drives both rings with arbitrary operation sequences: each
// byte is a write (odd) or a read (even). make test runs only the seeds.
func FuzzRingGrowing(f *testing.F) {
	f.Add(uint8(0), []byte{1, 1, 1, 0, 1, 0, 0, 0})
	f.Add(uint8(3), []byte{1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0})
	f.Add(uint8(1), []byte{1, 3, 5, 7, 9, 11, 13, 15, 17, 0, 2, 4})
	f.Fuzz(func(t *testing.T, initialSize uint8, program []byte) {
		ops := make([]ringOp, len(program))
		for i, b := range program {
			ops[i] = ringOp{write: b%2 == 1, value: i}
		}
		theirs, ours := runRingOps(int(initialSize%32), ops)
		if diff := cmp.Diff(theirs, ours); diff != "" {
			t.Errorf("(-utils/buffer +ours):\n%s", diff)
		}
	})
}
