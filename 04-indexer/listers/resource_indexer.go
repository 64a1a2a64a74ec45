// Mirrors k8s.io/client-go v0.37.2 listers/generic_helpers.go: ResourceIndexer,
// New, NewNamespaced. Generated listers (corev1listers.PodLister and
// friends) are thin wrappers over this type.

package listers

import (
	"fmt"

	"k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	indexer "informer-from-scratch/04-indexer"
)

// ResourceIndexer is a typed lister: an Indexer, the resource it holds (for
// NotFound errors) and, for a namespaced lister, the namespace.
type ResourceIndexer[T runtime.Object] struct {
	indexer   indexer.Indexer
	resource  schema.GroupResource
	namespace string // empty: every namespace, or a cluster-scoped resource
}

// New returns a lister of T over idx, across namespaces.
func New[T runtime.Object](idx indexer.Indexer, resource schema.GroupResource) ResourceIndexer[T] {
	return ResourceIndexer[T]{indexer: idx, resource: resource}
}

// NewNamespaced returns parent restricted to one namespace.
func NewNamespaced[T runtime.Object](parent ResourceIndexer[T], namespace string) ResourceIndexer[T] {
	return ResourceIndexer[T]{indexer: parent.indexer, resource: parent.resource, namespace: namespace}
}

// List returns the objects matching selector, in the lister's namespace if
// it has one. Treat them as read-only: they are the cached objects.
func (l ResourceIndexer[T]) List(selector labels.Selector) (ret []T, err error) {
	var convErr error
	err = indexer.ListAllByNamespace(l.indexer, l.namespace, selector, func(m interface{}) {
		t, ok := m.(T)
		if !ok {
			if convErr == nil {
				convErr = fmt.Errorf("cached item is a %T, not a %T", m, *new(T))
			}
			return
		}
		ret = append(ret, t)
	})
	if err == nil {
		err = convErr
	}
	return ret, err
}

// Get returns the object called name (in the lister's namespace, if any),
// or the API's NotFound error.
func (l ResourceIndexer[T]) Get(name string) (T, error) {
	key := name
	if l.namespace != "" {
		key = l.namespace + "/" + name
	}
	obj, exists, err := l.indexer.GetByKey(key)
	if err != nil {
		return *new(T), err
	}
	if !exists {
		return *new(T), errors.NewNotFound(l.resource, name)
	}
	t, ok := obj.(T)
	if !ok {
		return *new(T), fmt.Errorf("cached item %q is a %T, not a %T", key, obj, *new(T))
	}
	return t, nil
}
