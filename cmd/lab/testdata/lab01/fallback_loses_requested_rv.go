//go:build ignore

// A plausible wrong answer to lab 01: on an expired continue token the pager
// falls back to one full LIST, but with the options as they stand on the
// failing page, whose resourceVersion was cleared for the token. The full
// list asks for "" (a quorum read of the newest data) instead of the
// resourceVersion the caller asked for.

package pager

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func (p *ListPager) list(ctx context.Context, options metav1.ListOptions, eachItem eachItemFunc) (runtime.Object, bool, error) {
	if options.Limit == 0 {
		options.Limit = p.PageSize
	}
	var list *metainternalversion.List
	paginated := false
	for {
		if err := ctx.Err(); err != nil {
			return nil, paginated, err
		}
		obj, err := p.PageFn(ctx, options)
		if err != nil {
			if !apierrors.IsResourceExpired(err) || !p.FullListIfExpired || options.Continue == "" {
				return nil, paginated, err
			}
			options.Limit = 0
			options.Continue = ""
			result, err := p.PageFn(ctx, options)
			return result, paginated, err
		}
		m, err := meta.ListAccessor(obj)
		if err != nil {
			return nil, paginated, fmt.Errorf("returned object must be a list: %v", err)
		}
		if m.GetContinue() == "" && list == nil {
			return obj, paginated, nil
		}
		if list == nil {
			list = &metainternalversion.List{}
			list.ResourceVersion = m.GetResourceVersion()
		}
		if err := eachItem(obj, func(item runtime.Object) error {
			list.Items = append(list.Items, item)
			return nil
		}); err != nil {
			return nil, paginated, err
		}
		if m.GetContinue() == "" {
			return list, paginated, nil
		}
		options.Continue = m.GetContinue()
		options.ResourceVersion = ""
		options.ResourceVersionMatch = ""
		paginated = true
	}
}
