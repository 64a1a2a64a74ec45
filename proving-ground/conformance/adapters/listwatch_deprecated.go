//go:build conformance

// client-go's ListWatch with its deprecated context-less fields, ListFunc
// and WatchFunc, which stage 01's leaves out (01-listwatch/doc.go). Several
// of client-go's tests still fill them in: the reflector's (stage 02) and
// TestUpdate (stage 06). proving-ground/conformance adds this file to package
// listwatch (as an ordinary file, for the run only) and those stages'
// adapters name it: ListWatch itself in stage 02, where nothing else has
// the name; in stage 06, whose ListWatch is stage 01's by alias, the type
// the runner points the tests' ListWatch at (stages.go, types). Compiled
// only there: the build tag keeps every ordinary build away from it.

package listwatch

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// ConformanceListWatch hands each call to a stage 01 ListWatch, calling
// ListFunc or WatchFunc when the context form is not set, as client-go's
// does.
type ConformanceListWatch struct {
	ListFunc             func(options metav1.ListOptions) (runtime.Object, error)
	WatchFunc            func(options metav1.ListOptions) (watch.Interface, error)
	ListWithContextFunc  ListWithContextFunc
	WatchFuncWithContext WatchFuncWithContext
}

func (lw *ConformanceListWatch) ours() *ListWatch {
	ours := &ListWatch{ListWithContextFunc: lw.ListWithContextFunc, WatchFuncWithContext: lw.WatchFuncWithContext}
	if ours.ListWithContextFunc == nil && lw.ListFunc != nil {
		ours.ListWithContextFunc = func(_ context.Context, options metav1.ListOptions) (runtime.Object, error) {
			return lw.ListFunc(options)
		}
	}
	if ours.WatchFuncWithContext == nil && lw.WatchFunc != nil {
		ours.WatchFuncWithContext = func(_ context.Context, options metav1.ListOptions) (watch.Interface, error) {
			return lw.WatchFunc(options)
		}
	}
	return ours
}

func (lw *ConformanceListWatch) List(options metav1.ListOptions) (runtime.Object, error) {
	return lw.ours().List(options)
}

func (lw *ConformanceListWatch) Watch(options metav1.ListOptions) (watch.Interface, error) {
	return lw.ours().Watch(options)
}

func (lw *ConformanceListWatch) ListWithContext(ctx context.Context, options metav1.ListOptions) (runtime.Object, error) {
	return lw.ours().ListWithContext(ctx, options)
}

func (lw *ConformanceListWatch) WatchWithContext(ctx context.Context, options metav1.ListOptions) (watch.Interface, error) {
	return lw.ours().WatchWithContext(ctx, options)
}
