// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go:
// getTypeDescriptionFromObject, getExpectedGVKFromObject,
// isUnsupportedTableObject and isUnsupportedTableListObject.

package reflector

import (
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	metav1beta1 "k8s.io/apimachinery/pkg/apis/meta/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

const defaultExpectedTypeName = "<unspecified>"

// typeDescriptionOf names what the reflector expects: the GVK of an
// unstructured example that has one, otherwise its Go type.
func typeDescriptionOf(expectedType any) string {
	if expectedType == nil {
		return defaultExpectedTypeName
	}
	description := reflect.TypeOf(expectedType).String()
	obj, ok := expectedType.(*unstructured.Unstructured)
	if !ok {
		return description
	}
	if gvk := obj.GroupVersionKind(); !gvk.Empty() {
		return gvk.String()
	}
	return description
}

// expectedGVKOf returns the GVK to check events against. Only unstructured
// objects need it: for them the Go type says nothing about the kind.
func expectedGVKOf(expectedType any) *schema.GroupVersionKind {
	obj, ok := expectedType.(*unstructured.Unstructured)
	if !ok {
		return nil
	}
	gvk := obj.GroupVersionKind()
	if gvk.Empty() {
		return nil
	}
	return &gvk
}

// Table is what the server returns when asked for the kubectl-style table
// format (Accept: as=Table). A reflector cannot store rows of a table.
var unsupportedTableGVK = map[schema.GroupVersionKind]bool{
	metav1beta1.SchemeGroupVersion.WithKind("Table"): true,
	metav1.SchemeGroupVersion.WithKind("Table"):      true,
}

func isUnsupportedTableObject(obj runtime.Object) bool {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok || u.GetKind() != "Table" {
		return false
	}
	return unsupportedTableGVK[obj.GetObjectKind().GroupVersionKind()]
}

func isUnsupportedTableListObject(obj runtime.Object) (bool, schema.GroupVersionKind) {
	u, ok := obj.(*unstructured.UnstructuredList)
	if !ok {
		return false, schema.GroupVersionKind{}
	}
	gvk := u.GetObjectKind().GroupVersionKind()
	return unsupportedTableGVK[gvk], gvk
}
