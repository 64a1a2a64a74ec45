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
		"Reflector.list": "LIST at r.relistResourceVersion() through a pager.New over " +
			"r.listerWatcher.ListWithContext with ListWithAlloc; page size: r.WatchListPageSize if " +
			"set, else the pager's 500 if r.paginatedResult, else 0 (no pages) for a resourceVersion " +
			"other than \"\" and \"0\". On Expired or too large (isExpiredError, " +
			"isTooLargeResourceVersionError): mark the resourceVersion unavailable and list again at " +
			"once at r.relistResourceVersion(). Refuse a Table (isUnsupportedTableListObject). " +
			"ctx cancelled: return nil. Error: \"failed to list %v: %w\" with r.typeDescription. " +
			"Then: r.paginatedResult if a list at \"0\" came in pages; clear the unavailable mark; " +
			"Replace the store with the items (meta.ExtractListWithAlloc, r.syncWith; error: " +
			"\"unable to sync list result: %v\") at the list's resourceVersion, and make it the last synced one.",
		"Reflector.watch": "loop until ctx is done (return nil). If w is nil, start a watch: " +
			"ResourceVersion r.LastSyncResourceVersion(), TimeoutSeconds r.watchTimeout(), " +
			"AllowWatchBookmarks; a refused request is retried after r.sleep(ctx, r.delayHandler()) " +
			"when isWatchErrorRetriable, else returned. Run it with r.handleWatch(ctx, start, w, setRV, " +
			"resyncerrc), start = r.clock.Now() taken before the request; setRV records the " +
			"resourceVersion (r.setLastSyncResourceVersion, and UpdateResourceVersion on a " +
			"ResourceVersionUpdater store), on a watch from \"\" or \"0\" only once " +
			"eventReceivedBesidesAdded. Then w = nil, and by the error: nil: watch again; " +
			"errorStopRequested or Expired: return nil; 429: back off, watch again; 500 while a " +
			"NewRetryWithDeadline(r.MaxInternalErrorRetryDuration, time.Minute, " +
			"apierrors.IsInternalError, r.clock) fed with retry.After(err) says ShouldRetry: watch " +
			"again; anything else: return nil. Stop w if you return while holding it.",
	},
	Packages: []string{"./02-reflector"},
	Tests: []string{
		"TestScriptedListThenWatch", "TestScriptedWatchList", "TestListAndWatchReturnsWhatClientGoReturns",
		"TestWatchErrorHandlerHearsWhatClientGoReports", "TestEveryWatchDrawsItsOwnTimeout",
		"TestInjectedClockDrivesBackoffAndResync", "TestReflectorSyncsOnAFakeClientsetLikeClientGo",
	},
	Timeout: "120s",
	Expect:  []string{"-client-go +ours", "a 410 ERROR event ends the watch", "client-go did:"},
}
