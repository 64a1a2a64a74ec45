// Mirrors k8s.io/client-go v0.37.2 tools/cache/listwatch.go: Getter,
// NewListWatchFromClient and NewFilteredListWatchFromClient.

package listwatch

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
)

// Getter is the part of a REST client a ListWatch needs: a GET request
// builder. client.CoreV1().RESTClient() is one.
type Getter interface {
	Get() *rest.Request
}

// NewListWatchFromClient lists and watches one resource in one namespace
// (metav1.NamespaceAll for every namespace), filtered by a field selector. A
// nil selector selects everything (client-go panics on it).
func NewListWatchFromClient(c Getter, resource string, namespace string, fieldSelector fields.Selector) *ListWatch {
	if fieldSelector == nil {
		fieldSelector = fields.Everything()
	}
	optionsModifier := func(options *metav1.ListOptions) {
		options.FieldSelector = fieldSelector.String()
	}
	return NewFilteredListWatchFromClient(c, resource, namespace, optionsModifier)
}

// NewFilteredListWatchFromClient lists and watches one resource in one
// namespace; optionsModifier may set a label selector, a field selector, or
// anything else on every request's ListOptions.
//
// Both requests are GETs on the same collection URL, for example
// /api/v1/namespaces/demo/pods. What makes the second a watch is the query:
// watch=true, plus the resourceVersion to start from.
//
// A nil optionsModifier changes nothing (client-go panics on it).
func NewFilteredListWatchFromClient(c Getter, resource string, namespace string, optionsModifier func(options *metav1.ListOptions)) *ListWatch {
	if optionsModifier == nil {
		optionsModifier = func(*metav1.ListOptions) {}
	}
	list := func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
		optionsModifier(&options)
		return c.Get().
			Namespace(namespace).
			Resource(resource).
			VersionedParams(&options, metav1.ParameterCodec).
			Do(ctx).
			Get()
	}
	watchFunc := func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
		options.Watch = true
		optionsModifier(&options)
		return c.Get().
			Namespace(namespace).
			Resource(resource).
			VersionedParams(&options, metav1.ParameterCodec).
			Watch(ctx)
	}
	return &ListWatch{ListWithContextFunc: list, WatchFuncWithContext: watchFunc}
}
