// Mirrors kubernetes/sample-controller pkg/apis/samplecontroller/v1alpha1
// types.go: Foo, FooSpec, FooStatus. Not a mirror of client-go: the Foo
// here is read from the dynamic informer's unstructured objects, where
// sample-controller has a generated clientset, informer and lister.

package controller

import (
	"fmt"
	"math"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"informer-from-scratch/internal/crd"
)

// Foo is sample-controller's custom resource (internal/crd registers its
// CRD): a Foo asks for a Deployment called spec.deploymentName with
// spec.replicas replicas, and reports that Deployment's available replicas
// in status.availableReplicas.
//
// The controller never gets a *Foo from an informer: the Foo informer is
// stage 07's dynamic one, whose cache holds *unstructured.Unstructured.
// fooFromUnstructured reads the cached object into this struct, a copy, so
// that the reconcile reads fields by name, as sample-controller's does with
// its generated types.
type Foo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   FooSpec   `json:"spec"`
	Status FooStatus `json:"status"`
}

// FooSpec is what the user asks for.
type FooSpec struct {
	DeploymentName string `json:"deploymentName"`
	// Replicas is optional, as in sample-controller: nil leaves the
	// Deployment's replicas alone once it exists.
	Replicas *int32 `json:"replicas"`
}

// FooStatus is what the controller reports.
type FooStatus struct {
	AvailableReplicas int32 `json:"availableReplicas"`
}

var _ runtime.Object = &Foo{}

// fooKind is the group, version and kind of a Foo: an owner reference
// names its owner by them (and by name and UID).
var fooKind = crd.Foo.GVK()

// DeepCopyObject makes Foo a runtime.Object, so that the event recorder can
// take it (it reads the kind from TypeMeta). A generated deep copy would do
// the same; a Foo holds one pointer besides its metadata.
func (f *Foo) DeepCopyObject() runtime.Object {
	out := *f
	f.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	if f.Spec.Replicas != nil {
		replicas := *f.Spec.Replicas
		out.Spec.Replicas = &replicas
	}
	return &out
}

// fooFromUnstructured converts a cached Foo into the typed struct: the
// metadata an owner reference and an Event need, and the spec and status.
// An object that is not a Foo of our group and kind, or whose fields have
// the wrong types (a replicas that is a string), is an error: the CRD's
// schema should have refused it, but the controller does not trust that.
//
// It reads the fields one by one rather than through
// runtime.DefaultUnstructuredConverter, whose reflection was most of a
// reconcile's time and allocations (BenchmarkReconcileNoOp).
func fooFromUnstructured(u *unstructured.Unstructured) (*Foo, error) {
	if gvk := u.GroupVersionKind(); gvk != fooKind {
		return nil, fmt.Errorf("%s/%s is a %v, not a %v", u.GetNamespace(), u.GetName(), gvk, fooKind)
	}
	foo := &Foo{
		TypeMeta: metav1.TypeMeta{APIVersion: u.GetAPIVersion(), Kind: u.GetKind()},
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       u.GetNamespace(),
			Name:            u.GetName(),
			UID:             u.GetUID(),
			ResourceVersion: u.GetResourceVersion(),
			Generation:      u.GetGeneration(),
		},
	}
	var err error
	if foo.Spec.DeploymentName, _, err = unstructured.NestedString(u.Object, "spec", "deploymentName"); err != nil {
		return nil, fmt.Errorf("reading Foo %s/%s: %w", u.GetNamespace(), u.GetName(), err)
	}
	if foo.Spec.Replicas, err = int32Field(u, "spec", "replicas"); err != nil {
		return nil, err
	}
	available, err := int32Field(u, "status", "availableReplicas")
	if err != nil {
		return nil, err
	}
	if available != nil {
		foo.Status.AvailableReplicas = *available
	}
	return foo, nil
}

// int32Field reads an optional integer field that must fit an int32.
func int32Field(u *unstructured.Unstructured, fields ...string) (*int32, error) {
	v, found, err := unstructured.NestedInt64(u.Object, fields...)
	switch {
	case err != nil:
		return nil, fmt.Errorf("reading Foo %s/%s: %w", u.GetNamespace(), u.GetName(), err)
	case !found:
		return nil, nil
	case v < math.MinInt32 || v > math.MaxInt32:
		return nil, fmt.Errorf("reading Foo %s/%s: %s=%d does not fit an int32", u.GetNamespace(), u.GetName(), strings.Join(fields, "."), v)
	}
	i := int32(v)
	return &i, nil
}
