// Mirrors k8s.io/client-go v0.37.2 util/workqueue/queue.go: TypedInterface,
// TypedQueueConfig, NewTyped, NewTypedWithConfig, newQueueWithConfig,
// newQueue, Typed and its Add, Len, Get, Done, ShutDown, ShutDownWithDrain,
// ShuttingDown, updateUnfinishedWork and updateUnfinishedWorkLoop.

package workqueue

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/utils/clock"
)

// TypedInterface is what a controller's workers and event handlers share: a
// queue of work items (usually namespace/name keys) that is fair, stingy and
// safe for many producers and consumers.
//
//   - Add marks an item as needing processing.
//   - Get blocks until an item is ready or the queue has shut down, and hands
//     the item to exactly one caller; shutdown is true when the caller should
//     stop.
//   - Done tells the queue that the caller has finished with the item.
//   - ShutDown makes the queue ignore new items; Get keeps handing out what is
//     waiting, then reports shutdown. ShutDownWithDrain also waits until no
//     item handed out is still to be Done (items waiting in the queue are
//     not waited for).
type TypedInterface[T comparable] interface {
	Add(item T)
	Len() int
	Get() (item T, shutdown bool)
	Done(item T)
	ShutDown()
	ShutDownWithDrain()
	ShuttingDown() bool
}

// TypedQueueConfig holds the optional settings of a Typed queue.
type TypedQueueConfig[T comparable] struct {
	// Name names the queue's metrics. An unnamed queue reports none.
	Name string

	// MetricsProvider makes the queue's metrics; nil means the provider given
	// to SetProvider (by default, one that discards everything).
	MetricsProvider MetricsProvider

	// Clock is what the metrics measure time with; nil means the real clock.
	Clock clock.WithTicker

	// Queue is the storage that orders waiting items; nil means DefaultQueue,
	// a FIFO.
	Queue Queue[T]
}

// NewTyped returns a FIFO work queue with no metrics.
func NewTyped[T comparable]() *Typed[T] {
	return NewTypedWithConfig(TypedQueueConfig[T]{})
}

// NewTypedWithConfig returns a work queue with the given settings.
func NewTypedWithConfig[T comparable](config TypedQueueConfig[T]) *Typed[T] {
	return newQueueWithConfig(config, defaultUnfinishedWorkUpdatePeriod)
}

// defaultUnfinishedWorkUpdatePeriod is how often a queue with metrics reports
// how long its items in processing have been running.
const defaultUnfinishedWorkUpdatePeriod = 500 * time.Millisecond

// newQueueWithConfig fills in the defaults; the period is a parameter so tests
// can make the unfinished-work reports come faster.
func newQueueWithConfig[T comparable](config TypedQueueConfig[T], updatePeriod time.Duration) *Typed[T] {
	provider := config.MetricsProvider
	if provider == nil {
		provider = globalProvider()
	}
	if config.Clock == nil {
		config.Clock = clock.RealClock{}
	}
	if config.Queue == nil {
		config.Queue = DefaultQueue[T]()
	}
	return newQueue(config.Clock, config.Queue, newQueueMetrics[T](provider, config.Name, config.Clock), updatePeriod)
}

func newQueue[T comparable](c clock.WithTicker, storage Queue[T], metrics queueMetrics[T], updatePeriod time.Duration) *Typed[T] {
	q := &Typed[T]{
		queue:      storage,
		dirty:      sets.Set[T]{},
		processing: sets.Set[T]{},
		cond:       sync.NewCond(&sync.Mutex{}),
		metrics:    metrics,
		stopCh:     make(chan struct{}),
		items:      newItemCheck[T](),
	}
	// Only a queue whose metrics go somewhere needs the goroutine that
	// reports unfinished work. The ticker is made here rather than in the
	// goroutine, so it exists once the constructor returns: a test on a fake
	// clock can step it at once instead of waiting for the goroutine to start.
	if _, off := metrics.(noMetrics[T]); !off {
		ticker := c.NewTicker(updatePeriod)
		q.wg.Go(func() { q.updateUnfinishedWorkLoop(ticker) })
	}
	return q
}

// Typed is the work queue: a FIFO of items plus two sets that make it stingy.
//
//	Add ──▶ dirty ──▶ queue ──Get──▶ processing ──Done──▶ (gone)
//	          ▲                          │
//	          └── Add while processing ──┘  re-queued by Done
//
// The two sets:
//   - dirty holds every item that needs processing: the items waiting in
//     queue, and items added again while a worker holds them. An Add of an
//     item already dirty changes nothing, so a burst of events for one key
//     costs one reconcile.
//   - processing holds the items handed out by Get and not yet Done. An item
//     added while processing stays out of queue (only dirty), so no second
//     worker can Get it; Done puts it back in queue, and it is processed once
//     more, after the current run.
//
// Invariant: every item in queue is in dirty and not in processing.
//
// The price: an item added during its own processing waits for that
// processing to finish, however long it takes; and a worker that forgets Done
// blocks its item for ever (every later Add only marks it dirty).
type Typed[T comparable] struct {
	// queue orders the waiting items (the storage, FIFO by default).
	queue Queue[T]
	// dirty: every item that needs processing, waiting or not.
	dirty sets.Set[T]
	// processing: every item handed out by Get and not yet Done.
	processing sets.Set[T]

	// cond's lock guards everything above and below; Get, and
	// ShutDownWithDrain, wait on cond.
	cond *sync.Cond

	shuttingDown bool
	// drain is set by ShutDownWithDrain, and tells Done to wake the drains
	// when the processing set empties; ShutDown clears it to end their
	// wait.
	drain bool

	metrics queueMetrics[T]

	// wg tracks the unfinished-work goroutine; stopCh ends it.
	wg       sync.WaitGroup
	stopCh   chan struct{}
	stopOnce sync.Once

	items itemCheck[T]
}

var _ TypedInterface[string] = &Typed[string]{}

// Add marks item as needing processing. An item already waiting is not
// queued twice; an item being processed is queued again when its worker
// calls Done. After ShutDown, Add does nothing.
//
// An item that cannot be a map key is refused here, at the way in (see
// hashable.go): Get, Done and the rest then only ever see items Add let
// through.
//
//lab:08
func (q *Typed[T]) Add(item T) {
	if q.items.refused(item) {
		return
	}
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	if q.shuttingDown {
		return
	}
	if q.dirty.Has(item) {
		// Already recorded. If it is waiting in the storage, tell the storage
		// (a priority queue may move it); if it is being processed, Done
		// will queue it.
		if !q.processing.Has(item) {
			q.queue.Touch(item)
		}
		return
	}
	q.metrics.add(item)
	q.dirty.Insert(item)
	if q.processing.Has(item) {
		return // a worker holds it: Done re-queues it, so no one else can Get it meanwhile
	}
	q.queue.Push(item)
	q.cond.Signal()
}

// Len is the number of items waiting to be handed out by Get. It excludes
// items being processed, even those marked to be processed again. It is for
// information only: by the time the caller reads it, it may have changed.
func (q *Typed[T]) Len() int {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	return q.queue.Len()
}

// Get blocks until an item is waiting, then hands it to the caller, who
// must call Done with it. Once the queue is shutting down and nothing is
// waiting, Get returns the zero item and shutdown = true, and the caller
// should stop.
//
//lab:08
func (q *Typed[T]) Get() (item T, shutdown bool) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	for q.queue.Len() == 0 && !q.shuttingDown {
		q.cond.Wait()
	}
	if q.queue.Len() == 0 {
		return item, true // shutting down, and nothing left
	}
	item = q.queue.Pop()
	q.metrics.get(item)
	q.processing.Insert(item)
	q.dirty.Delete(item) // an Add from now on means "again, after this run"
	return item, false
}

// Done marks item as processed. If it was added again while being
// processed, it goes back in the queue now.
//
// Done of an item that is not being processed does nothing. (client-go's
// Done pushes such an item again if it is waiting, so it sits in the queue
// twice and two workers can Get it at once; see doc.go.)
//
//lab:08
func (q *Typed[T]) Done(item T) {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	if !q.processing.Has(item) {
		return // never handed out, or Done already
	}
	q.metrics.done(item)
	q.processing.Delete(item)
	if q.dirty.Has(item) {
		q.queue.Push(item)
		q.cond.Signal()
	}
	// Not "else": a re-queued item can be the last one in processing too.
	if q.processing.Len() == 0 && q.drain {
		// Nothing is in processing: wake every ShutDownWithDrain waiting
		// for this moment (client-go signals one; see doc.go).
		q.cond.Broadcast()
	}
}

// ShutDown makes the queue ignore new items. Workers keep getting what is
// already waiting; once nothing is left, Get returns shutdown = true. It does
// not wait for items in processing, and it ends a ShutDownWithDrain that is
// waiting for them.
func (q *Typed[T]) ShutDown() {
	q.stopOnce.Do(func() { close(q.stopCh) })
	q.cond.L.Lock()
	q.drain = false
	q.shuttingDown = true
	q.cond.Broadcast() // wake every idle Get, and any ShutDownWithDrain
	q.cond.L.Unlock()
	q.wg.Wait()
}

// ShutDownWithDrain is ShutDown that then waits until no item is in
// processing: the processing set only, as client-go's. An item that a Done
// during the wait puts back in the queue (it was added again while being
// processed) is not waited for: it may still be queued when
// ShutDownWithDrain returns, and workers get it from Get before Get
// reports shutdown. Workers must keep calling Get and Done until then, or
// it waits for ever; ShutDown, called meanwhile, ends the wait. Every
// ShutDownWithDrain waiting at once returns.
//
// Its check reads the processing set when it wakes: a worker that Gets a
// re-queued item first makes it wait for that item's Done too.
func (q *Typed[T]) ShutDownWithDrain() {
	q.stopOnce.Do(func() { close(q.stopCh) })
	q.cond.L.Lock()
	q.drain = true
	q.shuttingDown = true
	q.cond.Broadcast()
	for q.processing.Len() != 0 && q.drain {
		q.cond.Wait()
	}
	q.cond.L.Unlock()
	q.wg.Wait()
}

// ShuttingDown reports whether ShutDown or ShutDownWithDrain has been called.
func (q *Typed[T]) ShuttingDown() bool {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	return q.shuttingDown
}

// updateUnfinishedWorkLoop reports, every tick, how long the items in
// processing have been running, until the queue shuts down.
func (q *Typed[T]) updateUnfinishedWorkLoop(ticker clock.Ticker) {
	defer ticker.Stop()
	for {
		select {
		case <-ticker.C():
			q.updateUnfinishedWork()
		case <-q.stopCh:
			return
		}
	}
}

func (q *Typed[T]) updateUnfinishedWork() {
	q.cond.L.Lock()
	defer q.cond.L.Unlock()
	if !q.shuttingDown {
		q.metrics.updateUnfinishedWork()
	}
}
