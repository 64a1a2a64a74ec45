package main

// Lab 01: the pager's LIST in pages with its full-list fallback, graded by
// the pager's tests that run client-go's pager beside ours on a scripted
// server.
var lab01 = &Lab{
	N:       1,
	Stage:   "01-listwatch",
	Chapter: "01-listwatch.md",
	Title:   "the pager: LIST in pages, and one full LIST when a continue token expires",
	Minutes: "30-60",
	TODO: map[string]string{
		"ListPager.eachListChunk": "hand fn every page of the list, in order, and return nil " +
			"once fn has taken the last one. The first request carries the caller's options, its Limit " +
			"p.PageSize when the caller left it 0; each later one the same options and the " +
			"previous page's continue token. Stop at the first error and return it: ctx's " +
			"(a cancelled context sends no request), PageFn's, fn's, or \"returned object must " +
			"be a list: %v\" for an answer that is not a list. No fallback " +
			"on an expired token: EachListItem exists not to hold the whole list. Runs on " +
			"eachListChunkBuffered's goroutine, no lock held. Mirrors ListPager.eachListChunk in " +
			"client-go's tools/pager/pager.go.",
		"ListPager.list": "return the whole list, and whether it came in pages (true once any " +
			"page carried a continue token, on every path, errors included). One page without a " +
			"token is returned as the server sent it; pages are gathered, through eachItem (List " +
			"shares the pages' items, ListWithAlloc copies them), into one " +
			"*metainternalversion.List that carries the first page's resourceVersion and " +
			"SelfLink: the snapshot every page came from. The first request carries the caller's " +
			"options, its Limit p.PageSize when the caller left it 0; each later one the previous " +
			"page's continue token and no ResourceVersion or ResourceVersionMatch (the token pins " +
			"the snapshot, and the server refuses both). Errors come back as they came, with a nil " +
			"list, but for one: a 410 Expired on page two or later, when p.FullListIfExpired, " +
			"falls back to one LIST without limit or token, at the caller's own ResourceVersion " +
			"and ResourceVersionMatch, whose answer and error are returned as they are. A " +
			"cancelled ctx stops before the next request, with its error; a page that is not a " +
			"list, or holds no items, is an error. No lock held. Mirrors ListPager.list in " +
			"client-go's tools/pager/pager.go.",
	},
	Packages: []string{"./01-listwatch/pager"},
	Tests: []string{"TestListMatchesClientGo", "TestEachListItemMatchesClientGo", "TestListWithAllocDoesNotShareThePageSlice",
		"TestEachListItemReportsACancelWhileTheLastPageWaits"},
	Timeout: "60s",
	Expect:  []string{"-client-go +ours", "several pages gathered into one list", "expired continue token falls back"},
}
