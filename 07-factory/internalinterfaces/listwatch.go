// Not a mirror of one client-go file: what every generated informer of
// client-go v0.37.2 (informers/core/v1/pod.go's NewTypedPodInformerWithOptions
// and its kin) and dynamic/dynamicinformer/informer.go's
// NewFilteredDynamicInformer write out in full, in one place: a ListWatch
// whose two calls apply the tweak first, wrapped with
// ToListWatcherWithWatchListSemantics so that a fake clientset opts out of
// WatchList.

package internalinterfaces

import (
	"context"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	listwatch "informer-from-scratch/01-listwatch"
	"informer-from-scratch/internal/nilpointer"
)

// ErrNilClient is what the LIST and WATCH of an informer built with a nil
// client return. client-go's call the nil client and crash the process in
// the reflector's goroutine; ours fail like any unreachable server: the
// reflector reports the error (utilruntime.HandleError) and retries with
// its backoff, and the informer never syncs.
var ErrNilClient = errors.New("the informer's client is nil: pass a clientset to the factory or the informer's constructor")

// NewListWatch returns the ListerWatcher of one resource's informer: list
// and watch, each called with the tweaked options, and WatchList left to
// the reflector unless client says it cannot stream (client is the
// clientset list and watch use: the kubernetes or dynamic clientset, or
// their fakes). what names the resource in the nil-client error.
func NewListWatch(client any, what string, tweak TweakListOptionsFunc, list listwatch.ListWithContextFunc, watchFunc listwatch.WatchFuncWithContext) listwatch.ListerWatcher {
	nilClient := isNil(client)
	semanticsOf := client
	if nilClient {
		semanticsOf = nil // a nil fake's method would dereference it
	}
	return listwatch.ToListWatcherWithWatchListSemantics(&listwatch.ListWatch{
		ListWithContextFunc: func(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
			if nilClient {
				return nil, fmt.Errorf("listing %s: %w", what, ErrNilClient)
			}
			if tweak != nil {
				tweak(&options)
			}
			return list(ctx, options)
		},
		WatchFuncWithContext: func(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
			if nilClient {
				return nil, fmt.Errorf("watching %s: %w", what, ErrNilClient)
			}
			if tweak != nil {
				tweak(&options)
			}
			return watchFunc(ctx, options)
		},
	}, semanticsOf)
}

// isNil reports whether client is nil, or an interface holding a nil
// pointer (a nil *kubernetes.Clientset passed as a kubernetes.Interface).
func isNil(client any) bool {
	return client == nil || nilpointer.Is(client)
}
