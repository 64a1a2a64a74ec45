package observe

import (
	"context"
	"sync/atomic"
	"time"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/workqueue"
)

// observedQueue reports the calls the controller makes on its workqueue.
// It makes no call of its own on the queue, and takes no lock of its own
// around one. The order of the rows is cause before effect: a call that
// puts a key in (Add, Done, which may re-queue it) is reported before it is
// made, and Get after it returns, so that a key's Get row always follows
// the row of the call that queued it.
//
// An Add's row therefore comes before the queue has decided what to do
// with the key. What the row says the queue will do is the tracer's
// prediction, from what it has seen, and the row says "(predicted)": that
// the queue drops the key (Run has begun its shutdown: the tracer saw the
// ShutDownWithDrain), or that it marks the key for after its Done (a
// worker's reconcile of it began and its Done has not come). A call racing
// with either can make the prediction wrong; the next Get row and the
// worker the next sync row names show what the queue did.
type observedQueue struct {
	controller.Queue
	t *Tracer
}

func (q *observedQueue) Add(key informer.ObjectName) {
	s := Step{Layer: LayerQueue, Op: "Add", Key: key.String(), Len: -1}
	switch {
	case q.t.shuttingDown.Load():
		s.Detail = "dropped: the queue is shutting down (predicted)"
	case q.t.workerFor(s.Key) != 0:
		s.Detail = "held by a worker: queued again at its Done (predicted)"
	}
	q.t.step(s)
	q.Queue.Add(key)
}

func (q *observedQueue) Get() (informer.ObjectName, bool) {
	key, shutdown := q.Queue.Get()
	if !shutdown {
		q.t.step(Step{Layer: LayerQueue, Op: "Get", Key: key.String(), Len: q.t.queueLen()})
	}
	return key, shutdown
}

func (q *observedQueue) Done(key informer.ObjectName) {
	k := key.String()
	q.t.step(Step{Layer: LayerQueue, Op: "Done", Key: k, Worker: q.t.done(k), Len: -1})
	q.Queue.Done(key)
}

// ShutDownWithDrain and ShutDown tell the tracer the shutdown has begun,
// for the predictions of the rows that follow.
func (q *observedQueue) ShutDownWithDrain() {
	q.t.shuttingDown.Store(true)
	q.Queue.ShutDownWithDrain()
}

func (q *observedQueue) ShutDown() {
	q.t.shuttingDown.Store(true)
	q.Queue.ShutDown()
}

// lenStorage is the storage of the queue the tracer builds (ours, when
// Options give no NewQueue): the FIFO, with its length kept in a counter
// the rows read, so that a row can say the queue's length without a call
// into the queue. The queue calls it under its own lock; the counter is
// atomic because the rows read it from elsewhere.
type lenStorage struct {
	workqueue.Queue[informer.ObjectName]
	n *atomic.Int64
}

func (s lenStorage) Push(item informer.ObjectName) {
	s.Queue.Push(item)
	s.n.Add(1)
}

func (s lenStorage) Pop() informer.ObjectName {
	s.n.Add(-1)
	return s.Queue.Pop()
}

// countedQueue is controller.DefaultQueue(provider) built on a lenStorage
// counting into n.
func countedQueue(provider workqueue.MetricsProvider, n *atomic.Int64) func(controller.RateLimiter) controller.Queue {
	return func(limiter controller.RateLimiter) controller.Queue {
		typed := workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[informer.ObjectName]{
			Name: controller.QueueName, MetricsProvider: provider,
			Queue: lenStorage{Queue: workqueue.DefaultQueue[informer.ObjectName](), n: n},
		})
		delaying := workqueue.NewTypedDelayingQueueWithConfig(workqueue.TypedDelayingQueueConfig[informer.ObjectName]{
			Name: controller.QueueName, MetricsProvider: provider, Queue: typed,
		})
		return workqueue.NewTypedRateLimitingQueueWithConfig(limiter, workqueue.TypedRateLimitingQueueConfig[informer.ObjectName]{
			DelayingQueue: delaying,
		})
	}
}

// observedLimiter reports each delay the rate limiter hands out, which
// AddRateLimited does not return. The requeue count on the row is the
// tracer's own: the When calls for the key since its last Forget, which is
// the limiter's NumRequeues for a per-key limiter such as the default one,
// counted without asking the limiter.
type observedLimiter struct {
	controller.RateLimiter
	t *Tracer
}

func (l *observedLimiter) When(key informer.ObjectName) time.Duration {
	delay := l.RateLimiter.When(key)
	k := key.String()
	s := Step{Layer: LayerQueue, Op: "AddRateLimited", Key: k, Worker: l.t.workerFor(k), Delay: delay,
		Requeues: l.t.requeued(k), Len: -1}
	if l.t.shuttingDown.Load() {
		// AddAfter will drop it (the workqueue's doc.go).
		s.Detail = "dropped: the queue is shutting down (predicted)"
	}
	l.t.step(s)
	return delay
}

func (l *observedLimiter) Forget(key informer.ObjectName) {
	l.t.forgot(key.String())
	l.RateLimiter.Forget(key)
}

// sync reports a worker's reconcile: whose it is (the worker's number comes
// with its context's logger), and how it ended.
func (t *Tracer) sync(next controller.SyncFunc) controller.SyncFunc {
	return func(ctx context.Context, ref informer.ObjectName) error {
		key, worker := ref.String(), workerOf(ctx)
		t.took(key, worker)
		t.step(Step{Layer: LayerWorker, Op: "sync", Key: key, Worker: worker, Len: -1})
		err := next(ctx, ref)
		t.returned(key, worker)
		if err != nil {
			t.step(Step{Layer: LayerWorker, Op: "failed", Key: key, Worker: worker, Err: err, Len: -1})
			return err
		}
		t.step(Step{Layer: LayerWorker, Op: "synced", Key: key, Worker: worker, Detail: "Forget", Len: -1})
		return nil
	}
}
