package crd_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/playground"
)

// TestRegisterFooServesFoos registers sample-controller's Foo on a
// playground and uses it as stage 08's controller will: create a Foo, read
// it back, write its status through the subresource; the schema's bounds
// hold; a second Register is harmless; a CRD whose kind is taken is refused
// with the apiserver's reason; Unregister removes it all.
func TestRegisterFooServesFoos(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the playground; skipped with -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := playground.Start(ctx, playground.Options{Progress: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	client, err := dynamic.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}

	if err := crd.Register(ctx, client, crd.Foo); err != nil {
		t.Fatal(err)
	}
	if err := crd.Register(ctx, client, crd.Foo); err != nil {
		t.Fatalf("registering an existing CRD again: %v", err)
	}
	foos := client.Resource(crd.Foo.GVR()).Namespace("default")
	created, err := foos.Create(ctx, crd.NewFoo("default", "example", "example-web", 2, map[string]string{"app": "web"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _, _ := unstructured.NestedInt64(created.Object, "spec", "replicas"); got != 2 {
		t.Errorf("spec.replicas = %d, want 2", got)
	}
	created.Object["status"] = map[string]any{"availableReplicas": int64(1)}
	updated, err := foos.UpdateStatus(ctx, created, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("status subresource: %v", err)
	}
	if got, _, _ := unstructured.NestedInt64(updated.Object, "status", "availableReplicas"); got != 1 {
		t.Errorf("status.availableReplicas = %d, want 1", got)
	}
	if _, err := foos.Create(ctx, crd.NewFoo("default", "too-big", "x", 11, nil), metav1.CreateOptions{}); !apierrors.IsInvalid(err) {
		t.Errorf("replicas=11 against a maximum of 10: got %v, want Invalid", err)
	}

	clash := crd.Foo
	clash.Plural, clash.Singular = "otherfoos", "otherfoo" // same group, same kind
	err = crd.Register(ctx, client, clash)
	if err == nil || !strings.Contains(err.Error(), "refused otherfoos.samplecontroller.k8s.io") {
		t.Errorf("a CRD whose kind is taken: got %v, want the apiserver's refusal", err)
	}

	if err := crd.Unregister(ctx, client, crd.Foo); err != nil {
		t.Fatal(err)
	}
	if _, err := foos.List(ctx, metav1.ListOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("after Unregister, listing foos: got %v, want NotFound", err)
	}
	if err := crd.Unregister(ctx, client, crd.Foo); err != nil {
		t.Errorf("unregistering a CRD that is gone: %v", err)
	}
}

func TestNilClientIsAnError(t *testing.T) {
	if err := crd.Register(context.Background(), nil, crd.Foo); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("Register(nil client) = %v", err)
	}
	if err := crd.Unregister(context.Background(), nil, crd.Foo); err == nil || !strings.Contains(err.Error(), "nil") {
		t.Errorf("Unregister(nil client) = %v", err)
	}
}

func TestFooDefinition(t *testing.T) {
	if got := crd.Foo.Name(); got != "foos.samplecontroller.k8s.io" {
		t.Errorf("Name() = %q", got)
	}
	obj := crd.Foo.Object()
	if scope, _, _ := unstructured.NestedString(obj.Object, "spec", "scope"); scope != "Namespaced" {
		t.Errorf("scope = %q", scope)
	}
	foo := crd.NewFoo("ns", "a", "a-web", 3, nil)
	if foo.GetAPIVersion() != "samplecontroller.k8s.io/v1alpha1" || foo.GetKind() != "Foo" {
		t.Errorf("NewFoo's type is %s %s", foo.GetAPIVersion(), foo.GetKind())
	}
}
