// Mirrors k8s.io/client-go v0.37.2 tools/pager/pager.go: EachListItem,
// EachListItemWithAlloc, eachListChunkBuffered and eachListChunk.

package pager

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// EachListItem calls fn on every item, page by page, without ever holding the
// whole list: a background goroutine fetches up to PageBufferSize pages ahead
// while fn works. It stops at the first error from fn, from the server or
// from ctx. Unlike List, it does not fall back to a full list on an expired
// continue token: holding the whole list is what it exists to avoid.
func (p *ListPager) EachListItem(ctx context.Context, options metav1.ListOptions, fn func(obj runtime.Object) error) error {
	return p.eachListChunkBuffered(ctx, options, func(page runtime.Object) error {
		return meta.EachListItem(page, fn)
	})
}

// EachListItemWithAlloc is EachListItem with each item copied out of its page.
func (p *ListPager) EachListItemWithAlloc(ctx context.Context, options metav1.ListOptions, fn func(obj runtime.Object) error) error {
	return p.eachListChunkBuffered(ctx, options, func(page runtime.Object) error {
		return meta.EachListItemWithAlloc(page, fn)
	})
}

func (p *ListPager) eachListChunkBuffered(ctx context.Context, options metav1.ListOptions, fn func(page runtime.Object) error) error {
	if p.PageBufferSize < 0 {
		return fmt.Errorf("ListPager.PageBufferSize must be >= 0, got %d", p.PageBufferSize)
	}
	// Cancelling on return stops the fetcher when fn fails early.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	pages := make(chan runtime.Object, p.PageBufferSize)
	fetchErr := make(chan error, 1)
	go func() {
		defer utilruntime.HandleCrashWithContext(ctx)
		var err error
		defer func() {
			close(pages)
			fetchErr <- err
		}()
		err = p.eachListChunk(ctx, options, func(page runtime.Object) error {
			select {
			case pages <- page:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()

	for page := range pages {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(page); err != nil {
			return err
		}
	}
	return <-fetchErr
}

// eachListChunk hands fn every page of the list, in order, the last one
// included. The first request carries the caller's options (Limit set to
// PageSize when the caller left it 0), each later one the previous page's
// continue token. It returns the first error, from ctx (a cancelled context
// sends no request), PageFn or fn, or for an answer that is not a list, and
// nil once fn has taken the last page. It never falls back on an expired
// token: holding the whole list is List's business.
//
//lab:01
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
		if err := fn(obj); err != nil {
			return err
		}
		if m.GetContinue() == "" {
			return nil
		}
		options.Continue = m.GetContinue()
	}
}
