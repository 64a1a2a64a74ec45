package main

// Lab 02: the reflector's list-then-watch round and its resourceVersion
// rules, graded by the scripted scenarios that run client-go's Reflector
// beside ours in a synctest bubble (every backoff in virtual time).
var lab02 = &Lab{
	N:       2,
	Stage:   "02-reflector",
	Chapter: "02-reflector.md",
	Title:   "the Reflector: which resourceVersion to LIST and WATCH from, after each kind of failure",
	Minutes: "60-90",
	TODO: map[string]string{
		"Reflector.relistResourceVersion": "under r.rv.mu (read lock): \"\" once r.rv.unavailable; " +
			"\"0\" while nothing was synced (r.rv.last is \"\"); else r.rv.last.",
		"Reflector.list": "LIST at r.relistResourceVersion() through pager.New over " +
			"r.listerWatcher.ListWithContext (ListWithAlloc), its PageSize chosen as the doc comment " +
			"says. Expired or too large (isExpiredError, isTooLargeResourceVersionError): mark the " +
			"resourceVersion unavailable, list again at once. Refuse a Table " +
			"(isUnsupportedTableListObject). Return nil if ctx is done; wrap an error as " +
			"\"failed to list %v: %w\" with r.typeDescription. Then: set r.paginatedResult (only " +
			"for a list at \"0\"), clear the unavailable mark, r.syncWith the items " +
			"(meta.ExtractListWithAlloc) at the list's resourceVersion (\"unable to sync list " +
			"result: %v\"), and make that resourceVersion the last synced one.",
		"Reflector.watch": "loop until ctx is done. Without a w, start one: the last synced " +
			"resourceVersion, TimeoutSeconds r.watchTimeout(), AllowWatchBookmarks; a refused " +
			"request is retried after r.sleep(ctx, r.delayHandler()) if isWatchErrorRetriable, else " +
			"returned. Run it with r.handleWatch(ctx, start, w, setRV, resyncerrc), start = " +
			"r.clock.Now() before the request; setRV records each resourceVersion " +
			"(r.setLastSyncResourceVersion, and UpdateResourceVersion on a ResourceVersionUpdater " +
			"store), on a watch from \"\" or \"0\" only once eventReceivedBesidesAdded. Then act on its " +
			"error as the doc comment says (errorStopRequested: return nil); the 500s' budget is " +
			"NewRetryWithDeadline(r.MaxInternalErrorRetryDuration, time.Minute, " +
			"apierrors.IsInternalError, r.clock), told of each ending with retry.After. Stop a " +
			"w you still hold when you return.",
	},
	Packages: []string{"./02-reflector"},
	Tests: []string{
		"TestScriptedListThenWatch", "TestScriptedWatchList", "TestListAndWatchReturnsWhatClientGoReturns",
		"TestWatchErrorHandlerHearsWhatClientGoReports", "TestEveryWatchDrawsItsOwnTimeout",
		"TestInjectedClockDrivesBackoffAndResync", "TestReflectorSyncsOnAFakeClientsetLikeClientGo",
	},
	Timeout: "60s",
	Expect:  []string{"-client-go +ours", "a 410 ERROR event ends the watch", "client-go did:"},
}
