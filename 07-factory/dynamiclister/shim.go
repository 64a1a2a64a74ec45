// Mirrors k8s.io/client-go v0.37.2 dynamic/dynamiclister/shim.go:
// NewRuntimeObjectShim, dynamicListerShim, dynamicNamespaceListerShim.

package dynamiclister

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	indexer "informer-from-scratch/04-indexer"
)

var (
	_ indexer.GenericLister          = &dynamicListerShim{}
	_ indexer.GenericNamespaceLister = &dynamicNamespaceListerShim{}
)

// NewRuntimeObjectShim views a Lister as a GenericLister (the lister of
// every GenericInformer), whose objects are runtime.Objects.
func NewRuntimeObjectShim(lister Lister) indexer.GenericLister {
	return &dynamicListerShim{lister: lister}
}

type dynamicListerShim struct {
	lister Lister
}

func (s *dynamicListerShim) List(selector labels.Selector) ([]runtime.Object, error) {
	objs, err := s.lister.List(selector)
	if err != nil {
		return nil, err
	}
	return asObjects(objs), nil
}

// Get returns a nil runtime.Object with its error (client-go's returns a
// non-nil interface holding a nil *Unstructured).
func (s *dynamicListerShim) Get(name string) (runtime.Object, error) {
	return asObject(s.lister.Get(name))
}

func (s *dynamicListerShim) ByNamespace(namespace string) indexer.GenericNamespaceLister {
	return &dynamicNamespaceListerShim{namespaceLister: s.lister.Namespace(namespace)}
}

type dynamicNamespaceListerShim struct {
	namespaceLister NamespaceLister
}

func (s *dynamicNamespaceListerShim) List(selector labels.Selector) ([]runtime.Object, error) {
	objs, err := s.namespaceLister.List(selector)
	if err != nil {
		return nil, err
	}
	return asObjects(objs), nil
}

func (s *dynamicNamespaceListerShim) Get(name string) (runtime.Object, error) {
	return asObject(s.namespaceLister.Get(name))
}

func asObject(obj *unstructured.Unstructured, err error) (runtime.Object, error) {
	if err != nil {
		return nil, err
	}
	return obj, nil
}

func asObjects(objs []*unstructured.Unstructured) []runtime.Object {
	ret := make([]runtime.Object, len(objs))
	for i, obj := range objs {
		ret[i] = obj
	}
	return ret
}
