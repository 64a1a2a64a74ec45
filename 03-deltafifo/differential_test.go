package deltafifo

import (
	"math/rand/v2"
	"testing"
)

// The random scenarios: operation sequences decoded from bytes, applied to
// client-go's queue and ours, compared step by step (every Pop's Deltas and
// isInInitialList, what Pop returned, every error, HasSynced and the queue
// length after each op). The same decoder serves the fuzz targets and the
// fixed-seed tests that run in `make test`.
//
// To fuzz:  go test -run '^$' -fuzz FuzzDeltaFIFO ./03-deltafifo/
//           go test -run '^$' -fuzz FuzzRealFIFO  ./03-deltafifo/

func diffDeltaFIFO(t *testing.T, data []byte) {
	t.Helper()
	c, ops := decodeScenario(data, false)
	diffQueues(t, c, ops, clientGoDeltaFIFO(c), oursDeltaFIFO(c))
}

func diffRealFIFO(t *testing.T, data []byte) {
	t.Helper()
	c, ops := decodeScenario(data, true)
	diffQueues(t, c, ops, clientGoRealFIFO(c), oursRealFIFO(c))
}

// seedScenarios are hand-picked starting points for the fuzzer: the first
// byte is the configuration, then op bytes (see opTable) and their arguments.
var seedScenarios = [][]byte{
	// add a, add b, update a, pop ×3
	{0, 0, 0, 0, 1, 4, 0, 15, 15, 15},
	// replace [a b], pop, pop, replace [b] (a becomes a tombstone), pop ×2
	{0, 11, 2, 0, 1, 15, 15, 11, 1, 1, 15, 15},
	// with a transformer: add a, delete a, delete a, resync, pop ×2
	{1, 0, 0, 8, 0, 8, 0, 13, 15, 15},
	// atomic RealFIFO with bookmarks: bookmark, replace [a c], add d, resync, pop-batch ×4
	{6, 24, 11, 2, 0, 2, 0, 3, 13, 21, 21, 21, 21},
	// close, then pop on empty
	{0, 29, 15},
}

func FuzzDeltaFIFO(f *testing.F) {
	for _, s := range seedScenarios {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { diffDeltaFIFO(t, data) })
}

func FuzzRealFIFO(f *testing.F) {
	for _, s := range seedScenarios {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { diffRealFIFO(t, data) })
}

// randomScenarios returns n byte strings from a fixed seed, so every run of
// `make test` checks the same scenarios and a failure can be replayed.
func randomScenarios(seed uint64, n int) [][]byte {
	r := rand.New(rand.NewPCG(seed, 0x03deca))
	out := make([][]byte, n)
	for i := range out {
		b := make([]byte, 10+r.IntN(150))
		for j := range b {
			b[j] = byte(r.UintN(256))
		}
		out[i] = b
	}
	return out
}

func TestDeltaFIFOMatchesClientGoOnRandomScenarios(t *testing.T) {
	for i, data := range randomScenarios(1, 400) {
		diffDeltaFIFO(t, data)
		if t.Failed() {
			t.Fatalf("scenario %d failed; replay it by adding this to FuzzDeltaFIFO's seeds: %q", i, data)
		}
	}
}

func TestRealFIFOMatchesClientGoOnRandomScenarios(t *testing.T) {
	for i, data := range randomScenarios(2, 400) {
		diffRealFIFO(t, data)
		if t.Failed() {
			t.Fatalf("scenario %d failed; replay it by adding this to FuzzRealFIFO's seeds: %q", i, data)
		}
	}
}
