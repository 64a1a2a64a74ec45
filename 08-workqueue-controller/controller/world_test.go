package controller_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"informer-from-scratch/internal/crd"
)

// world is what a namespace holds, normalised so that two namespaces (or
// two fake worlds) written by two controllers compare equal when they hold
// the same objects: the fields the server sets by itself (uid,
// resourceVersion, creationTimestamp, generation, managedFields) and the
// namespace are dropped. An owner reference's uid is dropped too when it is
// the uid of the Foo of that name now in the namespace, and replaced by
// "stale" when it is not: a Deployment left pointing at a Foo deleted and
// created again must show.
type world struct {
	Foos        map[string]map[string]any
	Deployments map[string]appsv1.Deployment
}

// snapshot reads a namespace's Foos and Deployments from the server.
func snapshot(ctx context.Context, kube kubernetes.Interface, dyn dynamic.Interface, ns string) (world, error) {
	w := world{Foos: map[string]map[string]any{}, Deployments: map[string]appsv1.Deployment{}}
	foos, err := dyn.Resource(crd.Foo.GVR()).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return w, err
	}
	fooUIDs := map[string]types.UID{}
	for _, foo := range foos.Items {
		w.Foos[foo.GetName()] = normaliseFoo(foo)
		fooUIDs[foo.GetName()] = foo.GetUID()
	}
	deployments, err := kube.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return w, err
	}
	for _, d := range deployments.Items {
		w.Deployments[d.Name] = normaliseDeployment(d, fooUIDs)
	}
	return w, nil
}

func normaliseFoo(foo unstructured.Unstructured) map[string]any {
	out := foo.DeepCopy().Object
	metadata := map[string]any{"name": foo.GetName()}
	if labels := foo.GetLabels(); len(labels) > 0 {
		metadata["labels"] = labels
	}
	out["metadata"] = metadata
	return out
}

func normaliseDeployment(d appsv1.Deployment, fooUIDs map[string]types.UID) appsv1.Deployment {
	d = *d.DeepCopy()
	d.TypeMeta = metav1.TypeMeta{}
	d.ObjectMeta = metav1.ObjectMeta{
		Name:            d.Name,
		Labels:          d.Labels,
		Annotations:     d.Annotations,
		OwnerReferences: d.OwnerReferences,
	}
	for i, ref := range d.OwnerReferences {
		d.OwnerReferences[i].UID = ""
		if uid, found := fooUIDs[ref.Name]; !found || ref.Kind != crd.Foo.Kind || ref.UID != uid {
			d.OwnerReferences[i].UID = "stale"
		}
	}
	d.Status.ObservedGeneration = 0
	return d
}

// summary is the world in the terms the controller promises, one line per
// object, for comparing with what a test expects.
func (w world) summary() []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(w.Foos)) {
		foo := &unstructured.Unstructured{Object: w.Foos[name]}
		replicas, _, _ := unstructured.NestedInt64(foo.Object, "spec", "replicas")
		deployment, _, _ := unstructured.NestedString(foo.Object, "spec", "deploymentName")
		status := "unset"
		if available, found, _ := unstructured.NestedInt64(foo.Object, "status", "availableReplicas"); found {
			status = fmt.Sprint(available)
		}
		out = append(out, fmt.Sprintf("foo %s: replicas=%d deployment=%s status=%s", name, replicas, deployment, status))
	}
	for _, name := range slices.Sorted(maps.Keys(w.Deployments)) {
		d := w.Deployments[name]
		owner := "none"
		if ref := metav1.GetControllerOf(&d); ref != nil {
			owner = ref.Kind + "/" + ref.Name
			if ref.UID != "" {
				owner += "(" + string(ref.UID) + ")"
			}
		}
		replicas := "unset"
		if d.Spec.Replicas != nil {
			replicas = fmt.Sprint(*d.Spec.Replicas)
		}
		line := fmt.Sprintf("deployment %s: replicas=%s owner=%s available=%d", name, replicas, owner, d.Status.AvailableReplicas)
		if extra := d.Labels["edited"]; extra != "" {
			line += " edited=" + extra
		}
		out = append(out, line)
	}
	return out
}

func (w world) String() string { return strings.Join(w.summary(), "\n") }

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
