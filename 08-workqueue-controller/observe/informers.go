package observe

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
)

// observedInformers reports the handlers' calls and the listers' reads.
type observedInformers struct {
	controller.Informers
	t *Tracer
}

// AddEventHandlers registers the controller's handlers, each wrapped to
// report its call before making it.
func (in *observedInformers) AddEventHandlers(foos, deployments informer.ResourceEventHandler) error {
	return in.Informers.AddEventHandlers(
		observedHandler{inner: foos, report: in.fooCall},
		observedHandler{inner: deployments, report: in.deploymentCall},
	)
}

// fooCall is a Foo handler's row: the Foo's key, about to be queued; a
// deleted Foo is nothing to this controller.
func (in *observedInformers) fooCall(op string, obj any) (done func()) {
	key, rv := keyOf(obj)
	s := Step{Layer: LayerHandler, Op: op, Key: key, Object: "Foo " + key, Detail: "rv=" + rv}
	if op == "OnDelete" || op == "OnDelete (tombstone)" {
		s.Object, s.Detail = "", "Foo gone: nothing to enqueue (the garbage collector deletes its Deployment)"
	}
	in.t.step(s)
	return func() {}
}

// deploymentCall is a Deployment handler's row: the Foo that controls it,
// whose key the handler queues, or why nothing is queued. Whether that Foo
// is in the cache (an orphan's is not, and nothing is queued) the handler
// finds out itself, from the Foo lister: the row waits for that read
// (pending) and is made when the read returns, so it says what the read
// found and still comes before the Add the handler makes next. A handler
// that returns without reading makes its row then. The tracer reads no
// cache of its own. (A reconcile's read of the same Foo at that instant is
// taken for the handler's.)
func (in *observedInformers) deploymentCall(op string, obj any) (done func()) {
	done = func() {}
	if d, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	object, ok := obj.(metav1.Object)
	if !ok {
		in.t.step(Step{Layer: LayerHandler, Op: op, Detail: fmt.Sprintf("got %T: not an object", obj)})
		return done
	}
	deployment := "Deployment " + object.GetNamespace() + "/" + object.GetName()
	ref := metav1.GetControllerOf(object)
	if ref == nil || !controller.IsFooOwner(*ref) {
		in.t.step(Step{Layer: LayerHandler, Op: op, Object: deployment, Detail: "not controlled by a Foo: ignored"})
		return done
	}
	key := object.GetNamespace() + "/" + ref.Name
	in.t.mu.Lock()
	in.t.pending[key] = &Step{Layer: LayerHandler, Op: op, Key: key, Object: deployment,
		Detail: "rv=" + object.GetResourceVersion() + ", controlled by Foo " + ref.Name}
	in.t.mu.Unlock()
	return func() {
		if s := in.t.takePending(key); s != nil {
			in.t.step(*s)
		}
	}
}

// takePending takes the row of a Deployment handler's call waiting for its
// read of the Foo key, or nil.
func (t *Tracer) takePending(key string) *Step {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.pending[key]
	delete(t.pending, key)
	return s
}

// FoosLister reads Foos from the cache, and reports each read: as the read
// of the worker reconciling the Foo, or as what a Deployment handler found.
func (in *observedInformers) FoosLister() controller.FooLister {
	foos := in.Informers.FoosLister()
	return controller.FooListerFunc(func(namespace, name string) (*unstructured.Unstructured, error) {
		foo, err := foos.Foos(namespace).Get(name)
		in.fooRead(namespace, name, foo, err)
		return foo, err
	})
}

// fooRead is a read of a Foo's row.
func (in *observedInformers) fooRead(namespace, name string, foo *unstructured.Unstructured, err error) {
	key := namespace + "/" + name
	s := Step{Layer: LayerLister, Op: "Get", Key: key, Object: "Foo " + key, Worker: in.t.workerFor(key), Err: err}
	if err == nil {
		replicas, found, _ := unstructured.NestedInt64(foo.Object, "spec", "replicas")
		available, _, _ := unstructured.NestedInt64(foo.Object, "status", "availableReplicas")
		spec := "unset"
		if found {
			spec = fmt.Sprint(replicas)
		}
		s.Detail = fmt.Sprintf("rv=%s spec.replicas=%s status.availableReplicas=%d", foo.GetResourceVersion(), spec, available)
		if d, ok, _ := unstructured.NestedString(foo.Object, "spec", "deploymentName"); ok && d != "" {
			in.t.mu.Lock()
			in.t.deploymentOf[namespace+"/"+d] = key
			in.t.mu.Unlock()
		}
	}
	if handler := in.t.takePending(key); handler != nil {
		// The Deployment handler's read: its row says what it found.
		if err != nil {
			handler.Err, handler.Detail = err, "orphan: its Foo is not in the cache, ignored"
		}
		in.t.step(*handler)
		return
	}
	if s.Worker != 0 {
		in.t.step(s)
	}
}

// DeploymentsLister reads Deployments from the cache, and reports each read
// as the read of the worker reconciling their Foo.
func (in *observedInformers) DeploymentsLister() controller.DeploymentLister {
	deployments := in.Informers.DeploymentsLister()
	return controller.DeploymentListerFunc(func(namespace, name string) (*appsv1.Deployment, error) {
		d, err := deployments.Deployments(namespace).Get(name)
		fooKey := in.t.fooOf(namespace + "/" + name)
		s := Step{Layer: LayerLister, Op: "Get", Key: fooKey, Object: "Deployment " + namespace + "/" + name, Worker: in.t.workerFor(fooKey), Err: err}
		if err == nil {
			s.Detail = fmt.Sprintf("rv=%s spec.replicas=%s status.availableReplicas=%d", d.ResourceVersion, replicas(d.Spec.Replicas), d.Status.AvailableReplicas)
		}
		in.t.step(s)
		return d, err
	})
}

// fooOf is the key of the Foo whose Deployment is deployment ("ns/name").
func (t *Tracer) fooOf(deployment string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.deploymentOf[deployment]
}

// observedHandler reports each call, then makes it.
type observedHandler struct {
	inner informer.ResourceEventHandler
	// report makes the call's row, and returns what to do after the call.
	report func(op string, obj any) (done func())
}

func (h observedHandler) OnAdd(obj any, isInInitialList bool) {
	op := "OnAdd"
	if isInInitialList {
		op = "OnAdd (initial list)"
	}
	defer h.report(op, obj)()
	h.inner.OnAdd(obj, isInInitialList)
}

func (h observedHandler) OnUpdate(oldObj, newObj any) {
	done := func() {}
	if resourceVersionOf(oldObj) != resourceVersionOf(newObj) || !isDeployment(newObj) {
		done = h.report("OnUpdate", newObj)
	}
	defer done()
	h.inner.OnUpdate(oldObj, newObj)
}

func (h observedHandler) OnDelete(obj any) {
	op := "OnDelete"
	if _, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		op = "OnDelete (tombstone)"
	}
	defer h.report(op, obj)()
	h.inner.OnDelete(obj)
}

// keyOf is an object's (or a tombstone's) key and resourceVersion.
func keyOf(obj any) (key, rv string) {
	if d, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		_, rv = keyOf(d.Obj)
		return d.Key, rv
	}
	if m, ok := obj.(metav1.Object); ok {
		return m.GetNamespace() + "/" + m.GetName(), m.GetResourceVersion()
	}
	return fmt.Sprintf("<%T>", obj), "?"
}

func resourceVersionOf(obj any) string {
	_, rv := keyOf(obj)
	return rv
}

// isDeployment: the Deployment handler skips a resync's update (the same
// resourceVersion), so its row would say something that did not happen.
func isDeployment(obj any) bool {
	_, ok := obj.(*appsv1.Deployment)
	return ok
}

func replicas(r *int32) string {
	if r == nil {
		return "unset"
	}
	return fmt.Sprint(*r)
}
