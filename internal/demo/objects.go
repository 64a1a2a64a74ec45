package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	"informer-from-scratch/internal/lang"
)

// Pod returns a minimal pod the apiserver accepts. Nothing schedules or runs
// it (the playground has no scheduler and no kubelet); it only exists as an
// object to list and watch.
func Pod(namespace, name string, labels map[string]string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: labels},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "app", Image: "registry.k8s.io/pause:3.10"}},
		},
	}
}

// Deployment returns a minimal Deployment the apiserver accepts: one
// replica of Pod's container, selected by a label of its own. The
// playground runs no controllers, so it never gets a ReplicaSet, pods or a
// status; it exists as an object to list and watch.
func Deployment(namespace, name string, labels map[string]string) *appsv1.Deployment {
	selector := map[string]string{"deployment": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: selector},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: selector},
				Spec:       Pod("", "", nil).Spec,
			},
		},
	}
}

// Namespace creates a namespace for the demo's objects: the given name on the
// playground, a random one on a real cluster (only for a demo whose Options
// say WritesOnRealCluster), which is deleted when the demo ends.
func (e *Env) Namespace(name string) (string, error) {
	if !e.Writes {
		return "", lang.Errorf(sayOnlyReads)
	}
	if !e.OnPlayground() {
		name = fmt.Sprintf("informer-demo-%s-%04x", name, rand.IntN(1<<16))
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := e.Client.CoreV1().Namespaces().Create(e.Ctx, ns, metav1.CreateOptions{}); err != nil {
		return "", lang.Errorf(sayCreatingNamespace, name, err)
	}
	if !e.OnPlayground() {
		e.atExit = append(e.atExit, func() {
			// The demo's context may be cancelled already (Ctrl-C); deleting
			// our namespace must still happen.
			ctx, cancel := context.WithTimeout(context.WithoutCancel(e.Ctx), 30*time.Second)
			defer cancel()
			err := e.Client.CoreV1().Namespaces().Delete(ctx, name, metav1.DeleteOptions{})
			if err != nil {
				fmt.Fprint(e.Out, sayNamespaceNotDelete.Sprintf(e.Lang, name, err))
				return
			}
			fmt.Fprint(e.Out, sayNamespaceDeleted.Sprintf(e.Lang, name))
		})
	}
	return name, nil
}

// Delete deletes the object name of resource in namespace ns through c (a
// typed client's RESTClient: client.CoreV1().RESTClient()), and returns
// the resourceVersion its answer carries, for the write's answer row. The
// typed clients' Delete returns only an error. A pod's answer is the pod
// as deleted: on the playground, where no kubelet runs it and it goes at
// once, at the resourceVersion of the DELETED event the deletion causes
// (a pod a kubelet runs is answered as the MODIFIED event that starts its
// grace period). Most kinds (a ConfigMap, a Deployment) answer with a
// Status, which carries none: "".
func Delete(ctx context.Context, c rest.Interface, ns, resource, name string, opts metav1.DeleteOptions) (rv string, err error) {
	obj, err := c.Delete().Namespace(ns).Resource(resource).Name(name).Body(&opts).Do(ctx).Get()
	if err != nil {
		return "", err
	}
	if m, err := meta.Accessor(obj); err == nil {
		return m.GetResourceVersion(), nil
	}
	return "", nil
}
