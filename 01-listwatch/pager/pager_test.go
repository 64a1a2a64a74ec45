package pager_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgopager "k8s.io/client-go/tools/pager"

	"informer-from-scratch/01-listwatch/pager"
)

// server is a scripted apiserver for one collection of pods: it serves pages
// by limit and continue token (the token is simply the index of the next
// item), records the options of every request, and fails the requests the
// test tells it to.
type server struct {
	pods     []corev1.Pod
	rv       string
	failAt   map[int]error // request number (from 0) → error to return
	notAList map[int]bool  // request number → answer with a Pod instead of a list
	// noItems: request number → answer with a Status, which carries list
	// metadata (the resourceVersion, the next continue token) but no items.
	noItems map[int]bool
	// pageWithoutLimit, if not 0, is the page size the server chooses for
	// a request without a limit (an apiserver does not page those; the
	// pager must not assume it).
	pageWithoutLimit int
	mu               sync.Mutex // guards calls: EachListItem requests from a goroutine
	calls            []metav1.ListOptions
}

// maxRequests bounds the requests one scripted server answers; no scenario
// needs more than a handful.
const maxRequests = 1000

func newServer(n int) *server {
	s := &server{rv: "100", failAt: map[int]error{}, notAList: map[int]bool{}, noItems: map[int]bool{}}
	for i := range n {
		s.pods = append(s.pods, corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			Namespace: "ns", Name: fmt.Sprintf("pod-%02d", i), ResourceVersion: strconv.Itoa(10 + i),
		}})
	}
	return s
}

func (s *server) list(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	call := len(s.calls)
	if call >= maxRequests {
		// A pager that never stops asking (a token it does not send back)
		// fails here, at once, instead of growing its list until the
		// test's timeout or the machine's memory ends it.
		return nil, fmt.Errorf("the scripted server answers %d requests and no more: does the pager send each page's continue token back?", maxRequests)
	}
	s.calls = append(s.calls, opts)
	if err := s.failAt[call]; err != nil {
		return nil, err
	}
	if s.notAList[call] {
		return &corev1.Pod{}, nil
	}
	start := 0
	if opts.Continue != "" {
		start, _ = strconv.Atoi(opts.Continue)
	}
	limit := int(opts.Limit)
	if limit == 0 {
		limit = s.pageWithoutLimit
	}
	end := len(s.pods)
	if limit > 0 && start+limit < end {
		end = start + limit
	}
	//lint:ignore SA1019 client-go's pager copies the first page's SelfLink into a gathered list; the tests check ours does.
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: s.rv, SelfLink: "/api/v1/namespaces/ns/pods"}}
	list.Items = append(list.Items, s.pods[start:end]...)
	if end < len(s.pods) {
		list.Continue = strconv.Itoa(end)
	}
	if s.noItems[call] {
		return &metav1.Status{ListMeta: list.ListMeta}, nil
	}
	return list, nil
}

// requests is the options of every request so far.
func (s *server) requests() []metav1.ListOptions {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

var expired = apierrors.NewResourceExpired("The provided continue parameter is too old")

// outcome is what one List call produced, in a form both sides share:
// Result sums the returned object up in one line (its Go type, its
// resourceVersion and continue token, its items' names), so that a
// difference reads at a glance; object is the object itself, compared in
// full once the summaries agree.
type outcome struct {
	Result    string
	Paginated bool
	Err       string
	Calls     []metav1.ListOptions
	object    runtime.Object
}

// summary is a list in one line: "*v1.PodList rv=100 [pod-00 pod-01]".
func summary(obj runtime.Object) string {
	if obj == nil {
		return "nil"
	}
	m, err := meta.ListAccessor(obj)
	if err != nil {
		return fmt.Sprintf("%T (not a list)", obj)
	}
	s := fmt.Sprintf("%T rv=%s", obj, m.GetResourceVersion())
	if m.GetContinue() != "" {
		s += " continue=" + m.GetContinue()
	}
	var names []string
	_ = meta.EachListItem(obj, func(item runtime.Object) error {
		if im, err := meta.Accessor(item); err == nil {
			names = append(names, im.GetName())
		}
		return nil
	})
	return s + fmt.Sprintf(" %v", names)
}

type listCase struct {
	name     string
	pods     int
	pageSize int64
	noRetry  bool // FullListIfExpired=false
	opts     metav1.ListOptions
	script   func(s *server)
	cancel   bool
}

func listCases() []listCase {
	return []listCase{
		{name: "one page, returned as the server's own list", pods: 3, pageSize: 10},
		{name: "several pages gathered into one list", pods: 7, pageSize: 3},
		{name: "page size 0 means one unpaginated request", pods: 7, pageSize: 0},
		{name: "an explicit limit wins over the page size", pods: 7, pageSize: 3, opts: metav1.ListOptions{Limit: 5}},
		{name: "selectors are kept on every page", pods: 5, pageSize: 2,
			opts: metav1.ListOptions{LabelSelector: "app=web", FieldSelector: "spec.nodeName=n1"}},
		{name: "resourceVersion and match are cleared after the first page", pods: 5, pageSize: 2,
			opts: metav1.ListOptions{ResourceVersion: "90", ResourceVersionMatch: metav1.ResourceVersionMatchExact}},
		{name: "expired continue token falls back to one full list at the requested RV", pods: 7, pageSize: 3,
			opts:   metav1.ListOptions{ResourceVersion: "90", ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan},
			script: func(s *server) { s.failAt[2] = expired }},
		{name: "expired continue token without fallback is an error", pods: 7, pageSize: 3, noRetry: true,
			script: func(s *server) { s.failAt[1] = expired }},
		{name: "expired on the first page is returned, not retried", pods: 7, pageSize: 3,
			opts:   metav1.ListOptions{ResourceVersion: "5"},
			script: func(s *server) { s.failAt[0] = expired }},
		{name: "other errors on a later page are returned", pods: 7, pageSize: 3,
			script: func(s *server) { s.failAt[1] = apierrors.NewInternalError(errors.New("etcd hiccup")) }},
		{name: "a fallback that fails too returns its error", pods: 7, pageSize: 3,
			script: func(s *server) { s.failAt[1] = expired; s.failAt[2] = apierrors.NewTooManyRequests("slow down", 1) }},
		{name: "an answer that is not a list is an error", pods: 3, pageSize: 2,
			script: func(s *server) { s.notAList[1] = true }},
		{name: "a page with list metadata but no items is an error", pods: 7, pageSize: 3,
			script: func(s *server) { s.noItems[1] = true }},
		{name: "a server that pages a request without a limit is followed to the end", pods: 7, pageSize: 0,
			script: func(s *server) { s.pageWithoutLimit = 3 }},
		{name: "a cancelled context stops before the first request", pods: 3, pageSize: 2, cancel: true},
	}
}

// TestListMatchesClientGo runs every case through client-go's pager and ours
// against identical scripted servers and compares results, errors and the
// options each request carried.
func TestListMatchesClientGo(t *testing.T) {
	for _, tc := range listCases() {
		t.Run(tc.name, func(t *testing.T) {
			var diffs [2]string
			for i, alloc := range []bool{false, true} {
				want := runList(tc, func(fn func(context.Context, metav1.ListOptions) (runtime.Object, error)) lister {
					p := clientgopager.New(fn)
					p.PageSize, p.FullListIfExpired = tc.pageSize, !tc.noRetry
					return pick(alloc, p.List, p.ListWithAlloc)
				})
				got := runList(tc, func(fn func(context.Context, metav1.ListOptions) (runtime.Object, error)) lister {
					p := pager.New(fn)
					p.PageSize, p.FullListIfExpired = tc.pageSize, !tc.noRetry
					return pick(alloc, p.List, p.ListWithAlloc)
				})
				diffs[i] = cmp.Diff(want, got, cmpopts.IgnoreUnexported(outcome{}))
				if diffs[i] == "" {
					if d := cmp.Diff(want.object, got.object); d != "" {
						diffs[i] = "the same list in summary, but not the same objects:\n" + d
					}
				}
			}
			// List and ListWithAlloc differ only in how items are copied:
			// one wrong answer usually shows the same way in both.
			switch {
			case diffs[0] != "" && diffs[0] == diffs[1]:
				t.Errorf("List and ListWithAlloc (-client-go +ours):\n%s", diffs[0])
			default:
				for i, name := range []string{"List", "ListWithAlloc"} {
					if diffs[i] != "" {
						t.Errorf("%s (-client-go +ours):\n%s", name, diffs[i])
					}
				}
			}
		})
	}
}

type lister func(context.Context, metav1.ListOptions) (runtime.Object, bool, error)

func pick(alloc bool, list, withAlloc lister) lister {
	if alloc {
		return withAlloc
	}
	return list
}

func runList(tc listCase, build func(func(context.Context, metav1.ListOptions) (runtime.Object, error)) lister) outcome {
	s := newServer(tc.pods)
	if tc.script != nil {
		tc.script(s)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if tc.cancel {
		cancel()
	}
	obj, paginated, err := build(s.list)(ctx, tc.opts)
	o := outcome{Result: summary(obj), Paginated: paginated, Calls: s.requests(), object: obj}
	if err != nil {
		o.Err = err.Error()
	}
	return o
}

// TestEachListItemMatchesClientGo compares the streaming iteration: the items
// fn sees, the error, and the requests, including fn failing half-way.
func TestEachListItemMatchesClientGo(t *testing.T) {
	stopAt := errors.New("stop here")
	cases := []struct {
		name       string
		pods       int
		bufferSize int32
		failFnAt   int // stop after this many items; -1 never
		script     func(s *server)
		cancel     bool // the context is cancelled before the call
	}{
		{name: "all items of all pages", pods: 7, bufferSize: 2, failFnAt: -1},
		{name: "no read-ahead buffer", pods: 7, bufferSize: 0, failFnAt: -1},
		{name: "fn error stops the iteration", pods: 7, bufferSize: 0, failFnAt: 4},
		{name: "expired continue is returned, no fallback", pods: 7, bufferSize: 1, failFnAt: -1,
			script: func(s *server) { s.failAt[1] = expired }},
		{name: "negative buffer size is an error", pods: 3, bufferSize: -1, failFnAt: -1},
		{name: "an answer that is not a list is an error", pods: 7, bufferSize: 1, failFnAt: -1,
			script: func(s *server) { s.notAList[1] = true }},
		{name: "a cancelled context stops before the first request", pods: 7, bufferSize: 1, failFnAt: -1, cancel: true},
	}
	type result struct {
		Items []string
		Err   string
		Calls int
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := func(each func(s *server) func(context.Context, metav1.ListOptions, func(runtime.Object) error) error) result {
				s := newServer(tc.pods)
				if tc.script != nil {
					tc.script(s)
				}
				var r result
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tc.cancel {
					cancel()
				}
				err := each(s)(ctx, metav1.ListOptions{}, func(obj runtime.Object) error {
					if len(r.Items) == tc.failFnAt {
						return stopAt
					}
					r.Items = append(r.Items, obj.(*corev1.Pod).Name)
					return nil
				})
				if err != nil {
					r.Err = err.Error()
				}
				// With read-ahead the number of requests made before fn
				// failed depends on scheduling; compare it only when the
				// iteration ran to its end.
				if tc.failFnAt < 0 {
					r.Calls = len(s.requests())
				}
				return r
			}
			want := run(func(s *server) func(context.Context, metav1.ListOptions, func(runtime.Object) error) error {
				p := clientgopager.New(s.list)
				p.PageSize, p.PageBufferSize = 3, tc.bufferSize
				return p.EachListItem
			})
			got := run(func(s *server) func(context.Context, metav1.ListOptions, func(runtime.Object) error) error {
				p := pager.New(s.list)
				p.PageSize, p.PageBufferSize = 3, tc.bufferSize
				return p.EachListItem
			})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-client-go +ours)\n%s", diff)
			}
		})
	}
}

// TestEachListItemReportsACancelWhileTheLastPageWaits: the context is
// cancelled while the last page, fetched ahead, waits for the caller's
// function to take it. The page is never handed over, and EachListItem
// must say why (the context's error), not report a complete iteration.
// In a synctest bubble, so that the fetcher is known to wait at the moment
// of the cancel.
func TestEachListItemReportsACancelWhileTheLastPageWaits(t *testing.T) {
	type result struct {
		Items []string
		Err   string
		Calls int
	}
	run := func(newPager func(pager.ListPageFunc) func(context.Context, metav1.ListOptions, func(runtime.Object) error) error) result {
		var r result
		synctest.Test(t, func(t *testing.T) {
			s := newServer(6) // two pages of 3
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			err := newPager(s.list)(ctx, metav1.ListOptions{}, func(obj runtime.Object) error {
				r.Items = append(r.Items, obj.(*corev1.Pod).Name)
				if len(r.Items) == 3 {
					synctest.Wait() // the second page is fetched and waits to be handed over
					cancel()
					synctest.Wait()
				}
				return nil
			})
			if err != nil {
				r.Err = err.Error()
			}
			r.Calls = len(s.requests())
		})
		return r
	}
	want := run(func(fn pager.ListPageFunc) func(context.Context, metav1.ListOptions, func(runtime.Object) error) error {
		p := clientgopager.New(clientgopager.ListPageFunc(fn))
		p.PageSize, p.PageBufferSize = 3, 0
		return p.EachListItem
	})
	got := run(func(fn pager.ListPageFunc) func(context.Context, metav1.ListOptions, func(runtime.Object) error) error {
		p := pager.New(fn)
		p.PageSize, p.PageBufferSize = 3, 0
		return p.EachListItem
	})
	if want.Err == "" {
		t.Fatalf("client-go's EachListItem returned no error (%+v): the test's premise is wrong", want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("6 pods in pages of 3, cancelled at the third (-client-go +ours):\n%s", diff)
	}
}

// TestListWithAllocDoesNotShareThePageSlice checks the point of ListWithAlloc
// on both pagers: the items of a gathered list must not point into a page's
// Items array, while List's may (and do, in client-go's).
func TestListWithAllocDoesNotShareThePageSlice(t *testing.T) {
	// shares says, for List and for ListWithAlloc, whether the first item
	// of the gathered list points into the first page's array.
	shares := func(newPager func(pager.ListPageFunc) (list, withAlloc lister)) map[string]string {
		out := map[string]string{}
		for _, alloc := range []bool{false, true} {
			s := newServer(4)
			var pages []*corev1.PodList
			list, withAlloc := newPager(func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
				obj, err := s.list(ctx, opts)
				if l, ok := obj.(*corev1.PodList); ok {
					pages = append(pages, l)
				}
				return obj, err
			})
			name := map[bool]string{false: "List", true: "ListWithAlloc"}[alloc]
			obj, _, err := pick(alloc, list, withAlloc)(context.Background(), metav1.ListOptions{})
			gathered, ok := obj.(*metainternalversion.List)
			switch {
			case err != nil:
				out[name] = "error: " + err.Error()
			case !ok || len(gathered.Items) == 0 || len(pages) == 0:
				out[name] = "returned " + summary(obj) + ", not 2 pages gathered"
			case gathered.Items[0].(*corev1.Pod) == &pages[0].Items[0]:
				out[name] = "first item shares the page's array"
			default:
				out[name] = "first item is a copy"
			}
		}
		return out
	}
	want := shares(func(fn pager.ListPageFunc) (lister, lister) {
		p := clientgopager.New(clientgopager.ListPageFunc(fn))
		p.PageSize = 2
		return p.List, p.ListWithAlloc
	})
	if want["ListWithAlloc"] != "first item is a copy" {
		t.Fatalf("client-go's ListWithAlloc: %s; the test's premise is wrong", want["ListWithAlloc"])
	}
	got := shares(func(fn pager.ListPageFunc) (lister, lister) {
		p := pager.New(fn)
		p.PageSize = 2
		return p.List, p.ListWithAlloc
	})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("4 pods in pages of 2 (-client-go +ours):\n%s", diff)
	}
}
