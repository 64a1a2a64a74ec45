// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go: list and
// syncWith. The pages are fetched by stage 01's pager (tools/pager/pager.go).

package reflector

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"informer-from-scratch/01-listwatch/pager"
)

// list LISTs the resource and replaces the store's content with the result.
//
// Which resourceVersion it asks for is relistResourceVersion's business;
// whether it pages is decided here:
//   - WatchListPageSize, if the user set it;
//   - pages of 500 if the first list ("0") came back in pages: the watch
//     cache is off, every list goes to etcd anyway, and pages are kinder;
//   - no pages for a relist at a specific resourceVersion: the watch cache
//     only serves such a list when it has no limit, and a thousand
//     reflectors relisting from etcd at once (say, after an apiserver
//     upgrade) is the thundering herd the cache exists to prevent;
//   - otherwise the pager's 500 ("0" is served from the cache anyway, and
//     "" is a consistent read from etcd that should be paged).
//
// A LIST the server cannot serve at that resourceVersion (410 Expired, or
// too large) is retried at once at "", and every LIST asks for "" from then
// on until one succeeds: the next round's too, when the retry fails. The
// list's own resourceVersion becomes the last synced one once the store took
// the items.
//
// An answer it cannot use (a Table, something that is not a list or holds
// no items) fails the round with an error, as does a store that refuses the
// items; the last synced resourceVersion then stays where it was. It returns
// nil without touching the store if ctx is cancelled.
//
//lab:02
func (r *Reflector) list(ctx context.Context) error {
	options := metav1.ListOptions{ResourceVersion: r.relistResourceVersion()}
	p := pager.New(func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		return r.listerWatcher.ListWithContext(ctx, opts)
	})
	switch {
	case r.WatchListPageSize != 0:
		p.PageSize = r.WatchListPageSize
	case r.paginatedResult:
	case options.ResourceVersion != "" && options.ResourceVersion != "0":
		p.PageSize = 0
	}

	list, paginatedResult, err := p.ListWithAlloc(ctx, options)
	if isExpiredError(err) || isTooLargeResourceVersionError(err) {
		// The server cannot list at that resourceVersion: it was compacted
		// (or the server's cache has not reached it yet). Ask for the
		// newest data straight away; waiting would not make it come back.
		r.setIsLastSyncResourceVersionUnavailable(true)
		list, paginatedResult, err = p.ListWithAlloc(ctx, metav1.ListOptions{ResourceVersion: r.relistResourceVersion()})
	}
	if err == nil {
		if unsupported, gvk := isUnsupportedTableListObject(list); unsupported {
			err = fmt.Errorf("unsupported list gvk: %v, type: %v", gvk, r.typeDescription)
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return fmt.Errorf("failed to list %v: %w", r.typeDescription, err)
	}

	// Only the first list ("0") says anything about the watch cache: a
	// relist at "" is always paged by etcd, even when the cache is on.
	if options.ResourceVersion == "0" && paginatedResult {
		r.paginatedResult = true
	}
	r.setIsLastSyncResourceVersionUnavailable(false)

	listMeta, err := meta.ListAccessor(list)
	if err != nil {
		return fmt.Errorf("unable to understand list result %#v: %v", list, err)
	}
	resourceVersion := listMeta.GetResourceVersion()
	items, err := meta.ExtractListWithAlloc(list)
	if err != nil {
		return fmt.Errorf("unable to understand list result %#v (%v)", list, err)
	}
	if err := r.syncWith(items, resourceVersion); err != nil {
		return fmt.Errorf("unable to sync list result: %v", err)
	}
	r.setLastSyncResourceVersion(resourceVersion)
	return nil
}

// syncWith replaces the store's content with items, at resourceVersion.
func (r *Reflector) syncWith(items []runtime.Object, resourceVersion string) error {
	found := make([]any, 0, len(items))
	for _, item := range items {
		found = append(found, item)
	}
	return r.store.Replace(found, resourceVersion)
}
