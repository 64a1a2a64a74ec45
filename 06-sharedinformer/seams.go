// Not a mirror of client-go, which is watched through its metrics and
// logs: the places where a demo's timeline, the live view or a chaos report
// may watch an informer at work (06-sharedinformer/observe fills them).

package informer

import "informer-from-scratch/internal/nilpointer"

// Seams are where a watcher may wrap the parts of an informer as Run
// assembles them, or hear a step the parts do not show. Each is optional,
// and none changes what the informer does: the informer's code says
// nothing about being watched, and runs with the same locks either way.
type Seams struct {
	// Queue wraps the queue between the reflector and processLoop: the
	// reflector's calls, and what processLoop pops.
	Queue func(Queue) Queue
	// Store wraps the cache as processLoop writes it (GetStore and
	// GetIndexer return the cache itself).
	Store func(Store) Store
	// Notifier wraps the informer as processDeltas calls it: OnAdd,
	// OnUpdate and OnDelete, which hand notifications to the processor.
	Notifier func(ResourceEventHandler) ResourceEventHandler
	// Handler wraps each handler as it is added, with its
	// HandlerOptions.Name.
	Handler func(h ResourceEventHandler, name string) ResourceEventHandler
	// Replay hears each cached object given to a handler added after Run
	// (h, with its HandlerOptions.Name), as it is given, before the
	// handler's listener has it.
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

// handler wraps h, unless h is nil (then the listener's constructor refuses
// it with its own error).
func (s Seams) handler(h ResourceEventHandler, name string) ResourceEventHandler {
	if s.Handler == nil || h == nil || nilpointer.Is(h) {
		return h
	}
	return s.Handler(h, name)
}

func (s Seams) replay(h ResourceEventHandler, name string, obj any) {
	if s.Replay != nil {
		s.Replay(h, name, obj)
	}
}
