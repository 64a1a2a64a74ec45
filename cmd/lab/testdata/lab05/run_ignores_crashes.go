//go:build ignore

// A plausible wrong answer to lab 05: run delivers each notification and
// ignores what deliver reports. With utilruntime.ReallyCrash off, a handler
// that panics on everything is then called again at once, in a tight loop,
// where client-go waits a second after each crash.

package processor

func (p *ProcessorListener) run() {
	defer close(p.runFinished)
	for next := range p.nextCh {
		p.deliver(next)
	}
}
