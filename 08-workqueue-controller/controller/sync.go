// Mirrors kubernetes/sample-controller controller.go: syncHandler (here
// syncFoo, behind the syncHandler field: controller.go), updateFooStatus
// and newDeployment.

package controller

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	informer "informer-from-scratch/06-sharedinformer"
)

// syncFoo compares the actual state with the desired, and attempts to
// converge the two: it makes sure the Foo's Deployment exists, is
// controlled by the Foo and has the Foo's replicas, then writes the
// Deployment's available replicas into the Foo's status.
//
// It reads only from the listers and never from the event that queued the
// key (there is none to read: only the key travels). An error means "try
// again later": the worker re-queues the key with the rate limiter, and the
// next attempt starts again from the listers' state then.
func (c *Controller) syncFoo(ctx context.Context, objectRef informer.ObjectName) error {
	cached, err := c.foosLister.Foos(objectRef.Namespace).Get(objectRef.Name)
	if err != nil {
		if apierrors.IsNotFound(err) {
			// The Foo is gone; so will its Deployment be, through its
			// owner reference. Nothing to do, and nothing to retry.
			utilruntime.HandleErrorWithContext(ctx, err, "Foo referenced by item in work queue no longer exists", "objectReference", objectRef)
			return nil
		}
		return err
	}
	foo, err := fooFromUnstructured(cached)
	if err != nil {
		// Retrying cannot repair the object; its next change queues it
		// again.
		utilruntime.HandleError(err)
		return nil
	}

	deploymentName := foo.Spec.DeploymentName
	if deploymentName == "" {
		// As sample-controller: absorb the error instead of retrying; the
		// next change of the Foo queues it again.
		utilruntime.HandleErrorWithContext(ctx, nil, "Deployment name missing from object reference", "objectReference", objectRef)
		return nil
	}

	changed := false
	deployment, err := c.deploymentsLister.Deployments(foo.Namespace).Get(deploymentName)
	if apierrors.IsNotFound(err) {
		deployment, err = c.kubeclientset.AppsV1().Deployments(foo.Namespace).Create(ctx, newDeployment(foo), metav1.CreateOptions{FieldManager: FieldManager})
		changed = true
	}
	if err != nil {
		// A failed read or create; the retry reads the listers again.
		return err
	}

	if !metav1.IsControlledBy(deployment, foo) {
		msg := fmt.Sprintf(MessageResourceExists, deployment.Name)
		c.recorder.Event(foo, corev1.EventTypeWarning, ErrResourceExists, msg)
		return fmt.Errorf("%s", msg)
	}

	if foo.Spec.Replicas != nil && (deployment.Spec.Replicas == nil || *foo.Spec.Replicas != *deployment.Spec.Replicas) {
		// NEVER modify objects from the store: the lister's Deployment is
		// the cache's own. Change a copy. It keeps the resourceVersion, so
		// the update fails with a conflict if the Deployment changed since
		// the cache saw it; the retry then starts from the newer state.
		deploymentCopy := deployment.DeepCopy()
		deploymentCopy.Spec.Replicas = foo.Spec.Replicas // foo is a copy already
		deployment, err = c.kubeclientset.AppsV1().Deployments(foo.Namespace).Update(ctx, deploymentCopy, metav1.UpdateOptions{FieldManager: FieldManager})
		if err != nil {
			return err
		}
		changed = true
	}

	wrote, err := c.updateFooStatus(ctx, cached, deployment)
	if err != nil {
		return err
	}
	if changed || wrote {
		c.recorder.Event(foo, corev1.EventTypeNormal, SuccessSynced, MessageResourceSynced)
	}
	return nil
}

// recovered runs sync, turning a panic into an error, so that a bug in one
// reconcile retries one key instead of ending the process.
// (sample-controller calls its syncHandler directly, and a panic ends the
// process.)
func recovered(sync SyncFunc) SyncFunc {
	return func(ctx context.Context, objRef informer.ObjectName) (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("controller: the reconcile of %s panicked: %v", objRef, r)
			}
		}()
		return sync(ctx, objRef)
	}
}

// updateFooStatus writes the Deployment's available replicas into the
// Foo's status, through the status subresource, unless it is there
// already. cached is the lister's object: it is copied, never changed.
func (c *Controller) updateFooStatus(ctx context.Context, cached *unstructured.Unstructured, deployment *appsv1.Deployment) (bool, error) {
	current, found, _ := unstructured.NestedInt64(cached.Object, "status", "availableReplicas")
	if found && current == int64(deployment.Status.AvailableReplicas) {
		return false, nil
	}
	fooCopy := cached.DeepCopy()
	fooCopy.Object["status"] = map[string]any{"availableReplicas": int64(deployment.Status.AvailableReplicas)}
	_, err := c.fooclient.Namespace(fooCopy.GetNamespace()).UpdateStatus(ctx, fooCopy, metav1.UpdateOptions{FieldManager: FieldManager})
	return err == nil, err
}

// newDeployment is the Deployment a Foo asks for: spec.replicas replicas of
// one container, selected by labels of its own, with the Foo as its
// controller (NewControllerRef sets controller and blockOwnerDeletion).
// The owner reference is what maps the Deployment's events back to the
// Foo, and what lets the garbage collector delete it with the Foo.
//
// The container is the pause image: on the playground nothing runs it (no
// scheduler, no kubelet), and on a real cluster it is the smallest image
// there is.
func newDeployment(foo *Foo) *appsv1.Deployment {
	labels := map[string]string{
		"app":        "pause",
		"controller": foo.Name,
	}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{
			Name:      foo.Spec.DeploymentName,
			Namespace: foo.Namespace,
			OwnerReferences: []metav1.OwnerReference{
				*metav1.NewControllerRef(foo, fooKind),
			},
		},
		Spec: appsv1.DeploymentSpec{
			Replicas: foo.Spec.Replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					Containers: []corev1.Container{{Name: "pause", Image: "registry.k8s.io/pause:3.10"}},
				},
			},
		},
	}
}
