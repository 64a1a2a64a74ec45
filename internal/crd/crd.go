// Package crd registers CustomResourceDefinitions on a cluster through the
// dynamic client, so that no apiextensions module enters go.mod, and
// defines Foo, the custom resource of kubernetes/sample-controller, which
// stage 07's demo lists through its dynamic informer and stage 08's
// controller reconciles.
//
// Not a mirror of client-go: a helper for demos and tests. A CRD is an
// object of the apiextensions.k8s.io/v1 API; Register creates it as an
// unstructured object, then waits until the apiserver has accepted its
// names, marked it Established, and serves its resource (which can lag the
// condition by a moment while the new handler is installed, and lag longer
// for writes than for reads).
package crd

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// Resource is the apiextensions API's resource for CRDs themselves.
var Resource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// Definition is what a CRD says, reduced to what a demo needs: one version,
// served and stored, with a structural schema for spec and status.
type Definition struct {
	Group, Version, Kind string
	// Plural is the resource name (foos); Singular and ListKind follow
	// from Kind when empty.
	Plural, Singular string
	// Namespaced or cluster-scoped.
	Namespaced bool
	// Spec and Status are the openAPIV3Schema properties of spec and status
	// (each a map of field name to schema).
	Spec, Status map[string]any
	// StatusSubresource serves status at .../status: writes to the object
	// then ignore status, and status is written with UpdateStatus.
	StatusSubresource bool
	// Annotations go on the CRD object.
	Annotations map[string]string
}

// Name is the CRD's object name: plural.group.
func (d Definition) Name() string { return d.Plural + "." + d.Group }

// GVR is the resource the CRD adds, for the dynamic client.
func (d Definition) GVR() schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: d.Group, Version: d.Version, Resource: d.Plural}
}

// GVK is the kind of its objects.
func (d Definition) GVK() schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: d.Group, Version: d.Version, Kind: d.Kind}
}

// Object is the CustomResourceDefinition as the apiserver takes it.
func (d Definition) Object() *unstructured.Unstructured {
	scope := "Cluster"
	if d.Namespaced {
		scope = "Namespaced"
	}
	singular := d.Singular
	if singular == "" {
		singular = lower(d.Kind)
	}
	properties := map[string]any{
		"spec": map[string]any{"type": "object", "properties": d.Spec},
	}
	if d.Status != nil {
		properties["status"] = map[string]any{"type": "object", "properties": d.Status}
	}
	version := map[string]any{
		"name":    d.Version,
		"served":  true,
		"storage": true,
		"schema": map[string]any{"openAPIV3Schema": map[string]any{
			"type":       "object",
			"properties": properties,
		}},
	}
	if d.StatusSubresource {
		version["subresources"] = map[string]any{"status": map[string]any{}}
	}
	metadata := map[string]any{"name": d.Name()}
	if len(d.Annotations) > 0 {
		annotations := map[string]any{}
		for k, v := range d.Annotations {
			annotations[k] = v
		}
		metadata["annotations"] = annotations
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   metadata,
		"spec": map[string]any{
			"group": d.Group,
			"scope": scope,
			"names": map[string]any{
				"kind":     d.Kind,
				"listKind": d.Kind + "List",
				"plural":   d.Plural,
				"singular": singular,
			},
			"versions": []any{version},
		},
	}}
}

// lower turns an ASCII Kind into its default singular (Foo → foo).
func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// pollInterval is how often Register and Unregister look again.
const pollInterval = 100 * time.Millisecond

// Register creates the CRD (one already there with the same name is taken
// as it is) and waits until its resource can be listed and written (a
// dry-run create in the default namespace), or ctx ends. A CRD
// the apiserver refuses (a name taken by another group, a schema it rejects)
// is reported with the condition that says why.
func Register(ctx context.Context, client dynamic.Interface, d Definition) error {
	if client == nil {
		return errors.New("crd: Register needs a dynamic client, got nil")
	}
	crds := client.Resource(Resource)
	if _, err := crds.Create(ctx, d.Object(), metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("crd: creating %s: %w", d.Name(), err)
	}
	return poll(ctx, fmt.Sprintf("crd: %s was not established", d.Name()), func() (bool, error) {
		obj, err := crds.Get(ctx, d.Name(), metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		if reason := refused(obj); reason != "" {
			return false, fmt.Errorf("crd: the apiserver refused %s: %s", d.Name(), reason)
		}
		if !condition(obj, "Established") {
			return false, nil
		}
		// Established can come before the resource's handler serves.
		if _, err = client.Resource(d.GVR()).List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
			return false, nil
		}
		return d.acceptsWrites(ctx, client), nil
	})
}

// acceptsWrites tries a dry-run create of an empty object of the kind. The
// apiserver holds the first write to a new CRD's resource for a couple of
// seconds after it serves reads; Register absorbs that wait here rather
// than leave it to its caller's first create. A refusal by validation
// (Invalid: a field the schema requires) also means writes are served.
func (d Definition) acceptsWrites(ctx context.Context, client dynamic.Interface) bool {
	probe := &unstructured.Unstructured{}
	probe.SetGroupVersionKind(d.GVK())
	probe.SetGenerateName("crd-probe-")
	resource := client.Resource(d.GVR())
	var err error
	if d.Namespaced {
		probe.SetNamespace(metav1.NamespaceDefault)
		_, err = resource.Namespace(metav1.NamespaceDefault).Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	} else {
		_, err = resource.Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	}
	return err == nil || apierrors.IsInvalid(err)
}

// Unregister deletes the CRD, and with it every object of its kind, and
// waits until it is gone. A CRD that does not exist is not an error.
func Unregister(ctx context.Context, client dynamic.Interface, d Definition) error {
	if client == nil {
		return errors.New("crd: Unregister needs a dynamic client, got nil")
	}
	crds := client.Resource(Resource)
	if err := crds.Delete(ctx, d.Name(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("crd: deleting %s: %w", d.Name(), err)
	}
	return poll(ctx, fmt.Sprintf("crd: %s was not deleted", d.Name()), func() (bool, error) {
		_, err := crds.Get(ctx, d.Name(), metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		return false, err
	})
}

// poll calls done until it says true or fails, or ctx ends; then the error
// says what was being waited for.
func poll(ctx context.Context, what string, done func() (bool, error)) error {
	ticker := time.NewTicker(pollInterval)
	defer ticker.Stop()
	for {
		ok, err := done()
		switch {
		case ok:
			return nil
		case err != nil && ctx.Err() == nil:
			return err
		}
		select {
		case <-ticker.C:
		case <-ctx.Done():
			return fmt.Errorf("%s: %w", what, context.Cause(ctx))
		}
	}
}

// condition reports whether the CRD's status has condition typ set to True.
func condition(obj *unstructured.Unstructured, typ string) bool {
	status, _ := conditionStatus(obj, typ)
	return status == "True"
}

// refused is the apiserver's reason for not accepting the CRD's names, or "".
func refused(obj *unstructured.Unstructured) string {
	status, message := conditionStatus(obj, "NamesAccepted")
	if status == "False" {
		return message
	}
	return ""
}

func conditionStatus(obj *unstructured.Unstructured, typ string) (status, message string) {
	conditions, _, _ := unstructured.NestedSlice(obj.Object, "status", "conditions")
	for _, c := range conditions {
		m, ok := c.(map[string]any)
		if !ok || m["type"] != typ {
			continue
		}
		status, _ = m["status"].(string)
		message, _ = m["message"].(string)
		return status, message
	}
	return "", ""
}
