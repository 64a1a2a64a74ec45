package controller_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/08-workqueue-controller/workqueue"
	"informer-from-scratch/proving-ground/clientgostack"
)

// A side is one informer stack under the same controller: ours (stages
// 01-08) or client-go's (its informers factory, dynamicinformer and
// util/workqueue). The reconcile logic is the same code on both; what
// differs is everything that feeds it keys and objects.
type side struct {
	name      string
	informers func(kube kubernetes.Interface, dyn dynamic.Interface, namespace string) controller.Informers
	// limiter is the side's default controller rate limiter, and queue its
	// rate-limited workqueue named controller.QueueName.
	limiter func() controller.RateLimiter
	queue   func(limiter controller.RateLimiter) controller.Queue
	// defaults is true when the side's limiter and queue are the
	// controller's own defaults: ours, which the tests then leave to
	// NewController, so that its defaults are what they test.
	defaults bool
}

var (
	ours = side{
		name:      "ours",
		informers: controller.NewInformers,
		limiter:   workqueue.DefaultTypedControllerRateLimiter[informer.ObjectName],
		queue: func(limiter controller.RateLimiter) controller.Queue {
			return workqueue.NewTypedRateLimitingQueueWithConfig(limiter,
				workqueue.TypedRateLimitingQueueConfig[informer.ObjectName]{Name: controller.QueueName})
		},
		defaults: true,
	}
	clientGo = side{
		name:      "client-go",
		informers: clientgostack.NewInformers,
		limiter:   clientgostack.RateLimiter,
		queue:     clientgostack.NewQueue(controller.QueueName),
	}
	sides = []side{clientGo, ours}
)

// options fills in the side's rate limiter and queue; wrap, if not nil,
// is put around the queue, so a test can watch it.
func (s side) options(opts *controller.Options, wrap func(controller.Queue) controller.Queue) {
	if s.defaults && wrap == nil {
		return
	}
	opts.RateLimiter = s.limiter()
	opts.NewQueue = func(limiter controller.RateLimiter) controller.Queue {
		q := s.queue(limiter)
		if wrap != nil {
			q = wrap(q)
		}
		return q
	}
}

// running is a controller started by start.
type running struct {
	cancel context.CancelFunc
	done   chan error
	caches *readOnly
}

// start builds a controller on s's stack and runs it with workers
// workers. stop ends it and checks that Run returned nil.
func start(t *testing.T, s side, kube kubernetes.Interface, dyn dynamic.Interface, namespace string, workers int, opts controller.Options, tr *trace) *running {
	t.Helper()
	return startWrapped(t, s, kube, dyn, namespace, workers, opts, nil, tr)
}

// startWrapped is start with wrap put around the side's queue.
func startWrapped(t *testing.T, s side, kube kubernetes.Interface, dyn dynamic.Interface, namespace string, workers int, opts controller.Options, wrap func(controller.Queue) controller.Queue, tr *trace) *running {
	t.Helper()
	s.options(&opts, wrap)
	ctx, cancel := context.WithCancel(context.Background())
	if tr != nil {
		// Watched from outside, as the demo watches it: the tracer's
		// seams, and its logger in Run's context.
		opts = tr.tracer.Options(opts)
		ctx = tr.tracer.Context(ctx)
	}
	caches := &readOnly{Informers: s.informers(kube, dyn, namespace), seen: map[runtime.Object]runtime.Object{}}
	c, err := controller.NewController(kube, dyn, caches, opts)
	if err != nil {
		cancel()
		t.Fatalf("%s: %v", s.name, err)
	}
	r := &running{cancel: cancel, done: make(chan error, 1), caches: caches}
	go func() { r.done <- c.Run(ctx, workers) }()
	return r
}

// stop cancels the controller and waits for Run to return; then it checks
// that the controller changed none of the objects the listers gave it.
func (r *running) stop(t *testing.T, who string) {
	t.Helper()
	r.cancel()
	select {
	case err := <-r.done:
		if err != nil {
			t.Errorf("%s: Run returned %v", who, err)
		}
	case <-time.After(time.Minute):
		t.Fatalf("%s: Run did not return within a minute of the cancel", who)
	}
	for _, diff := range r.caches.mutated() {
		t.Errorf("%s: the controller changed an object the lister gave it (-given +now):\n%s", who, diff)
	}
}

// readOnly is Informers that remembers a copy of every cached object the
// controller read, as handed out, so that stop can tell whether the
// controller changed one: a cached object is shared with every other reader
// of the informer, and never changes (an update replaces it). client-go's
// cache mutation detector (KUBE_CACHE_MUTATION_DETECTOR) does the same for
// its informers, but is switched on only by the environment at init, and
// knows nothing of ours.
type readOnly struct {
	controller.Informers
	mu   sync.Mutex
	seen map[runtime.Object]runtime.Object // the cached object → its copy
}

func (r *readOnly) FoosLister() controller.FooLister {
	foos := r.Informers.FoosLister()
	return controller.FooListerFunc(func(namespace, name string) (*unstructured.Unstructured, error) {
		foo, err := foos.Foos(namespace).Get(name)
		if err == nil {
			r.keep(foo, foo.DeepCopy())
		}
		return foo, err
	})
}

func (r *readOnly) DeploymentsLister() controller.DeploymentLister {
	deployments := r.Informers.DeploymentsLister()
	return controller.DeploymentListerFunc(func(namespace, name string) (*appsv1.Deployment, error) {
		d, err := deployments.Deployments(namespace).Get(name)
		if err == nil {
			r.keep(d, d.DeepCopy())
		}
		return d, err
	})
}

// keep remembers the first copy of obj.
func (r *readOnly) keep(obj, copied runtime.Object) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, seen := r.seen[obj]; !seen {
		r.seen[obj] = copied
	}
}

// mutated lists how each changed object differs from its copy.
func (r *readOnly) mutated() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var diffs []string
	for obj, copied := range r.seen {
		if diff := cmp.Diff(copied, obj); diff != "" {
			diffs = append(diffs, diff)
		}
	}
	return diffs
}

// trace records the controller's steps.
type trace struct {
	mu    sync.Mutex
	steps []stamped
	// start is the time offsets are counted from (fake time in a bubble).
	start time.Time
	// inFlight maps each key being reconciled to its worker, and
	// overlaps lists every time a worker started a key another worker
	// still held: what the queue's processing set forbids.
	inFlight map[string]int
	overlaps []string
	// most is the largest number of reconciles in flight at once.
	most int
	// tracer turns the controller's doings into the steps above.
	tracer *observe.Tracer
}

type stamped struct {
	at time.Duration
	observe.Step
}

func newTrace() *trace {
	tr := &trace{start: time.Now(), inFlight: map[string]int{}}
	tr.tracer = observe.New(tr.observe)
	return tr
}

// observe is the tracer's Observer.
func (tr *trace) observe(s observe.Step) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.steps = append(tr.steps, stamped{at: time.Since(tr.start), Step: s})
	if s.Layer != observe.LayerWorker {
		return
	}
	switch s.Op {
	case "sync":
		if w, busy := tr.inFlight[s.Key]; busy {
			tr.overlaps = append(tr.overlaps, fmt.Sprintf("%s: worker %d started it while worker %d held it", s.Key, s.Worker, w))
		}
		tr.inFlight[s.Key] = s.Worker
		tr.most = max(tr.most, len(tr.inFlight))
	case "synced", "failed":
		delete(tr.inFlight, s.Key)
	}
}

// snapshot returns the steps so far.
func (tr *trace) snapshot() []stamped {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]stamped(nil), tr.steps...)
}

// fakeRecorder returns an event recorder that keeps what it is given.
func fakeRecorder() *record.FakeRecorder { return record.NewFakeRecorder(1000) }

// drainEvents takes the events recorded so far.
func drainEvents(r *record.FakeRecorder) []string {
	var out []string
	for {
		select {
		case e := <-r.Events:
			out = append(out, e)
		default:
			return out
		}
	}
}

var errInjected = errors.New("injected")
