// Mirrors k8s.io/client-go v0.37.2 tools/cache/listers.go: AppendFunc,
// ListAll, ListAllByNamespace, GenericLister, GenericNamespaceLister,
// NewGenericLister.

package indexer

import (
	"errors"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// AppendFunc receives each object a list call selects.
type AppendFunc func(interface{})

// errNilSelector: client-go calls a method on the nil selector and panics.
var errNilSelector = errors.New("listers: the label selector is nil; pass labels.Everything() to select every object")

// ListAll calls appendFn on every stored object whose labels match selector.
//
// It is a scan: labels are not indexed, so a selector costs one label match
// per stored object. Only the namespace has an index (ListAllByNamespace).
// A nil selector is an error (client-go panics).
func ListAll(store Store, selector labels.Selector, appendFn AppendFunc) error {
	if selector == nil {
		return errNilSelector
	}
	if labels.MatchesNothing(selector) {
		return nil
	}
	return appendMatching(store.List(), selector, appendFn)
}

// appendMatching calls appendFn on each item whose labels match selector.
func appendMatching(items []interface{}, selector labels.Selector, appendFn AppendFunc) error {
	selectAll := selector.Empty()
	for _, m := range items {
		if selectAll {
			// No labels to look at: skip reading the metadata.
			appendFn(m)
			continue
		}
		metadata, err := meta.Accessor(m)
		if err != nil {
			return err
		}
		if selector.Matches(labels.Set(metadata.GetLabels())) {
			appendFn(m)
		}
	}
	return nil
}

// ListAllByNamespace calls appendFn on every object in namespace whose labels
// match selector. It reads the NamespaceIndex bucket, so it visits only that
// namespace's objects; without that index it falls back to a full scan
// (client-go also logs a warning there; we have no logger). An empty
// namespace means every namespace: ListAll. A nil selector is an error
// (client-go panics).
func ListAllByNamespace(indexer Indexer, namespace string, selector labels.Selector, appendFn AppendFunc) error {
	if selector == nil {
		return errNilSelector
	}
	if labels.MatchesNothing(selector) {
		return nil
	}
	if namespace == metav1.NamespaceAll {
		return ListAll(indexer, selector, appendFn)
	}
	items, err := indexer.Index(NamespaceIndex, &metav1.ObjectMeta{Namespace: namespace})
	if err != nil {
		// No namespace index: the slow way, checking every object.
		for _, m := range indexer.List() {
			metadata, err := meta.Accessor(m)
			if err != nil {
				return err
			}
			if metadata.GetNamespace() == namespace && selector.Matches(labels.Set(metadata.GetLabels())) {
				appendFn(m)
			}
		}
		return nil
	}
	return appendMatching(items, selector, appendFn)
}

// GenericLister lists and gets objects of one resource from an Indexer:
// answers from memory, never from the server.
type GenericLister interface {
	// List returns the objects, across namespaces, matching selector.
	List(selector labels.Selector) (ret []runtime.Object, err error)
	// Get returns the object whose key is name: for a namespaced resource,
	// name must be "namespace/name" (or use ByNamespace).
	Get(name string) (runtime.Object, error)
	// ByNamespace returns a lister restricted to one namespace.
	ByNamespace(namespace string) GenericNamespaceLister
}

// GenericNamespaceLister lists and gets objects in one namespace.
type GenericNamespaceLister interface {
	// List returns the objects in the namespace matching selector.
	List(selector labels.Selector) (ret []runtime.Object, err error)
	// Get returns the object called name in the namespace.
	Get(name string) (runtime.Object, error)
}

// NewGenericLister returns a GenericLister over indexer. resource names the
// resource in NotFound errors.
func NewGenericLister(indexer Indexer, resource schema.GroupResource) GenericLister {
	return &genericLister{indexer: indexer, resource: resource}
}

type genericLister struct {
	indexer  Indexer
	resource schema.GroupResource
}

// List returns an error where client-go panics: on a cached item that is
// not a runtime.Object.
func (s *genericLister) List(selector labels.Selector) (ret []runtime.Object, err error) {
	var convErr error
	err = ListAll(s.indexer, selector, func(m interface{}) {
		ret, convErr = appendObject(ret, m, convErr)
	})
	if err == nil {
		err = convErr
	}
	return ret, err
}

func (s *genericLister) ByNamespace(namespace string) GenericNamespaceLister {
	return &genericNamespaceLister{indexer: s.indexer, namespace: namespace, resource: s.resource}
}

func (s *genericLister) Get(name string) (runtime.Object, error) {
	return getObject(s.indexer, name, name, s.resource)
}

type genericNamespaceLister struct {
	indexer   Indexer
	namespace string
	resource  schema.GroupResource
}

func (s *genericNamespaceLister) List(selector labels.Selector) (ret []runtime.Object, err error) {
	var convErr error
	err = ListAllByNamespace(s.indexer, s.namespace, selector, func(m interface{}) {
		ret, convErr = appendObject(ret, m, convErr)
	})
	if err == nil {
		err = convErr
	}
	return ret, err
}

func (s *genericNamespaceLister) Get(name string) (runtime.Object, error) {
	return getObject(s.indexer, s.namespace+"/"+name, name, s.resource)
}

// appendObject appends m if it is a runtime.Object, and otherwise records
// the first such failure.
func appendObject(ret []runtime.Object, m interface{}, firstErr error) ([]runtime.Object, error) {
	obj, ok := m.(runtime.Object)
	if !ok {
		if firstErr == nil {
			firstErr = fmt.Errorf("cached item is a %T, not a runtime.Object", m)
		}
		return ret, firstErr
	}
	return append(ret, obj), firstErr
}

// getObject looks key up and turns "absent" into the API's NotFound error,
// so callers handle a cache miss like a server 404.
func getObject(indexer Indexer, key, name string, resource schema.GroupResource) (runtime.Object, error) {
	obj, exists, err := indexer.GetByKey(key)
	if err != nil {
		return nil, err
	}
	if !exists {
		return nil, apierrors.NewNotFound(resource, name)
	}
	ro, ok := obj.(runtime.Object)
	if !ok {
		return nil, fmt.Errorf("cached item %q is a %T, not a runtime.Object", key, obj)
	}
	return ro, nil
}
