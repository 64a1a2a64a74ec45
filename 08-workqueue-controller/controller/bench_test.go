package controller_test

import (
	"context"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/demo"
)

// doneQueue tells of every Done.
type doneQueue struct {
	controller.Queue
	done chan informer.ObjectName
}

func (q doneQueue) Done(key informer.ObjectName) {
	q.Queue.Done(key)
	q.done <- key
}

// BenchmarkReconcileNoOp is the controller's own hot path, on each stack:
// a key put on the queue as a handler does, taken by a worker, its Foo and
// Deployment read from the listers, found in order (no write), forgotten
// and done. The Foo and its Deployment are already as they should be, so
// nothing but the path is measured; the clients are fakes that are never
// called in the loop.
func BenchmarkReconcileNoOp(b *testing.B) {
	for _, s := range sides {
		b.Run(s.name, func(b *testing.B) {
			foo := crd.NewFoo(fakeNS, "a", "a-web", 1, nil)
			unstructured.SetNestedField(foo.Object, int64(1), "status", "availableReplicas")
			w := newFakeWorld(foo)
			d := demo.Deployment(fakeNS, "a-web", nil)
			d.OwnerReferences = []metav1.OwnerReference{{APIVersion: crd.Foo.GVK().GroupVersion().String(), Kind: "Foo", Name: "a", UID: "uid-1", Controller: ptr.To(true)}}
			d.Status = appsv1.DeploymentStatus{AvailableReplicas: 1}
			create(b, w, d)

			done := make(chan informer.ObjectName, 16)
			opts := controller.Options{Recorder: fakeRecorder()}
			s.options(&opts, func(q controller.Queue) controller.Queue { return doneQueue{Queue: q, done: done} })
			c, err := controller.NewController(w.kube, w.dyn, s.informers(w.kube, w.dyn, fakeNS), opts)
			if err != nil {
				b.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			ran := make(chan error, 1)
			go func() { ran <- c.Run(ctx, 2) }()
			<-done // the initial list's reconcile
			key := informer.ObjectName{Namespace: fakeNS, Name: "a"}
			before := len(w.kube.Actions()) + len(w.dyn.Actions())

			b.ReportAllocs()
			for b.Loop() {
				c.Enqueue(key)
				<-done
			}

			b.StopTimer()
			if after := len(w.kube.Actions()) + len(w.dyn.Actions()); after != before {
				b.Errorf("the no-op reconcile sent %d requests", after-before)
			}
			cancel()
			if err := <-ran; err != nil {
				b.Fatal(err)
			}
		})
	}
}
