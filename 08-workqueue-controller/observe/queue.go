package observe

import (
	"context"
	"time"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
)

// observedQueue reports the calls the controller makes on its workqueue,
// in an order that is always cause before effect and takes no lock of its
// own (a lock around the queue would change the concurrency it shows): a
// call that puts a key in (Add, Done, which may re-queue it) is reported
// before it is made, and Get after it returns, so a key's Get row always
// follows the row of the call that queued it. What the queue decided
// (queued, already queued, held by a worker) shows in the length on the
// next Get, and in which worker the next sync row names.
type observedQueue struct {
	controller.Queue
	t *Tracer
}

func (q *observedQueue) Add(key informer.ObjectName) {
	s := Step{Layer: LayerQueue, Op: "Add", Key: key.String(), Len: -1}
	switch {
	case q.Queue.ShuttingDown():
		s.Detail = "dropped: the queue is shutting down"
	default:
		if w := q.t.workerFor(s.Key); w != 0 {
			s.Detail = "held by a worker: queued again at its Done"
		}
	}
	q.t.step(s)
	q.Queue.Add(key)
}

func (q *observedQueue) Get() (informer.ObjectName, bool) {
	key, shutdown := q.Queue.Get()
	if !shutdown {
		q.t.step(Step{Layer: LayerQueue, Op: "Get", Key: key.String(), Len: q.Queue.Len()})
	}
	return key, shutdown
}

func (q *observedQueue) Done(key informer.ObjectName) {
	k := key.String()
	q.t.step(Step{Layer: LayerQueue, Op: "Done", Key: k, Worker: q.t.done(k), Len: -1})
	q.Queue.Done(key)
}

// observedLimiter reports each delay the rate limiter hands out, which
// AddRateLimited does not return.
type observedLimiter struct {
	controller.RateLimiter
	t *Tracer
}

func (l *observedLimiter) When(key informer.ObjectName) time.Duration {
	delay := l.RateLimiter.When(key)
	k := key.String()
	l.t.step(Step{Layer: LayerQueue, Op: "AddRateLimited", Key: k, Worker: l.t.workerFor(k), Delay: delay,
		Requeues: l.RateLimiter.NumRequeues(key), Len: -1})
	return delay
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
