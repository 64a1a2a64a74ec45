package faultproxy

import (
	"context"
	"math/rand/v2"
	"time"
)

// Plan draws a fault schedule from seed: over duration, one fault every
// `every` on average (between half and one and a half of it apart). The
// first len(kinds) faults are every kind once, in an order drawn from the
// seed, so a short run still meets each; the kinds after them are drawn
// at random. The same arguments give the same schedule.
func Plan(seed uint64, duration, every time.Duration, kinds []Kind) []Planned {
	r := rand.New(rand.NewPCG(seed, 0x5c4ed))
	first := append([]Kind(nil), kinds...)
	r.Shuffle(len(first), func(i, j int) { first[i], first[j] = first[j], first[i] })
	var plan []Planned
	at := time.Duration(0)
	for {
		at += every/2 + time.Duration(r.Int64N(int64(every)))
		if at >= duration {
			return plan
		}
		k := kinds[r.IntN(len(kinds))]
		if len(plan) < len(first) {
			k = first[len(plan)]
		}
		plan = append(plan, Planned{At: at, Kind: k})
	}
}

// Play makes each planned fault at its time, by calling do, until the plan
// is done or ctx ends. A fault that takes long (a restart) delays the ones
// after it; they then follow at once, in order.
func Play(ctx context.Context, plan []Planned, do func(Planned)) {
	start := time.Now()
	for _, f := range plan {
		t := time.NewTimer(time.Until(start.Add(f.At)))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		do(f)
	}
}
