// Mirrors k8s.io/client-go v0.37.2 tools/cache/synctrack/synctrack.go:
// SingleFileTracker; and names tools/cache/shared_informer.go's DoneChecker,
// which stage 03 declares.

package processor

import (
	"context"
	"sync/atomic"

	deltafifo "informer-from-scratch/03-deltafifo"
)

// DoneChecker is stage 03's deltafifo.DoneChecker (client-go has one
// cache.DoneChecker): the queue's HasSyncedChecker, a listener's and an
// informer's are all the same type, so any of them can be waited on with
// deltafifo.IsDone or an informer's WaitFor.
type DoneChecker = deltafifo.DoneChecker

// SingleFileTracker answers "has this handler seen the whole initial list?"
// for a handler that receives notifications one at a time, in order. It
// combines two facts:
//
//   - upstream has synced: the informer has handed over its initial list
//     (UpstreamHasSynced, called once, after every initial item was Start-ed);
//   - count is zero: every initial item that was Start-ed when it was queued
//     has been Finished after the handler returned.
//
// Both are needed. Upstream alone says nothing about a handler still working
// through its backlog; a zero count alone could be a handler that happens to
// have caught up halfway through the list.
type SingleFileTracker struct {
	name string

	count             atomic.Int64
	upstreamHasSynced atomic.Bool

	// synced is cancelled once both facts hold. A context gives us a
	// close-once channel and thread safety for free.
	synced context.Context
	cancel context.CancelFunc
}

// NewSingleFileTracker returns a tracker; name is what its Name reports.
func NewSingleFileTracker(name string) *SingleFileTracker {
	t := &SingleFileTracker{name: name}
	t.synced, t.cancel = context.WithCancel(context.Background())
	return t
}

// Start records one more initial-list item on its way to the handler. Call it
// before the item is queued.
func (t *SingleFileTracker) Start() { t.count.Add(1) }

// Finished records that the handler is done with one initial-list item. A
// Finished without its Start is a logic error that would make HasSynced lie,
// so it panics, as client-go's does.
func (t *SingleFileTracker) Finished() {
	result := t.count.Add(-1)
	if result < 0 {
		panic("synctrack: negative counter; this logic error means HasSynced may return incorrect value")
	}
	if result == 0 && t.upstreamHasSynced.Load() {
		t.cancel()
	}
}

// UpstreamHasSynced records that the source has delivered its whole initial
// list. It must be called after the last Start.
func (t *SingleFileTracker) UpstreamHasSynced() {
	t.upstreamHasSynced.Store(true)
	if t.count.Load() == 0 {
		t.cancel()
	}
}

// HasSynced reports whether the source has synced and the handler has
// processed every initial-list item.
func (t *SingleFileTracker) HasSynced() bool { return t.synced.Err() != nil }

// Done is closed when HasSynced becomes true.
func (t *SingleFileTracker) Done() <-chan struct{} { return t.synced.Done() }

// Name describes what is being waited for.
func (t *SingleFileTracker) Name() string { return t.name }
