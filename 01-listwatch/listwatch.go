// Mirrors k8s.io/client-go v0.37.2 tools/cache/listwatch.go: the Lister and
// Watcher interfaces, ListWatch and its methods. The To...WithContext
// adapters are in adapters.go.

package listwatch

import (
	"context"
	"errors"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// ListerWithContext performs the initial LIST. The returned object is a list
// type (PodList, unstructured.UnstructuredList, ...): the caller extracts its
// Items and uses its ResourceVersion to start the watch at the right place.
type ListerWithContext interface {
	ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error)
}

// WatcherWithContext starts a WATCH at options.ResourceVersion. If it returns
// an error it must have cleaned up after itself (stopped any watch it
// created), so the caller can ignore the watch.
type WatcherWithContext interface {
	WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)
}

// ListerWatcherWithContext is what a Reflector needs: LIST, then WATCH.
type ListerWatcherWithContext interface {
	ListerWithContext
	WatcherWithContext
}

// Lister is the context-less form client-go keeps for compatibility.
//
// Deprecated: use ListerWithContext.
type Lister interface {
	List(options metav1.ListOptions) (runtime.Object, error)
}

// Watcher is the context-less form client-go keeps for compatibility.
//
// Deprecated: use WatcherWithContext.
type Watcher interface {
	Watch(options metav1.ListOptions) (watch.Interface, error)
}

// ListerWatcher is the context-less form that client-go's
// NewReflectorWithOptions still accepts; it converts it with
// ToListerWatcherWithContext straight away.
//
// Deprecated: use ListerWatcherWithContext.
type ListerWatcher interface {
	Lister
	Watcher
}

// ListWithContextFunc knows how to list resources.
type ListWithContextFunc func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error)

// WatchFuncWithContext knows how to watch resources. (The inconsistent word
// order is client-go's, kept so the names can be swapped one for one.)
type WatchFuncWithContext func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error)

// ListWatch turns two functions into a ListerWatcher. Both must be set: a
// missing one (or a nil *ListWatch) is an error when it is called (client-go
// panics on the nil function).
type ListWatch struct {
	ListWithContextFunc  ListWithContextFunc
	WatchFuncWithContext WatchFuncWithContext
}

var (
	_ ListerWatcherWithContext = &ListWatch{}
	_ ListerWatcher            = &ListWatch{}
)

// ListWithContext lists. It does not paginate: the Reflector above it runs
// the pager, and paginating here too would page twice.
func (lw *ListWatch) ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
	if lw == nil || lw.ListWithContextFunc == nil {
		return nil, errors.New("listwatch: the ListWatch has no ListWithContextFunc")
	}
	return lw.ListWithContextFunc(ctx, options)
}

// WatchWithContext starts a watch.
func (lw *ListWatch) WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
	if lw == nil || lw.WatchFuncWithContext == nil {
		return nil, errors.New("listwatch: the ListWatch has no WatchFuncWithContext")
	}
	return lw.WatchFuncWithContext(ctx, options)
}

// List is ListWithContext without a context.
//
// Deprecated: use ListWithContext.
func (lw *ListWatch) List(options metav1.ListOptions) (runtime.Object, error) {
	return lw.ListWithContext(context.Background(), options)
}

// Watch is WatchWithContext without a context.
//
// Deprecated: use WatchWithContext.
func (lw *ListWatch) Watch(options metav1.ListOptions) (watch.Interface, error) {
	return lw.WatchWithContext(context.Background(), options)
}
