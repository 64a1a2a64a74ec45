// Not a mirror of client-go: teaching switches, each of which takes away
// one mechanism that client-go v0.37.2 has, for the demo's --break flag
// (`make run-stage 6 ARGS=--break=help`) and the tests that show what
// breaks.

package informer

import "fmt"

// Breaks turns off, one at a time, mechanisms chapter 06 says an informer
// cannot do without, so that the demo can show on the playground what goes
// wrong without each. Teaching only: the zero value is client-go's
// behaviour, and nothing but the demo and the tests that show each failure
// sets a field. Each switch is installed at a seam (seams.go), outside a
// watcher's wrapper, so the informer's methods say nothing about it and a
// watched timeline shows what the broken informer did.
type Breaks struct {
	// NoTombstones drops every DeletedFinalStateUnknown before it reaches
	// the handlers. A relist still removes from the cache the objects the
	// new list lacks; the handlers never hear of it, and whatever they
	// built from the informer's calls keeps a ghost. client-go calls
	// OnDelete for each such object in processReplacedAllInfo
	// (tools/cache/controller.go), and with a DeltaFIFO the queue's
	// Replace queues the tombstone (tools/cache/delta_fifo.go). Installed
	// around the informer as processDeltas calls it (droppingTombstones).
	NoTombstones bool
	// BlockingListeners takes every listener's ring away (stage 05's
	// ProcessorListener.WithoutBuffer): handing a handler a notification
	// waits while that handler is busy with the one before. One stalled
	// handler then stalls the distributor, processLoop, the cache and every
	// other handler. client-go's processorListener.pop always receives, and
	// parks what the handler is not ready for in its unbounded buffer
	// (tools/cache/shared_informer.go). Installed in each listener as its
	// handler is added.
	BlockingListeners bool
}

// droppingTombstones is Breaks.NoTombstones: the informer as processDeltas
// calls it, minus every DeletedFinalStateUnknown.
type droppingTombstones struct{ ResourceEventHandler }

func (d droppingTombstones) OnDelete(obj any) {
	if _, tombstone := obj.(DeletedFinalStateUnknown); tombstone {
		return // the deletion is lost
	}
	d.ResourceEventHandler.OnDelete(obj)
}

// Break names one switch of Breaks, as the demo's --break flag spells it.
type Break struct {
	Name string
	// What says what the switch takes away, in one line.
	What string
	set  func(*Breaks)
}

// AllBreaks lists every switch, in the order the chapter teaches them.
var AllBreaks = []Break{
	{"tombstones", "no DeletedFinalStateUnknown: a delete missed during a watch gap never reaches a handler", func(b *Breaks) { b.NoTombstones = true }},
	{"blocking-listener", "no ring buffer per handler: a stalled handler stalls the cache and every other handler", func(b *Breaks) { b.BlockingListeners = true }},
}

// ParseBreak returns Breaks with the named switch on; "" is none.
func ParseBreak(name string) (Breaks, error) {
	var b Breaks
	if name == "" {
		return b, nil
	}
	for _, br := range AllBreaks {
		if br.Name == name {
			br.set(&b)
			return b, nil
		}
	}
	return b, fmt.Errorf("no break named %q (--break=help lists them)", name)
}
