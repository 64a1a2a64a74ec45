package faultproxy

import (
	"context"
	"math/rand/v2"
	"time"
)

// Plan draws a fault schedule from seed: over duration, one fault every
// `every` on average (between half and one and a half of it apart), each
// of a kind drawn from kinds. The same arguments give the same schedule.
func Plan(seed uint64, duration, every time.Duration, kinds []Kind) []Planned {
	r := rand.New(rand.NewPCG(seed, 0x5c4ed))
	var plan []Planned
	at := time.Duration(0)
	for {
		at += every/2 + time.Duration(r.Int64N(int64(every)))
		if at >= duration {
			return plan
		}
		plan = append(plan, Planned{At: at, Kind: kinds[r.IntN(len(kinds))]})
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
