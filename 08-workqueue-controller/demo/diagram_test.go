package main

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"

	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/seqdiagram"
	"informer-from-scratch/internal/timeline"
)

// TestSequenceDiagram draws chapter 08b's sequence diagram: one Foo created,
// its key's whole path (handler, workqueue, worker, listers, a write), the
// first Deployment create failing with a 500, the rate-limited retry 5ms
// later, and the reconcile that succeeds and forgets the key. The
// controller is the real one with the demo's trace (the rows `make
// run-stage 8` prints), on client-go's fake clientsets; one worker.
//
// How it is deterministic: the run is in a testing/synctest bubble, where
// the fake clients and the informers block only on channels, and the
// delaying queue's 5ms is fake time, so the first attempt and the retry are
// two instants. Within an instant the rows come from three goroutines (the
// test's, the Foo informer's handler, the worker), each in a fixed order,
// and the diagram orders an instant's rows by lane (Spec.SameInstantByLane):
// the demo's create, then the handler, then the worker, which is also the
// order in which each waits for the one before. What the other goroutines
// do meanwhile is left out, because when it happens is up to the
// scheduler: the Deployment informer's and the Foo informer's handlers
// after the writes (their keys go back into the queue), and everything
// after the successful reconcile's Done. So are the queue's len and dirty
// columns, which those handlers change.
func TestSequenceDiagram(t *testing.T) {
	// utilruntime's default handlers include a backoff between errors
	// measured from the real clock, which in the bubble's fake time reads
	// decades; the timeline shows each error on its own row.
	saved := utilruntime.ErrorHandlers
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{}
	t.Cleanup(func() { utilruntime.ErrorHandlers = saved })
	var diagram string
	synctest.Test(t, func(t *testing.T) {
		tl := timeline.New(io.Discard)
		rec := seqdiagram.Record(tl)
		m := &memMetrics{}
		tr := &trace{tl: tl, dirty: m.depth.n.Load}

		kube := kubefake.NewClientset()
		dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
			map[schema.GroupVersionResource]string{crd.Foo.GVR(): "FooList"})
		var mu sync.Mutex
		failures := 1
		kube.PrependReactor("create", "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
			mu.Lock()
			defer mu.Unlock()
			if failures == 0 {
				return false, nil, nil
			}
			failures--
			return true, nil, apierrors.NewInternalError(errors.New("injected by the diagram's scenario"))
		})
		// Fake clients have no transport for the tracer to watch their
		// writes on: these reactors, first in line, print the rows its
		// transport prints on the playground (one worker: worker 1).
		reportWrites(tr, &kube.Fake, "deployments")
		reportWrites(tr, &dyn.Fake, "foos")

		const ns = playgroundNamespace
		tracer := observe.New(tr.observe)
		ctrl, err := controller.NewController(kube, dyn, controller.NewInformers(kube, dyn, ns), tracer.Options(controller.Options{
			MetricsProvider: m,
			Recorder:        record.NewFakeRecorder(100),
		}))
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(tracer.Context(context.Background()))
		done := make(chan error, 1)
		go func() { done <- ctrl.Run(ctx, 1) }()
		// WaitForCacheSync polls every 100ms of fake time: wait for the
		// workers, not merely for a quiet bubble.
		for !tr.seen(0, []match{func(st observe.Step) bool {
			return st.Layer == observe.LayerController && st.Op == "Workers"
		}}) {
			time.Sleep(time.Millisecond)
		}
		synctest.Wait() // the worker waiting for a key
		rec.Rows()      // stop: the diagram starts at the Foo's create
		rec = seqdiagram.Record(tl)

		foo := crd.NewFoo(ns, "example", "example-web", 1, nil)
		if _, err := dyn.Resource(crd.Foo.GVR()).Namespace(ns).Create(ctx, foo, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		tl.Event("demo", "CREATE", "Foo "+ns+"/example", "spec.replicas=1")
		synctest.Wait()
		time.Sleep(time.Second) // the retry, and whatever follows it
		synctest.Wait()
		cancel()
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		rows := rec.Rows()
		if diagram, err = reconcileSpec().Render(rows); err != nil {
			t.Fatal(err)
		}
	})
	seqdiagram.CheckChapter(t, "08-workqueue-controller/demo", "08b-controller", "one-key-and-a-retry", diagram)
}

// reconcileSpec draws the demo's rows for one key: the first Foo event, the
// first Add, and every worker row up to the Done after the first success.
func reconcileSpec() seqdiagram.Spec {
	var sawAdd, sawHandler, succeeded, ended bool
	return seqdiagram.Spec{
		Participants: []seqdiagram.Participant{
			{ID: "U", Label: "kubectl (the demo)"},
			{ID: "S", Label: "apiserver"},
			{ID: "H", Label: "Foo informer's handler"},
			{ID: "Q", Label: "workqueue"},
			{ID: "W", Label: "worker"},
			{ID: "L", Label: "listers (the caches)"},
		},
		SameInstantByLane: true,
		Arrows: func(row timeline.Row) []seqdiagram.Arrow {
			if row.Kind != timeline.KindEvent || ended {
				return nil
			}
			worker := strings.HasPrefix(row.Detail, "worker ")
			switch {
			case row.Layer == "demo" && row.What == "CREATE":
				return []seqdiagram.Arrow{{From: "U", To: "S", Text: "create " + row.Object}}
			case row.Layer == observe.LayerHandler && row.What == "OnAdd" && strings.HasPrefix(row.Object, "Foo ") && !sawHandler:
				sawHandler = true
				return []seqdiagram.Arrow{{From: "S", To: "H", Lane: "H", Reply: true, Text: "watch: ADDED " + row.Object + " (through the informer, cache first)"}}
			case row.Layer == observe.LayerQueue && row.What == "Add" && !worker && !sawAdd:
				sawAdd = true
				return []seqdiagram.Arrow{{From: "H", To: "Q", Text: "Add(" + row.Object + "): the key, not the object"}}
			case !worker && row.Layer != observe.LayerQueue:
				return nil // other goroutines' rows: see the test's comment
			case row.Layer == observe.LayerQueue && row.What == "Get":
				return []seqdiagram.Arrow{{From: "Q", To: "W", Lane: "W", Reply: true, Text: "Get: " + row.Object + " (now in processing)"}}
			case row.Layer == observe.LayerWorker && row.What == "sync":
				return []seqdiagram.Arrow{{Note: true, From: "W", Text: "syncHandler(" + row.Object + ")"}}
			case row.Layer == observe.LayerLister:
				answer := "found"
				if strings.Contains(row.Detail, "not found") {
					answer = "not found"
				}
				return []seqdiagram.Arrow{{From: "W", To: "L", Text: "Get " + row.Object}, {From: "L", To: "W", Lane: "W", Reply: true, Text: answer}}
			case row.Layer == observe.LayerWrite && row.What == "EVENT":
				_, reason, _ := strings.Cut(row.Detail, "; ")
				return []seqdiagram.Arrow{{Note: true, From: "W", Text: "Event " + reason + " on the Foo (the event recorder)"}}
			case row.Layer == observe.LayerWrite && strings.HasPrefix(row.What, "← "): // an answer
				answer := "ok"
				if i := strings.Index(row.Protocol, "error: "); i >= 0 {
					answer = strings.TrimPrefix(row.Protocol[i:], "error: ")
				}
				return []seqdiagram.Arrow{{From: "S", To: "W", Lane: "W", Reply: true, Text: answer}}
			case row.Layer == observe.LayerWrite:
				return []seqdiagram.Arrow{{From: "W", To: "S", Text: row.What + " " + row.Object}}
			case row.Layer == observe.LayerQueue && row.What == "AddRateLimited":
				return []seqdiagram.Arrow{{From: "W", To: "Q", Text: "AddRateLimited: " + row.Explanation.EN}}
			case row.Layer == observe.LayerWorker && row.What == "failed":
				return []seqdiagram.Arrow{{Note: true, From: "W", Text: "reconcile failed: retry later"}}
			case row.Layer == observe.LayerWorker && row.What == "synced":
				succeeded = true
				return []seqdiagram.Arrow{{From: "W", To: "Q", Text: "Forget: reset its backoff"}}
			case row.Layer == observe.LayerQueue && row.What == "Done":
				ended = succeeded
				return []seqdiagram.Arrow{{From: "W", To: "Q", Text: "Done"}}
			}
			return nil
		},
	}
}

// reportWrites puts a reactor before fake's others that prints each create
// or update of resource as the tracer's transport does: a row when it is
// sent, then its answer, which it asks the rest of the chain for (the
// diagram's injected failure, or the tracker at its end).
func reportWrites(tr *trace, fake *clienttesting.Fake, resource string) {
	chain := fake.ReactionChain
	fake.PrependReactor("*", resource, func(action clienttesting.Action) (bool, runtime.Object, error) {
		verb := map[string]string{"create": "CREATE", "update": "UPDATE"}[action.GetVerb()]
		if verb == "" || (resource == "foos" && action.GetSubresource() != "status") {
			return false, nil, nil // not the controller's: the scenario's own writes
		}
		obj := action.(interface{ GetObject() runtime.Object }).GetObject()
		m, _ := meta.Accessor(obj)
		what := map[string]string{"deployments": "Deployment ", "foos": "Foo "}[resource] + m.GetNamespace() + "/" + m.GetName()
		if action.GetSubresource() == "status" {
			what += " status"
		}
		tr.observe(observe.Step{Layer: observe.LayerWrite, Op: verb, Object: what, Worker: 1, Len: -1, Sent: true})
		var ret runtime.Object
		var err error
		for _, r := range chain {
			if !r.Handles(action) {
				continue
			}
			var handled bool
			if handled, ret, err = r.React(action); handled {
				break
			}
		}
		answer := observe.Step{Layer: observe.LayerWrite, Op: verb, Object: what, Worker: 1, Err: err, Len: -1}
		if a, aerr := meta.Accessor(ret); err == nil && aerr == nil {
			answer.Detail = "→ rv=" + a.GetResourceVersion()
		}
		tr.observe(answer)
		return true, ret, err
	})
}
