// Not a mirror of client-go, which is watched through its metrics and
// logs: the places where a demo's timeline, the live view or a chaos report
// may watch an informer at work (06-sharedinformer/observe fills them), and
// where the teaching switches of breaks.go are installed.

package informer

import processor "informer-from-scratch/05-processor"

// Seams are where a watcher may wrap the parts of an informer as they are
// assembled, or hear a step the parts do not show. Each is optional, and none
// changes what the informer does: the informer's code says nothing about
// being watched, and runs with the same locks either way.
//
// Each seam function, and each method of a wrapper it returns, runs on one
// of the informer's own goroutines, in place of the part it wraps, some
// under the informer's locks: each field says which. So it must return
// promptly, and must not call back into the informer: a method that takes
// startedLock or blockDeltas (AddEventHandler, RemoveEventHandler,
// AddIndexers, HasStarted, IsStopped, LastSyncResourceVersion) deadlocks
// when called under that lock, and any call sees the informer in the middle
// of a step.
type Seams struct {
	// Queue wraps the queue between the reflector and processLoop: the
	// reflector's calls (on its goroutines, under no lock of the
	// informer's), and what processLoop pops (on its goroutine; the queue
	// may hold its own lock while the popped item is processed). Called
	// once, by Run, under startedLock.
	Queue func(Queue) Queue
	// Store wraps the cache as processLoop writes it (GetStore and
	// GetIndexer return the cache itself): its methods run on processLoop's
	// goroutine under blockDeltas (and under the queue's own lock when the
	// queue holds it while an item is processed, as a DeltaFIFO does).
	// Called once, by the constructor.
	Store func(Store) Store
	// Notifier wraps the informer as processDeltas calls it: OnAdd,
	// OnUpdate and OnDelete, which hand notifications to the processor, on
	// processLoop's goroutine under the same locks as Store's. Called once,
	// by the constructor.
	Notifier func(ResourceEventHandler) ResourceEventHandler
	// Handler wraps each handler as it is added, with its
	// HandlerOptions.Name: called under startedLock by
	// AddEventHandlerWithOptions, after the handler's listener is built,
	// so the listener names the handler itself in its errors and its
	// HasSynced (stage 05's ProcessorListener.WrapHandler). The wrapper's
	// methods run on the listener's goroutine, under no lock of the
	// informer's. (An unshared informer's handler is wrapped once, by
	// NewInformerWithOptions, and called on processLoop's goroutine.)
	Handler func(h ResourceEventHandler, name string) ResourceEventHandler
	// Replay hears each cached object given to a handler added after Run
	// (h, with its HandlerOptions.Name), as it is given, before the
	// handler's listener has it: on the caller of AddEventHandler's
	// goroutine, under startedLock and blockDeltas.
	Replay func(h ResourceEventHandler, name string, obj any)
}

func (s Seams) queue(q Queue) Queue {
	if s.Queue == nil {
		return q
	}
	return s.Queue(q)
}

func (s Seams) store(st Store) Store {
	if s.Store == nil {
		return st
	}
	return s.Store(st)
}

func (s Seams) notifier(h ResourceEventHandler) ResourceEventHandler {
	if s.Notifier == nil {
		return h
	}
	return s.Notifier(h)
}

func (s Seams) handler(h ResourceEventHandler, name string) ResourceEventHandler {
	if s.Handler == nil {
		return h
	}
	return s.Handler(h, name)
}

func (s Seams) replay(h ResourceEventHandler, name string, obj any) {
	if s.Replay != nil {
		s.Replay(h, name, obj)
	}
}

// informerSeams are a shared informer's seams as its code calls them: the
// watcher's Seams, with the teaching switches of Breaks installed at two of
// them (breaks.go). One call at a seam installs both, so the mirrored
// methods read as client-go's, and a switch acts outside the watcher's
// wrapper: the watcher sees what the informer did, not what it would have
// done unbroken.
type informerSeams struct {
	Seams
	breaks Breaks
}

// notifier wraps the informer as processDeltas calls it: the watcher's
// wrapper, then, outside it, Breaks.NoTombstones.
func (s informerSeams) notifier(h ResourceEventHandler) ResourceEventHandler {
	h = s.Seams.notifier(h)
	if s.breaks.NoTombstones {
		h = droppingTombstones{h}
	}
	return h
}

// listener installs, in a handler's new listener (not yet added to the
// processor), the watcher's wrapper of the handler, and
// Breaks.BlockingListeners.
func (s informerSeams) listener(l *processor.ProcessorListener, name string) {
	if s.Handler != nil {
		l.WrapHandler(func(h ResourceEventHandler) ResourceEventHandler { return s.handler(h, name) })
	}
	if s.breaks.BlockingListeners {
		l.WithoutBuffer()
	}
}
