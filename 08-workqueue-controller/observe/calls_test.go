package observe

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/workqueue"
	"informer-from-scratch/internal/crd"
)

// calls records the calls made on a part of the controller.
type calls struct {
	mu  sync.Mutex
	log []string
}

func (c *calls) add(call string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.log = append(c.log, call)
}

func (c *calls) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	log := c.log
	c.log = nil
	return log
}

// recordedQueue is a workqueue that records every call made on it.
type recordedQueue struct {
	controller.Queue
	c *calls
}

func (q recordedQueue) Add(k informer.ObjectName)  { q.c.add("Add " + k.String()); q.Queue.Add(k) }
func (q recordedQueue) Done(k informer.ObjectName) { q.c.add("Done " + k.String()); q.Queue.Done(k) }
func (q recordedQueue) Forget(k informer.ObjectName) {
	q.c.add("Forget " + k.String())
	q.Queue.Forget(k)
}
func (q recordedQueue) AddRateLimited(k informer.ObjectName) {
	q.c.add("AddRateLimited " + k.String())
	q.Queue.AddRateLimited(k)
}
func (q recordedQueue) Get() (informer.ObjectName, bool) { q.c.add("Get"); return q.Queue.Get() }
func (q recordedQueue) Len() int                         { q.c.add("Len"); return q.Queue.Len() }
func (q recordedQueue) ShuttingDown() bool               { q.c.add("ShuttingDown"); return q.Queue.ShuttingDown() }
func (q recordedQueue) ShutDownWithDrain()               { q.c.add("ShutDownWithDrain"); q.Queue.ShutDownWithDrain() }
func (q recordedQueue) ShutDown()                        { q.c.add("ShutDown"); q.Queue.ShutDown() }
func (q recordedQueue) NumRequeues(k informer.ObjectName) int {
	q.c.add("NumRequeues " + k.String())
	return q.Queue.NumRequeues(k)
}

// recordedLimiter is a rate limiter that records every call made on it.
type recordedLimiter struct {
	controller.RateLimiter
	c *calls
}

func (l recordedLimiter) When(k informer.ObjectName) time.Duration {
	l.c.add("When " + k.String())
	return l.RateLimiter.When(k)
}
func (l recordedLimiter) Forget(k informer.ObjectName) {
	l.c.add("Forget " + k.String())
	l.RateLimiter.Forget(k)
}
func (l recordedLimiter) NumRequeues(k informer.ObjectName) int {
	l.c.add("NumRequeues " + k.String())
	return l.RateLimiter.NumRequeues(k)
}

// recordedInformers has a Foo lister that records every read, and no Foo
// but ns/a; it only registers the handlers it is given.
type recordedInformers struct {
	controller.Informers // nil: the test calls no other method
	c                    *calls
	foos, deployments    informer.ResourceEventHandler
}

func (in *recordedInformers) AddEventHandlers(foos, deployments informer.ResourceEventHandler) error {
	in.foos, in.deployments = foos, deployments
	return nil
}

func (in *recordedInformers) FoosLister() controller.FooLister {
	return controller.FooListerFunc(func(namespace, name string) (*unstructured.Unstructured, error) {
		in.c.add("Get Foo " + namespace + "/" + name)
		if namespace+"/"+name == "ns/a" {
			return crd.NewFoo("ns", "a", "a-web", 1, nil), nil
		}
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "foos"}, name)
	})
}

// TestWatchingMakesNoCallOfItsOwn: what a watched controller calls on its
// queue, its rate limiter and its caches is what it would call unwatched,
// one call each, nothing more: the rows say what passed, and predict the
// rest (the queue's length comes from the storage the Tracer builds, and
// here there is none).
func TestWatchingMakesNoCallOfItsOwn(t *testing.T) {
	var rows []string
	var mu sync.Mutex
	tr := New(func(s Step) {
		mu.Lock()
		defer mu.Unlock()
		row := s.Layer + " " + s.Op + " " + s.Key
		if s.Detail != "" {
			row += ": " + s.Detail
		}
		if s.Op == "AddRateLimited" {
			row += ": requeue " + strconv.Itoa(s.Requeues)
		}
		rows = append(rows, row)
	})
	took := func() []string {
		mu.Lock()
		defer mu.Unlock()
		r := rows
		rows = nil
		return r
	}
	queueCalls, limiterCalls, cacheCalls := &calls{}, &calls{}, &calls{}
	opts := tr.Options(controller.Options{
		RateLimiter: recordedLimiter{workqueue.DefaultTypedControllerRateLimiter[informer.ObjectName](), limiterCalls},
		NewQueue: func(l controller.RateLimiter) controller.Queue {
			return recordedQueue{workqueue.NewTypedRateLimitingQueue(l), queueCalls}
		},
	})
	q := opts.NewQueue(opts.RateLimiter)
	a := informer.ObjectName{Namespace: "ns", Name: "a"}
	worker1 := klog.NewContext(context.Background(), klog.LoggerWithValues(klog.FromContext(tr.Context(context.Background())), "worker", 1))

	q.Add(a)
	key, _ := q.Get()
	sync := opts.Seams.Sync(func(context.Context, informer.ObjectName) error {
		q.Add(a) // changed while worker 1 holds it
		return errors.New("failed")
	})
	if err := sync(worker1, key); err != nil {
		q.AddRateLimited(key)
	}
	q.Done(key)
	key, _ = q.Get()
	q.Forget(key)
	q.Done(key)
	q.AddRateLimited(a) // a retry after a Forget counts from one again
	q.ShutDown()
	q.Add(a)

	wantQueue := []string{"Add ns/a", "Get", "Add ns/a", "AddRateLimited ns/a", "Done ns/a", "Get", "Forget ns/a", "Done ns/a", "AddRateLimited ns/a", "ShutDown", "Add ns/a"}
	if diff := cmp.Diff(wantQueue, queueCalls.take()); diff != "" {
		t.Errorf("calls on the queue (-the controller's +what reached the queue):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"When ns/a", "Forget ns/a", "When ns/a"}, limiterCalls.take()); diff != "" {
		t.Errorf("calls on the rate limiter (-the queue's +what reached the limiter):\n%s", diff)
	}
	wantRows := []string{
		"workqueue Add ns/a",
		"workqueue Get ns/a",
		"worker sync ns/a",
		"workqueue Add ns/a: held by a worker: queued again at its Done (predicted)",
		"worker failed ns/a",
		"workqueue AddRateLimited ns/a: requeue 1",
		"workqueue Done ns/a",
		"workqueue Get ns/a",
		"workqueue Done ns/a",
		"workqueue AddRateLimited ns/a: requeue 1",
		"workqueue Add ns/a: dropped: the queue is shutting down (predicted)",
	}
	if diff := cmp.Diff(wantRows, took()); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}

	// A Deployment handler's row waits for the handler's own read of its
	// Foo: the Tracer reads no cache of its own.
	in := &recordedInformers{c: cacheCalls}
	watched := opts.Seams.Informers(in)
	foos := watched.FoosLister()
	handleObject := func(obj any) {
		d := obj.(*appsv1.Deployment)
		ref := metav1.GetControllerOf(d)
		if _, err := foos.Foos(d.Namespace).Get(ref.Name); err == nil {
			q.Add(informer.ObjectName{Namespace: d.Namespace, Name: ref.Name})
		}
	}
	if err := watched.AddEventHandlers(informer.ResourceEventHandlerFuncs{}, informer.ResourceEventHandlerFuncs{AddFunc: handleObject}); err != nil {
		t.Fatal(err)
	}
	for _, owner := range []string{"a", "gone"} {
		d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: owner + "-web", ResourceVersion: "7"}}
		foo := crd.NewFoo("ns", owner, owner+"-web", 1, nil)
		foo.SetUID(types.UID("uid-" + owner))
		d.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(foo, crd.Foo.GVK())}
		in.deployments.OnAdd(d, false)
	}
	if diff := cmp.Diff([]string{"Get Foo ns/a", "Get Foo ns/gone"}, cacheCalls.take()); diff != "" {
		t.Errorf("reads of the Foo cache (-the handler's +what reached the cache):\n%s", diff)
	}
	got := took()
	want := []string{
		"handler OnAdd ns/a: rv=7, controlled by Foo a",
		"workqueue Add ns/a: dropped: the queue is shutting down (predicted)",
		"handler OnAdd ns/gone: orphan: its Foo is not in the cache, ignored",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestRowsReadTheLengthTheStorageCounted: the queue the Tracer builds (ours,
// when Options give no NewQueue) counts its waiting keys in its storage, and
// a Get row says how many are left without asking the queue.
func TestRowsReadTheLengthTheStorageCounted(t *testing.T) {
	var lens []int
	tr := New(func(s Step) {
		if s.Op == "Get" {
			lens = append(lens, s.Len)
		}
	})
	opts := tr.Options(controller.Options{})
	q := opts.NewQueue(controller.DefaultRateLimiter())
	defer q.ShutDown()
	for _, name := range []string{"a", "b", "c", "a"} {
		q.Add(informer.ObjectName{Namespace: "ns", Name: name})
	}
	for range 3 {
		key, _ := q.Get()
		q.Done(key)
	}
	if diff := cmp.Diff([]int{2, 1, 0}, lens); diff != "" {
		t.Errorf("the length on the Get rows (-want +got):\n%s", diff)
	}
}
