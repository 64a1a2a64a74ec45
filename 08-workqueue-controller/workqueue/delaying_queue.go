// Mirrors k8s.io/client-go v0.37.2 util/workqueue/delaying_queue.go:
// TypedDelayingInterface, TypedDelayingQueueConfig, NewTypedDelayingQueue,
// NewTypedDelayingQueueWithConfig, newDelayingQueue, delayingType and its
// ShutDown, AddAfter and waitingLoop, and maxWait.

package workqueue

import (
	"container/heap"
	"sync"
	"time"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
)

// TypedDelayingInterface is a work queue that can also add an item later:
// the way to retry without a hot loop.
type TypedDelayingInterface[T comparable] interface {
	TypedInterface[T]
	// AddAfter adds item once duration has passed; zero or less adds it now.
	AddAfter(item T, duration time.Duration)
}

// TypedDelayingQueueConfig holds the optional settings of a delaying queue.
type TypedDelayingQueueConfig[T comparable] struct {
	// Logger reports a panic in the waiting loop; nil means klog's
	// background logger. The queue's name is not added to it.
	Logger *klog.Logger

	// Name names the metrics; an unnamed queue reports none.
	Name string

	// MetricsProvider makes the metrics; nil means the global one.
	MetricsProvider MetricsProvider

	// Clock decides when delayed items are due; nil means the real clock.
	Clock clock.WithTicker

	// Queue is the work queue that due items are added to; nil means a new
	// Typed queue with this config's name, provider and clock.
	Queue TypedInterface[T]
}

// NewTypedDelayingQueue returns a delaying queue with no metrics.
func NewTypedDelayingQueue[T comparable]() TypedDelayingInterface[T] {
	return NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[T]{})
}

// NewTypedDelayingQueueWithConfig returns a delaying queue with the given
// settings. It starts the waiting loop; ShutDown or ShutDownWithDrain stops
// it.
func NewTypedDelayingQueueWithConfig[T comparable](config TypedDelayingQueueConfig[T]) TypedDelayingInterface[T] {
	logger := klog.Background()
	if config.Logger != nil {
		logger = *config.Logger
	}
	if config.Clock == nil {
		config.Clock = clock.RealClock{}
	}
	if config.Queue == nil {
		config.Queue = NewTypedWithConfig(TypedQueueConfig[T]{
			Name:            config.Name,
			MetricsProvider: config.MetricsProvider,
			Clock:           config.Clock,
		})
	}
	return newDelayingQueue(logger, config.Clock, config.Queue, config.Name, config.MetricsProvider)
}

func newDelayingQueue[T comparable](logger klog.Logger, c clock.WithTicker, q TypedInterface[T], name string, provider MetricsProvider) *delayingType[T] {
	ret := &delayingType[T]{
		TypedInterface:  q,
		clock:           c,
		heartbeat:       c.NewTicker(maxWait),
		stopCh:          make(chan struct{}),
		loopDone:        make(chan struct{}),
		waitingForAddCh: make(chan *waitFor[T], 1000),
		metrics:         newRetryMetrics(name, provider),
		items:           newItemCheck[T](),
	}
	go ret.waitingLoop(logger)
	return ret
}

// maxWait is the heartbeat: the waiting loop looks at its heap at least this
// often, even if no timer fires. Insurance, as client-go calls it: a due item
// never waits more than 10s longer than it should.
const maxWait = 10 * time.Second

// delayingType is a work queue plus one goroutine, the waiting loop, that
// owns a heap of items and their deadlines:
//
//	AddAfter ──waitingForAddCh──▶ waitingLoop ──Add when due──▶ queue
//	                                 │ ▲
//	                          heap by readyAt, timer for the first entry
//
// AddAfter never touches the heap: it sends the entry to the loop, so the
// heap needs no lock. The loop sleeps until the first deadline, a new entry,
// the 10s heartbeat or shutdown, then adds every due item, earliest first.
//
// The price: an item waiting in the heap is nowhere else, so ShutDown drops
// it; and the channel holds 1000 entries, after which AddAfter waits for the
// loop.
type delayingType[T comparable] struct {
	TypedInterface[T]

	clock clock.Clock

	// stopCh tells the loop to return; loopDone says it has.
	stopCh   chan struct{}
	stopOnce sync.Once
	loopDone chan struct{}

	// heartbeat wakes the loop every maxWait.
	heartbeat clock.Ticker

	// waitingForAddCh carries AddAfter's entries to the loop.
	waitingForAddCh chan *waitFor[T]

	metrics retryMetrics
	items   itemCheck[T]
}

// AddAfter adds item to the queue once duration has passed. Zero or less
// adds it at once. If the item is already waiting, the earlier deadline
// wins. Once the shutdown has begun (ShutDown, or ShutDownWithDrain, which
// makes the queue inside refuse items before it stops the waiting loop), it
// returns at once, whatever the delay: nothing is added and no retry is
// counted (TestNothingIsAddedOnceShutDownHasBegun). An AddAfter already
// past that check when the shutdown begins is dropped: its item never
// reaches the queue.
func (q *delayingType[T]) AddAfter(item T, duration time.Duration) {
	if q.items.refused(item) {
		return
	}
	if q.ShuttingDown() {
		return
	}
	q.metrics.retry()
	if duration <= 0 {
		q.Add(item)
		return
	}
	select {
	case <-q.stopCh: // shutting down: the loop is gone, the item with it
	case q.waitingForAddCh <- &waitFor[T]{data: item, readyAt: q.clock.Now().Add(duration)}:
	}
}

// ShutDown shuts the queue down and stops the waiting loop; items still
// waiting for their deadline are dropped. It returns once the loop has
// returned.
func (q *delayingType[T]) ShutDown() {
	// Every time, not once: a ShutDown must also end a ShutDownWithDrain
	// that is waiting.
	q.TypedInterface.ShutDown()
	q.stopWaitingLoop()
}

// ShutDownWithDrain shuts the queue inside down, so that it refuses new
// items from now on, stops the waiting loop (dropping items still waiting
// for their deadline, as ShutDown does), then waits until every item
// handed out has been Done.
func (q *delayingType[T]) ShutDownWithDrain() {
	// Refuse first: an AddAfter(item, 0) between the loop's stop and the
	// drain would otherwise still reach the queue inside
	// (TestAddAfterDuringADrainAddsNothing).
	q.TypedInterface.ShutDown()
	q.stopWaitingLoop()
	q.TypedInterface.ShutDownWithDrain()
}

func (q *delayingType[T]) stopWaitingLoop() {
	q.stopOnce.Do(func() {
		close(q.stopCh)
		q.heartbeat.Stop()
	})
	<-q.loopDone
}

// waitingLoop owns the heap: it moves due items to the queue and sleeps
// until the next deadline, until the queue shuts down.
func (q *delayingType[T]) waitingLoop(logger klog.Logger) {
	defer close(q.loopDone)
	defer utilruntime.HandleCrashWithLogger(logger)

	never := make(<-chan time.Time) // a receive that never proceeds: no deadline to wait for
	var nextReadyAtTimer clock.Timer
	defer func() {
		if nextReadyAtTimer != nil {
			nextReadyAtTimer.Stop()
		}
	}()
	waiting := &waitForPriorityQueue[T]{}
	waitingByItem := map[T]*waitFor[T]{}
	schedule := func(entry *waitFor[T]) {
		if entry.readyAt.After(q.clock.Now()) {
			insert(waiting, waitingByItem, entry)
		} else {
			q.Add(entry.data) // due while it travelled through the channel
		}
	}

	for {
		// The inner queue may have been shut down directly (it can be one
		// the caller passed in the config).
		if q.TypedInterface.ShuttingDown() {
			return
		}

		now := q.clock.Now()
		for waiting.Len() > 0 && !waiting.Peek().readyAt.After(now) {
			entry := heap.Pop(waiting).(*waitFor[T])
			delete(waitingByItem, entry.data)
			q.Add(entry.data)
		}

		nextReadyAt := never
		if waiting.Len() > 0 {
			if nextReadyAtTimer != nil {
				nextReadyAtTimer.Stop()
			}
			nextReadyAtTimer = q.clock.NewTimer(waiting.Peek().readyAt.Sub(now))
			nextReadyAt = nextReadyAtTimer.C()
		}

		select {
		case <-q.stopCh:
			return
		case <-q.heartbeat.C():
		case <-nextReadyAt:
		case entry := <-q.waitingForAddCh:
			schedule(entry)
			// Take every entry already sent before sleeping again, so a
			// burst of AddAfter costs one pass of the loop.
			for drained := false; !drained; {
				select {
				case entry := <-q.waitingForAddCh:
					schedule(entry)
				default:
					drained = true
				}
			}
		}
	}
}
