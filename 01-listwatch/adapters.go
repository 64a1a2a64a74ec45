// Mirrors k8s.io/client-go v0.37.2 tools/cache/listwatch.go:
// ToListerWithContext, ToWatcherWithContext and ToListerWatcherWithContext,
// which turn the deprecated context-less interfaces into the context ones.

package listwatch

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// ToListerWithContext returns l itself if it has ListWithContext, and
// otherwise wraps its List so that the context is ignored.
func ToListerWithContext(l Lister) ListerWithContext {
	if l, ok := l.(ListerWithContext); ok {
		return l
	}
	return listerWrapper{parent: l}
}

type listerWrapper struct{ parent Lister }

func (l listerWrapper) ListWithContext(_ context.Context, options metav1.ListOptions) (runtime.Object, error) {
	return l.parent.List(options)
}

// ToWatcherWithContext returns w itself if it has WatchWithContext, and
// otherwise wraps its Watch so that the context is ignored.
func ToWatcherWithContext(w Watcher) WatcherWithContext {
	if w, ok := w.(WatcherWithContext); ok {
		return w
	}
	return watcherWrapper{parent: w}
}

type watcherWrapper struct{ parent Watcher }

func (w watcherWrapper) WatchWithContext(_ context.Context, options metav1.ListOptions) (watch.Interface, error) {
	return w.parent.Watch(options)
}

// ToListerWatcherWithContext returns lw itself if it has both context
// methods. Otherwise each half is converted on its own: a type with
// ListWithContext but no WatchWithContext lists with its context and
// watches without one.
func ToListerWatcherWithContext(lw ListerWatcher) ListerWatcherWithContext {
	if lw, ok := lw.(ListerWatcherWithContext); ok {
		return lw
	}
	return listerWatcherWrapper{
		ListerWithContext:  ToListerWithContext(lw),
		WatcherWithContext: ToWatcherWithContext(lw),
	}
}

type listerWatcherWrapper struct {
	ListerWithContext
	WatcherWithContext
}
