// Mirrors k8s.io/client-go v0.37.2 dynamic/dynamiclister/interface.go: Lister,
// NamespaceLister.

package dynamiclister

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
)

// Lister lists and gets the objects of one resource.
type Lister interface {
	// List returns the objects, of every namespace, whose labels match
	// selector.
	List(selector labels.Selector) (ret []*unstructured.Unstructured, err error)
	// Get returns the object whose key is name: "namespace/name" for a
	// namespaced resource (or use Namespace(namespace).Get(name)).
	Get(name string) (*unstructured.Unstructured, error)
	// Namespace returns a lister of one namespace's objects.
	Namespace(namespace string) NamespaceLister
}

// NamespaceLister lists and gets the objects of one namespace.
type NamespaceLister interface {
	// List returns the namespace's objects whose labels match selector.
	List(selector labels.Selector) (ret []*unstructured.Unstructured, err error)
	// Get returns the namespace's object called name.
	Get(name string) (*unstructured.Unstructured, error)
}
