// Mirrors kubernetes/sample-controller controller.go: syncHandler,
// updateFooStatus and newDeployment.

package controller

import (
	"context"
	"errors"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/utils/ptr"

	informer "informer-from-scratch/06-sharedinformer"
)

// syncHandler compares the actual state with the desired, and attempts to
// converge the two: it makes sure the Foo's Deployment exists, is
// controlled by the Foo and has the Foo's replicas, then writes the
// Deployment's available replicas into the Foo's status.
//
// It reads only from the listers and never from the event that queued the
// key (there is none to read: only the key travels). An error means "try
// again later": the worker re-queues the key with the rate limiter, and the
// next attempt starts again from the listers' state then.
func (c *Controller) syncHandler(ctx context.Context, worker int, objectRef informer.ObjectName) error {
	cached, err := c.informers.GetFoo(objectRef.Namespace, objectRef.Name)
	if err != nil {
		c.step(Step{Layer: LayerLister, Op: "Get", Key: objectRef.String(), Object: "Foo " + objectRef.String(), Worker: worker, Err: err, Len: -1})
		if apierrors.IsNotFound(err) {
			// The Foo is gone; so will its Deployment be, through its
			// owner reference. Nothing to do, and nothing to retry.
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
	// Steps are built only for an observer: a reconcile that finds nothing
	// to do should cost nothing but its reads.
	if c.observe != nil {
		c.step(Step{Layer: LayerLister, Op: "Get", Key: objectRef.String(), Object: "Foo " + objectRef.String(), Worker: worker, Len: -1,
			Detail: fmt.Sprintf("rv=%s spec.replicas=%s status.availableReplicas=%d", foo.ResourceVersion, replicasString(foo.Spec.Replicas), foo.Status.AvailableReplicas)})
	}

	deploymentName := foo.Spec.DeploymentName
	if deploymentName == "" {
		// As sample-controller: absorb the error instead of retrying; the
		// next change of the Foo queues it again.
		utilruntime.HandleError(fmt.Errorf("%s: deployment name must be specified", objectRef))
		return nil
	}

	changed := false
	deployment, err := c.informers.GetDeployment(foo.Namespace, deploymentName)
	if err != nil && apierrors.IsNotFound(err) {
		c.step(Step{Layer: LayerLister, Op: "Get", Key: objectRef.String(), Object: deploymentRef(foo), Worker: worker, Err: err, Len: -1})
		deployment, err = c.kubeclientset.AppsV1().Deployments(foo.Namespace).Create(ctx, newDeployment(foo), metav1.CreateOptions{FieldManager: FieldManager})
		c.writeStep(worker, "CREATE", foo, deployment, err)
		changed = true
	} else if err == nil && c.observe != nil {
		c.step(Step{Layer: LayerLister, Op: "Get", Key: objectRef.String(), Object: deploymentRef(foo), Worker: worker, Len: -1,
			Detail: fmt.Sprintf("rv=%s spec.replicas=%s status.availableReplicas=%d", deployment.ResourceVersion, replicasString(deployment.Spec.Replicas), deployment.Status.AvailableReplicas)})
	}
	if err != nil {
		// A failed read or create; the retry reads the listers again.
		return err
	}

	if !metav1.IsControlledBy(deployment, foo) {
		msg := fmt.Sprintf(MessageResourceExists, deployment.Name)
		c.recorder.Event(foo, corev1.EventTypeWarning, ErrResourceExists, msg)
		c.step(Step{Layer: LayerWrite, Op: "EVENT", Key: objectRef.String(), Object: "Foo " + objectRef.String(), Worker: worker, Detail: "Warning " + ErrResourceExists, Len: -1})
		return errors.New(msg)
	}

	if foo.Spec.Replicas != nil && (deployment.Spec.Replicas == nil || *foo.Spec.Replicas != *deployment.Spec.Replicas) {
		// NEVER modify objects from the store: the lister's Deployment is
		// the cache's own. Change a copy. It keeps the resourceVersion, so
		// the update fails with a conflict if the Deployment changed since
		// the cache saw it; the retry then starts from the newer state.
		deploymentCopy := deployment.DeepCopy()
		deploymentCopy.Spec.Replicas = ptr.To(*foo.Spec.Replicas)
		deployment, err = c.kubeclientset.AppsV1().Deployments(foo.Namespace).Update(ctx, deploymentCopy, metav1.UpdateOptions{FieldManager: FieldManager})
		c.writeStep(worker, "UPDATE", foo, deployment, err)
		if err != nil {
			return err
		}
		changed = true
	}

	wrote, err := c.updateFooStatus(ctx, worker, cached, deployment)
	if err != nil {
		return err
	}
	if changed || wrote {
		c.recorder.Event(foo, corev1.EventTypeNormal, SuccessSynced, MessageResourceSynced)
		c.step(Step{Layer: LayerWrite, Op: "EVENT", Key: objectRef.String(), Object: "Foo " + objectRef.String(), Worker: worker, Detail: "Normal " + SuccessSynced, Len: -1})
	}
	return nil
}

// updateFooStatus writes the Deployment's available replicas into the
// Foo's status, through the status subresource, unless it is there
// already. cached is the lister's object: it is copied, never changed.
func (c *Controller) updateFooStatus(ctx context.Context, worker int, cached *unstructured.Unstructured, deployment *appsv1.Deployment) (bool, error) {
	current, found, _ := unstructured.NestedInt64(cached.Object, "status", "availableReplicas")
	if found && current == int64(deployment.Status.AvailableReplicas) {
		return false, nil
	}
	key := cached.GetNamespace() + "/" + cached.GetName()
	fooCopy := cached.DeepCopy()
	if err := unstructured.SetNestedField(fooCopy.Object, int64(deployment.Status.AvailableReplicas), "status", "availableReplicas"); err != nil {
		return false, err
	}
	updated, err := c.fooclient.Namespace(fooCopy.GetNamespace()).UpdateStatus(ctx, fooCopy, metav1.UpdateOptions{FieldManager: FieldManager})
	s := Step{Layer: LayerWrite, Op: "UPDATE", Key: key, Object: "Foo " + key + " status", Worker: worker, Err: err, Len: -1}
	if err == nil {
		s.Detail = fmt.Sprintf("status.availableReplicas=%d → rv=%s", deployment.Status.AvailableReplicas, updated.GetResourceVersion())
	}
	c.step(s)
	return err == nil, err
}

// writeStep reports a write to a Foo's Deployment.
func (c *Controller) writeStep(worker int, op string, foo *Foo, written *appsv1.Deployment, err error) {
	if c.observe == nil {
		return
	}
	s := Step{Layer: LayerWrite, Op: op, Key: foo.Namespace + "/" + foo.Name, Object: deploymentRef(foo), Worker: worker, Err: err, Len: -1}
	if err == nil && written != nil {
		s.Detail = fmt.Sprintf("spec.replicas=%s → rv=%s", replicasString(written.Spec.Replicas), written.ResourceVersion)
	}
	c.step(s)
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

// deploymentRef names a Foo's Deployment in a Step.
func deploymentRef(foo *Foo) string {
	return "Deployment " + foo.Namespace + "/" + foo.Spec.DeploymentName
}

// replicasString prints an optional replica count.
func replicasString(r *int32) string {
	if r == nil {
		return "unset"
	}
	return fmt.Sprint(*r)
}
