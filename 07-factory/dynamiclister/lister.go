// Mirrors k8s.io/client-go v0.37.2 dynamic/dynamiclister/lister.go: New,
// dynamicLister, dynamicNamespaceLister.

package dynamiclister

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	indexer "informer-from-scratch/04-indexer"
	"informer-from-scratch/04-indexer/listers"
)

var (
	_ Lister          = &dynamicLister{}
	_ NamespaceLister = &dynamicNamespaceLister{}
)

// New returns a Lister of gvr's objects in idx. It is stage 04's typed
// lister (listers.ResourceIndexer) for *unstructured.Unstructured, so an
// item of another type is an error where client-go's type assertion
// panics.
func New(idx indexer.Indexer, gvr schema.GroupVersionResource) Lister {
	return &dynamicLister{listers.New[*unstructured.Unstructured](idx, gvr.GroupResource())}
}

// dynamicLister's List and Get are ResourceIndexer's: with no namespace
// it lists the whole cache (client-go's calls cache.ListAll) and gets by
// key, and a namespaced one reads the namespace index's bucket (client-go's
// calls cache.ListAllByNamespace) and gets "namespace/name".
type dynamicLister struct {
	listers.ResourceIndexer[*unstructured.Unstructured]
}

// Namespace returns a lister of one namespace's objects.
func (l *dynamicLister) Namespace(namespace string) NamespaceLister {
	return &dynamicNamespaceLister{listers.NewNamespaced(l.ResourceIndexer, namespace)}
}

type dynamicNamespaceLister struct {
	listers.ResourceIndexer[*unstructured.Unstructured]
}
