// Mirrors kubernetes/sample-controller controller.go: the event handlers
// NewController registers, enqueueFoo and handleObject.

package controller

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/internal/crd"
)

// fooHandler enqueues a Foo's key when it is added or updated. A deleted
// Foo needs nothing from this controller: its Deployment carries an owner
// reference to it, so the garbage collector deletes the Deployment.
func (c *Controller) fooHandler() informer.ResourceEventHandler {
	return informer.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, isInInitialList bool) {
			op := "OnAdd"
			if isInInitialList {
				op = "OnAdd (initial list)"
			}
			c.enqueueFoo(op, obj)
		},
		UpdateFunc: func(oldObj, newObj any) { c.enqueueFoo("OnUpdate", newObj) },
		DeleteFunc: func(obj any) {
			c.step(Step{Layer: LayerHandler, Op: "OnDelete", Key: keyOf(obj), Len: -1,
				Detail: "Foo gone: nothing to enqueue (the garbage collector deletes its Deployment)"})
		},
	}
}

// deploymentHandler maps every change of a Deployment to the Foo that
// controls it, so that a Deployment deleted or edited behind the
// controller's back is put right. Updates that are only a resync (the same
// resourceVersion) are skipped: two versions of an object always differ in
// resourceVersion.
func (c *Controller) deploymentHandler() informer.ResourceEventHandler {
	return informer.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, _ bool) { c.handleObject("OnAdd", obj) },
		UpdateFunc: func(oldObj, newObj any) {
			newDepl, ok1 := newObj.(*appsv1.Deployment)
			oldDepl, ok2 := oldObj.(*appsv1.Deployment)
			if !ok1 || !ok2 {
				utilruntime.HandleError(fmt.Errorf("controller: a Deployment update handler got %T and %T", oldObj, newObj))
				return
			}
			if newDepl.ResourceVersion == oldDepl.ResourceVersion {
				return
			}
			c.handleObject("OnUpdate", newObj)
		},
		DeleteFunc: func(obj any) { c.handleObject("OnDelete", obj) },
	}
}

// enqueueFoo takes a Foo and puts its key on the queue. It never looks
// inside the object beyond its name: the worker reads the Foo again, from
// the lister, when it gets to the key.
func (c *Controller) enqueueFoo(op string, obj any) {
	objectRef, err := objectName(obj)
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("controller: a Foo handler got %T: %w", obj, err))
		return
	}
	if c.observe != nil {
		c.step(Step{Layer: LayerHandler, Op: op, Key: objectRef.String(), Object: "Foo " + objectRef.String(), Detail: "rv=" + resourceVersion(obj), Len: -1})
	}
	c.enqueue(objectRef)
}

// enqueue adds a key to the queue.
func (c *Controller) enqueue(objectRef informer.ObjectName) {
	c.lockQueueRows()
	defer c.unlockQueueRows()
	c.workqueue.Add(objectRef)
	c.queueStep("Add", objectRef, 0, "")
}

// handleObject takes a Deployment (or the tombstone of one) and finds the
// Foo that controls it, from its controller owner reference; it enqueues
// that Foo's key. A Deployment no Foo controls is not this controller's
// business; one whose Foo is gone (an orphan, until the garbage collector
// gets to it) is skipped.
func (c *Controller) handleObject(op string, obj any) {
	object, ok := obj.(metav1.Object)
	if !ok {
		tombstone, ok := obj.(informer.DeletedFinalStateUnknown)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("controller: a Deployment handler got %T, which is neither an object nor a tombstone", obj))
			return
		}
		object, ok = tombstone.Obj.(metav1.Object)
		if !ok {
			utilruntime.HandleError(fmt.Errorf("controller: the tombstone of %s holds %T, not an object", tombstone.Key, tombstone.Obj))
			return
		}
		op += " (tombstone)"
	}
	deployment := "Deployment " + object.GetNamespace() + "/" + object.GetName()
	ownerRef := metav1.GetControllerOf(object)
	if ownerRef == nil || ownerRef.Kind != crd.Foo.Kind || ownerRef.APIVersion != crd.Foo.GVK().GroupVersion().String() {
		c.step(Step{Layer: LayerHandler, Op: op, Object: deployment, Detail: "not controlled by a Foo: ignored", Len: -1})
		return
	}
	objectRef := informer.ObjectName{Namespace: object.GetNamespace(), Name: ownerRef.Name}
	if _, err := c.informers.GetFoo(objectRef.Namespace, objectRef.Name); err != nil {
		c.step(Step{Layer: LayerHandler, Op: op, Key: objectRef.String(), Object: deployment, Err: err, Len: -1,
			Detail: "orphan: its Foo is not in the cache, ignored"})
		return
	}
	c.step(Step{Layer: LayerHandler, Op: op, Key: objectRef.String(), Object: deployment,
		Detail: "rv=" + object.GetResourceVersion() + ", controlled by Foo " + ownerRef.Name, Len: -1})
	c.enqueue(objectRef)
}

// objectName is an object's namespace and name (cache.ObjectToName in
// client-go).
func objectName(obj any) (informer.ObjectName, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return informer.ObjectName{}, err
	}
	return informer.ObjectName{Namespace: m.GetNamespace(), Name: m.GetName()}, nil
}

// keyOf is an object's (or a tombstone's) key, for a Step.
func keyOf(obj any) string {
	if tombstone, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		return tombstone.Key
	}
	name, err := objectName(obj)
	if err != nil {
		return fmt.Sprintf("<%T>", obj)
	}
	return name.String()
}

// resourceVersion is an object's resourceVersion, for a Step.
func resourceVersion(obj any) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "?"
	}
	return m.GetResourceVersion()
}
