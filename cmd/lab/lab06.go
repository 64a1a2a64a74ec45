package main

// Lab 06: a popped item becomes a cache write and then a notification
// (processDeltas, with a whole relist in processReplacedAllInfo), and a
// handler that joins a running informer gets the cache under blockDeltas
// (joinLate), graded by the scenarios that run client-go's informer beside
// ours on in-memory sources.
var lab06 = &Lab{
	N:       6,
	Stage:   "06-sharedinformer",
	Chapter: "06-sharedinformer.md",
	Title:   "processDeltas, the atomic relist, and the late handler's replay",
	Minutes: "45-75",
	TODO: map[string]string{
		"processDeltas": "for each delta, oldest first; return the first error. Added, " +
			"Updated, Replaced, Sync: if clientState.Get(obj) finds it, clientState.Update(obj) " +
			"then handler.OnUpdate(the cached object, obj); else Add then OnAdd(obj, " +
			"isInInitialList). Deleted: Delete, then OnDelete(obj) as it came (a " +
			"DeletedFinalStateUnknown stays one). ReplacedAll: processReplacedAllInfo with its " +
			"ReplacedAllInfo. SyncAll: OnUpdate(cached, cached) for each object of " +
			"clientState.List(), then return. Bookmark: clientState.Bookmark with its " +
			"BookmarkInfo's ResourceVersion. A ReplacedAll, SyncAll or Bookmark whose object is " +
			"not its Info, or any other type: an error that names it.",
		"processReplacedAllInfo": "work out the relist before writing: " +
			"deltafifo.ReconcileReplacement(nil, clientState, info.Objects, keyFunc, onDelete, " +
			"onReplace) calls onDelete with a DeletedFinalStateUnknown for each cached key the " +
			"list lacks, then onReplace with each listed object, in list order: keep the " +
			"tombstones, and for each listed object the cached one (clientState.Get), if any. " +
			"Then clientState.Replace(info.Objects, info.ResourceVersion). Only then the " +
			"handler: OnDelete each tombstone, then OnUpdate(cached, listed) or OnAdd(listed, " +
			"isInInitialList) in list order.",
		"sharedIndexInformer.joinLate": "hold s.blockDeltas until you return. Add the " +
			"listener with s.processor.AddLateListener (its handle is the registration). For " +
			"each object of s.indexer.List(): s.seams.replay(handler, name, obj), then " +
			"listener.Add(processor.AddNotification{NewObj: obj, IsInInitialList: true}). " +
			"Last, s.processor.StartWatchSynced for the listener.",
	},
	Packages: []string{"./06-sharedinformer"},
	// In the order they run (go test runs the package's own test files
	// first, then the external ones, each in name order). The first six
	// add no handler after Run, so they grade processDeltas and
	// processReplacedAllInfo before a stub joinLate's nil registration
	// crashes the seventh and ends the run.
	Tests: []string{
		// processDeltas called directly: malformed items and failed
		// writes, which no client-go informer can be handed.
		"TestProcessDeltasStopsAtAMalformedItemOrAFailedWrite",
		"TestCacheResourceVersionFollowsBookmarksLikeClientGo",
		"TestNoTombstonesLeavesAGhostInTheHandlersView",
		"TestClassicModeMatchesClientGoDeltaFIFOController",
		"TestUnsharedInformerMatchesClientGo",
		"TestFakeClientsetMatchesClientGo",
		"TestHandlerMatrix",
		"TestHandlersAddedWhileEventsFlowSeeTheCacheThenEveryChange",
		"TestALateHandlersHasSyncedCountsItsWholeReplayWhenTheProcessorStartsLate",
		"TestNoChangeIsProcessedWhileALateHandlersReplayIsInProgress",
		"TestObserverFollowsOneObjectThroughEveryLayer",
		"TestScriptedScenariosMatchClientGo",
	},
	// A passing check runs its tests in about a second, after the build. A
	// replay that never lets blockDeltas go stops processLoop, and with it
	// every scenario in a synctest bubble (a goroutine waiting for a mutex
	// is not durably blocked, so the fake clock stops too): this names the
	// test that hung instead of hanging.
	Timeout: "30s",
	Race:    true,
	// The skeleton's processReplacedAllInfo leaves the cache empty, and
	// its joinLate returns no registration: the first tests say the first,
	// and the first test with a late handler crashes on the second.
	Expect: []string{"the cache's resourceVersion (-client-go +ours)",
		"ours differs from client-go's with no switch on (-client-go +ours)",
		"deadlock: main bubble goroutine has exited but blocked goroutines remain"},
}
