package observe

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"

	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"informer-from-scratch/08-workqueue-controller/controller"
)

// Tracer turns what a Controller does into Steps for its Observer. Give
// the controller its seams (Options, Config) and run it with Context; one
// Tracer watches one Controller.
type Tracer struct {
	observe Observer

	// shuttingDown is set when the controller calls its queue's
	// ShutDownWithDrain or ShutDown: from then on the queue drops every
	// key, and the rows predict it.
	shuttingDown atomic.Bool
	// length is the length of the queue the tracer built (lenStorage);
	// nil when Options gave a NewQueue of their own.
	length *atomic.Int64

	mu sync.Mutex
	// holding lists the workers reconciling each key, from the start of a
	// reconcile to its Done: the lister reads, writes and Events of a
	// reconcile are that worker's. One worker, unless the queue lets two
	// hold a key (the demo's --break=dirty-set).
	holding map[string][]int
	// ended lists, per key, the workers whose reconcile has returned and
	// whose Done has not come yet, in the order they returned: each Done
	// is the first one's (processNextWorkItem calls it right after).
	ended map[string][]int
	// deploymentOf maps a Foo's Deployment ("ns/name") to the Foo's key,
	// learned from the Foo reads, so that a Deployment read or write is
	// known to be the reconcile of its Foo.
	deploymentOf map[string]string
	// workers is how many workers Run said it starts.
	workers int
	// requeues counts, per key, the delays the rate limiter handed out
	// since the key's last Forget.
	requeues map[string]int
	// pending holds, per Foo key, the row of a Deployment handler's call
	// until the handler's read of that Foo says whether it is an orphan
	// (see deploymentCall).
	pending map[string]*Step
}

// New returns a Tracer that hands every Step to observe.
func New(observe Observer) *Tracer {
	return &Tracer{observe: observe, holding: map[string][]int{}, ended: map[string][]int{},
		deploymentOf: map[string]string{}, requeues: map[string]int{}, pending: map[string]*Step{}}
}

// Options returns opts with the Tracer's seams: the queue (opts.NewQueue's,
// or ours on a storage that counts its length), the rate limiter, the
// informers, the reconcile and the recorder, each wrapped. Seams already
// in opts stay, inside the Tracer's.
func (t *Tracer) Options(opts controller.Options) controller.Options {
	limiter := opts.RateLimiter
	if limiter == nil {
		limiter = controller.DefaultRateLimiter()
	}
	opts.RateLimiter = &observedLimiter{RateLimiter: limiter, t: t}
	newQueue := opts.NewQueue
	if newQueue == nil {
		t.length = new(atomic.Int64)
		newQueue = countedQueue(opts.MetricsProvider, t.length)
	}
	opts.NewQueue = func(l controller.RateLimiter) controller.Queue {
		return &observedQueue{Queue: newQueue(l), t: t}
	}
	d := opts.Seams
	opts.Seams.Informers = func(in controller.Informers) controller.Informers {
		if d.Informers != nil {
			in = d.Informers(in)
		}
		return &observedInformers{Informers: in, t: t}
	}
	opts.Seams.Recorder = func(r eventRecorder) eventRecorder {
		if d.Recorder != nil {
			r = d.Recorder(r)
		}
		return observedRecorder{eventRecorder: r, t: t}
	}
	opts.Seams.Sync = func(next controller.SyncFunc) controller.SyncFunc {
		if d.Sync != nil {
			next = d.Sync(next)
		}
		return t.sync(next)
	}
	return opts
}

// Context returns ctx with the Tracer's logger, for Run: Run's lines become
// the controller's Steps, and each worker's logger carries its number.
func (t *Tracer) Context(ctx context.Context) context.Context {
	return klog.NewContext(ctx, klog.New(&sink{t: t}))
}

// Config returns a copy of cfg whose transport reports every write the
// controller makes: a row when the request is sent, a row when its answer
// comes. Give it to controller.NewForConfig.
func (t *Tracer) Config(cfg *rest.Config) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	cfg.Wrap(t.transport)
	return cfg
}

func (t *Tracer) step(s Step) {
	if s.Len == 0 && s.Layer != LayerQueue && s.Layer != LayerController {
		s.Len = -1
	}
	t.observe(s)
}

// workerFor is the worker holding key (the latest to take it), 0 for none.
func (t *Tracer) workerFor(key string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	if h := t.holding[key]; len(h) > 0 {
		return h[len(h)-1]
	}
	return 0
}

// took records worker taking key; returned, its reconcile returning; done,
// the Done that follows, whose worker it returns.
func (t *Tracer) took(key string, worker int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.holding[key] = append(t.holding[key], worker)
}

func (t *Tracer) returned(key string, worker int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ended[key] = append(t.ended[key], worker)
}

func (t *Tracer) done(key string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	ended := t.ended[key]
	if len(ended) == 0 {
		return 0 // a Done without a reconcile: one skipped at shutdown
	}
	worker := ended[0]
	t.ended[key] = ended[1:]
	if i := slices.Index(t.holding[key], worker); i >= 0 {
		t.holding[key] = slices.Delete(t.holding[key], i, i+1)
	}
	if len(t.holding[key]) == 0 {
		delete(t.holding, key)
	}
	if len(t.ended[key]) == 0 {
		delete(t.ended, key)
	}
	return worker
}

// queueLen is the length of the queue the tracer built, as its storage
// last counted it; -1 for a queue of Options.NewQueue's, or none yet.
func (t *Tracer) queueLen() int {
	if t.length == nil {
		return -1
	}
	return int(t.length.Load())
}

// requeued counts one more delay for key, and returns the count.
func (t *Tracer) requeued(key string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.requeues[key]++
	return t.requeues[key]
}

// forgot resets key's count.
func (t *Tracer) forgot(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.requeues, key)
}
