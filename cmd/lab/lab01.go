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
		"ListPager.eachListChunk": "default options.Limit to p.PageSize; then loop: return ctx.Err() " +
			"if ctx is done, get a page from p.PageFn, check it is a list with meta.ListAccessor " +
			"(\"returned object must be a list: %v\"), hand it to fn, and stop when its continue " +
			"token is empty, else send the token in options.Continue. Return the first error.",
		"ListPager.list": "default options.Limit to p.PageSize and remember the caller's " +
			"ResourceVersion and ResourceVersionMatch. Loop over pages: a page without a continue " +
			"token before any other is returned as the server sent it; otherwise gather items with " +
			"eachItem into a *metainternalversion.List stamped with the first page's resourceVersion " +
			"(and SelfLink). After each page with a token: send it back, clear ResourceVersion(Match), " +
			"set paginated. On an error: if it is Expired, FullListIfExpired is set and this was " +
			"not the first page (options.Continue != \"\"), make one LIST with Limit 0, no token and " +
			"the caller's resourceVersion, and return its answer; else return the error.",
	},
	Packages: []string{"./01-listwatch/pager"},
	Tests: []string{"TestListMatchesClientGo", "TestEachListItemMatchesClientGo", "TestListWithAllocDoesNotShareThePageSlice",
		"TestEachListItemReportsACancelWhileTheLastPageWaits"},
	Timeout: "60s",
	Expect:  []string{"-client-go +ours", "several pages gathered into one list", "expired continue token falls back"},
}
