// Mirrors k8s.io/client-go v0.37.2 tools/pager/pager.go: ListPager, New,
// SimplePageFunc, List, ListWithAlloc and the expired-continue fallback.

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

const (
	defaultPageSize       = 500
	defaultPageBufferSize = 10
)

// ListPageFunc returns one page of a list for the given options.
type ListPageFunc func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)

// SimplePageFunc adapts a context-less list function.
func SimplePageFunc(fn func(opts metav1.ListOptions) (runtime.Object, error)) ListPageFunc {
	return func(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return fn(opts)
	}
}

// ListPager lists in pages of PageSize. It never changes the label or field
// selectors of the options it is given.
type ListPager struct {
	// PageSize is the limit of each request; 0 means one unpaginated LIST.
	PageSize int64
	PageFn   ListPageFunc
	// FullListIfExpired makes List fall back to one full LIST when the
	// continue token of page two or later has expired.
	FullListIfExpired bool
	// PageBufferSize is how many pages EachListItem fetches ahead of its
	// callback.
	PageBufferSize int32
}

// New returns a pager with client-go's defaults: pages of 500, fallback on
// expiry, ten pages of read-ahead.
func New(fn ListPageFunc) *ListPager {
	return &ListPager{
		PageSize:          defaultPageSize,
		PageFn:            fn,
		FullListIfExpired: true,
		PageBufferSize:    defaultPageBufferSize,
	}
}

// List returns the whole list, fetched page by page, and whether it took more
// than one page. If options.Limit is unset it defaults to PageSize.
//
// A single page is returned as the server sent it (a *v1.PodList, say);
// several pages are gathered into a *metainternalversion.List whose
// ResourceVersion is the first page's: the snapshot all pages came from.
func (p *ListPager) List(ctx context.Context, options metav1.ListOptions) (runtime.Object, bool, error) {
	return p.list(ctx, options, meta.EachListItem)
}

// ListWithAlloc is List, but copies each item out of the page's Items slice,
// so keeping one item does not keep a whole page of 500 alive. The Reflector
// uses it because its store keeps items for different lengths of time.
func (p *ListPager) ListWithAlloc(ctx context.Context, options metav1.ListOptions) (runtime.Object, bool, error) {
	return p.list(ctx, options, meta.EachListItemWithAlloc)
}

// eachItemFunc calls fn on every item of a list: meta.EachListItem, or
// meta.EachListItemWithAlloc, which copies each item out of the page.
type eachItemFunc func(obj runtime.Object, fn func(runtime.Object) error) error

// list is List and ListWithAlloc: it sends PageFn one request per page, each
// carrying the previous page's continue token, until a page comes without
// one, and gathers the items with eachItem. It reports paginated once a
// page came with a continue token, whatever happens after.
//
// Every request keeps the caller's options but for Limit (PageSize when the
// caller left it 0), Continue, and the resourceVersion: the first page asks
// for the caller's ResourceVersion and ResourceVersionMatch, later pages
// for none, since their token pins the first page's snapshot.
//
// A 410 Expired on page two or later (the token's snapshot was compacted)
// makes it fall back, when FullListIfExpired, to one unpaginated LIST with
// the caller's resourceVersion, whose answer (or error) it returns as is.
// Any other error is returned.
//
//lab:01
func (p *ListPager) list(ctx context.Context, options metav1.ListOptions, eachItem eachItemFunc) (runtime.Object, bool, error) {
	if options.Limit == 0 {
		options.Limit = p.PageSize
	}
	// Remember what the caller asked for: the fallback repeats it.
	requestedRV := options.ResourceVersion
	requestedRVMatch := options.ResourceVersionMatch
	var list *metainternalversion.List
	paginated := false

	for {
		if err := ctx.Err(); err != nil {
			return nil, paginated, err
		}
		obj, err := p.PageFn(ctx, options)
		if err != nil {
			// Fall back only when a continue token (page two or later) has
			// expired. An expired resourceVersion on the first page is the
			// caller's problem: the Reflector retries that one with RV="".
			if !apierrors.IsResourceExpired(err) || !p.FullListIfExpired || options.Continue == "" {
				return nil, paginated, err
			}
			options.Limit = 0
			options.Continue = ""
			options.ResourceVersion = requestedRV
			options.ResourceVersionMatch = requestedRVMatch
			result, err := p.PageFn(ctx, options)
			return result, paginated, err
		}
		m, err := meta.ListAccessor(obj)
		if err != nil {
			return nil, paginated, fmt.Errorf("returned object must be a list: %v", err)
		}
		// One page and no continue token: hand back the server's own object.
		if m.GetContinue() == "" && list == nil {
			return obj, paginated, nil
		}
		if list == nil {
			list = &metainternalversion.List{Items: make([]runtime.Object, 0, options.Limit+1)}
			list.ResourceVersion = m.GetResourceVersion()
			//lint:ignore SA1019 client-go's pager still copies SelfLink (always empty from today's servers); ours mirrors it.
			list.SelfLink = m.GetSelfLink()
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
		// The token already pins the snapshot; the server rejects a request
		// that carries both ("specifying resource version is not allowed
		// when using continue").
		options.ResourceVersion = ""
		options.ResourceVersionMatch = ""
		paginated = true
	}
}
