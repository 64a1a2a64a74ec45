// Mirrors kubernetes/sample-controller controller.go: the event handlers
// NewController registers, enqueueFoo and handleObject.

package controller

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/klog/v2"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/internal/crd"
)

// fooHandler enqueues a Foo's key when it is added or updated. A deleted
// Foo needs nothing from this controller: its Deployment carries an owner
// reference to it, so the garbage collector deletes the Deployment.
func (c *Controller) fooHandler() informer.ResourceEventHandler {
	return informer.ResourceEventHandlerFuncs{
		AddFunc:    c.enqueueFoo,
		UpdateFunc: func(oldObj, newObj any) { c.enqueueFoo(newObj) },
	}
}

// deploymentHandler maps every change of a Deployment to the Foo that
// controls it, so that a Deployment deleted or edited behind the
// controller's back is put right. Updates that are only a resync (the same
// resourceVersion) are skipped: two versions of an object always differ in
// resourceVersion.
func (c *Controller) deploymentHandler() informer.ResourceEventHandler {
	return informer.ResourceEventHandlerFuncs{
		AddFunc: c.handleObject,
		UpdateFunc: func(oldObj, newObj any) {
			newDepl := newObj.(*appsv1.Deployment)
			oldDepl := oldObj.(*appsv1.Deployment)
			if newDepl.ResourceVersion == oldDepl.ResourceVersion {
				return
			}
			c.handleObject(newObj)
		},
		DeleteFunc: c.handleObject,
	}
}

// enqueueFoo takes a Foo and puts its key on the queue. It never looks
// inside the object beyond its name: the worker reads the Foo again, from
// the lister, when it gets to the key.
func (c *Controller) enqueueFoo(obj any) {
	m, err := meta.Accessor(obj) // cache.ObjectToName in sample-controller
	if err != nil {
		utilruntime.HandleError(fmt.Errorf("controller: a Foo handler got %T: %w", obj, err))
		return
	}
	c.workqueue.Add(informer.ObjectName{Namespace: m.GetNamespace(), Name: m.GetName()})
}

// handleObject takes a Deployment (or the tombstone of one) and finds the
// Foo that controls it, from its controller owner reference; it enqueues
// that Foo. A Deployment no Foo controls is not this controller's
// business; one whose Foo is gone (an orphan, until the garbage collector
// gets to it) is skipped.
func (c *Controller) handleObject(obj any) {
	logger := klog.FromContext(context.Background())
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
		logger.V(4).Info("Recovered deleted object", "resourceName", object.GetName())
	}
	logger.V(4).Info("Processing object", "object", klog.KObj(object))
	if ownerRef := metav1.GetControllerOf(object); ownerRef != nil {
		if !IsFooOwner(*ownerRef) {
			return
		}
		foo, err := c.foosLister.Foos(object.GetNamespace()).Get(ownerRef.Name)
		if err != nil {
			logger.V(4).Info("Ignore orphaned object", "object", klog.KObj(object), "foo", ownerRef.Name)
			return
		}
		c.enqueueFoo(foo)
	}
}

// IsFooOwner reports whether an owner reference names a Foo of our group
// and version (sample-controller checks the kind only).
func IsFooOwner(ref metav1.OwnerReference) bool {
	return ref.Kind == crd.Foo.Kind && ref.APIVersion == crd.Foo.GVK().GroupVersion().String()
}
