//go:build ignore

// A plausible wrong answer to lab 01: eachListChunk looks at the continue
// token before handing the page on, and stops when it is empty, so the last
// page (the only one, for a short list) never reaches fn.

package pager

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func (p *ListPager) eachListChunk(ctx context.Context, options metav1.ListOptions, fn func(page runtime.Object) error) error {
	if options.Limit == 0 {
		options.Limit = p.PageSize
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		obj, err := p.PageFn(ctx, options)
		if err != nil {
			return err
		}
		m, err := meta.ListAccessor(obj)
		if err != nil {
			return fmt.Errorf("returned object must be a list: %v", err)
		}
		if m.GetContinue() == "" {
			return nil
		}
		if err := fn(obj); err != nil {
			return err
		}
		options.Continue = m.GetContinue()
	}
}
