package crd

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Foo is kubernetes/sample-controller's custom resource: a Foo asks for a
// Deployment called spec.deploymentName with spec.replicas replicas, and
// its controller reports the Deployment's available replicas in
// status.availableReplicas (written through the status subresource). Its
// group, version, names and schema are sample-controller's, so the two can
// be read side by side.
var Foo = Definition{
	Group:      "samplecontroller.k8s.io",
	Version:    "v1alpha1",
	Kind:       "Foo",
	Plural:     "foos",
	Namespaced: true,
	Spec: map[string]any{
		"deploymentName": map[string]any{"type": "string"},
		"replicas":       map[string]any{"type": "integer", "minimum": int64(1), "maximum": int64(10)},
	},
	Status: map[string]any{
		"availableReplicas": map[string]any{"type": "integer"},
	},
	StatusSubresource: true,
	// The apiserver protects the *.k8s.io groups: a CRD there must carry
	// this annotation. sample-controller's own manifest carries the same.
	Annotations: map[string]string{
		"api-approved.kubernetes.io": "unapproved, experimental-only; please get an approval from Kubernetes API reviewers if you're trying to develop a CRD in the *.k8s.io or *.kubernetes.io groups",
	},
}

// NewFoo returns a Foo for the dynamic client to create.
func NewFoo(namespace, name, deploymentName string, replicas int64, labels map[string]string) *unstructured.Unstructured {
	foo := &unstructured.Unstructured{Object: map[string]any{
		"spec": map[string]any{
			"deploymentName": deploymentName,
			"replicas":       replicas,
		},
	}}
	foo.SetGroupVersionKind(Foo.GVK())
	foo.SetNamespace(namespace)
	foo.SetName(name)
	if labels != nil {
		foo.SetLabels(labels)
	}
	return foo
}
