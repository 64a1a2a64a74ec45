package main

// Lab 06: a popped item becomes a cache write and then a notification
// (processDeltas, with a whole relist in processReplacedAllInfo), and a
// handler that joins a running informer gets the cache under blockDeltas
// (joinLate), graded by a test that calls processDeltas directly with what
// no informer can be handed (malformed items, failed writes) and by the
// scenarios that run client-go's informer beside ours on in-memory sources.
var lab06 = &Lab{
	N:       6,
	Stage:   "06-sharedinformer",
	Chapter: "06-sharedinformer.md",
	Title:   "processDeltas, the atomic relist, and the late handler's replay",
	Minutes: "45-75",
	TODO: map[string]string{
		"processDeltas": "apply one popped item, its Deltas oldest first, to the cache " +
			"(clientState) and then to handler, and return the first error, applying nothing " +
			"after it. Each change is in the cache before the handler hears of it, so a " +
			"handler that reads the cache finds that state or a newer one; a write that fails " +
			"is returned, and the handler never hears of it. Added, Updated, Replaced and Sync " +
			"mean the same thing here: whether the object is new is the cache's answer (is its " +
			"key cached?), not the delta's type (a lookup that fails counts as not cached: the " +
			"write that follows reports what is wrong). An update hands OnUpdate the cached object as " +
			"the old one (the informer takes old and new with one resourceVersion for a " +
			"resync); an add passes isInInitialList on. Deleted removes the key and hands " +
			"OnDelete the object as it came: a DeletedFinalStateUnknown stays a tombstone. " +
			"ReplacedAll (a whole relist, from a RealFIFO) is processReplacedAllInfo's work. " +
			"SyncAll (a resync, from a RealFIFO) writes nothing and hands OnUpdate every cached " +
			"object as both old and new, then returns at once: the deltas after it in the item " +
			"are not applied, as in client-go. Bookmark " +
			"records its resourceVersion in the cache and tells no handler. A ReplacedAll, " +
			"SyncAll or Bookmark whose object is not its ReplacedAllInfo, SyncAllInfo or " +
			"BookmarkInfo is an error in client-go's words (\"ReplacedAll did not contain " +
			"ReplacedAllInfo: %T\", \"SyncAll did not contain SyncAllInfo: %T\", \"bookmark " +
			"delta did not contain BookmarkInfo: %T\"), and so, unlike client-go, which skips " +
			"it, is a delta type you do not know (\"unknown delta type %q\"). Runs on " +
			"processLoop's goroutine, under blockDeltas (for a DeltaFIFO, under the queue's " +
			"lock too): take no lock. Mirrors processDeltas in client-go's " +
			"tools/cache/controller.go.",
		"processReplacedAllInfo": "apply a whole relist that came as one ReplacedAll item " +
			"(info.Objects, listed at info.ResourceVersion), and tell handler what it means: " +
			"for every key the cache holds that the list " +
			"lacks, an OnDelete with a DeletedFinalStateUnknown (that key, and the cached " +
			"object as its last state), all of them first; then, for each listed object in " +
			"list order, OnUpdate(the cached object, the listed one) when its key was cached, " +
			"OnAdd(the listed one, isInInitialList) when it was not. What the relist means is " +
			"judged against the cache as it was before it (stage 03 has a function that works " +
			"a relist out against a store; keyFunc is the cache's own key function). The cache " +
			"must hold the relist, with its resourceVersion, before the first handler call, " +
			"and change in one step, never object by object. An error (a listed object " +
			"without a key, a Replace that fails) is returned, and then the handler hears " +
			"nothing. Runs where processDeltas runs, under the same locks: take none. Mirrors " +
			"processReplacedAllInfo in client-go's tools/cache/controller.go.",
		"sharedIndexInformer.joinLate": "listener was just built for handler, added " +
			"(with the name its HandlerOptions gave it) to an informer that already runs; " +
			"register the listener and return its registration, having given it the state " +
			"it missed. You hold startedLock (AddEventHandlerWithOptions took it), on the " +
			"caller's goroutine, while processLoop may be processing an item on its own: one " +
			"item's cache writes and its notifications to every listener make one step of " +
			"processLoop's. What must hold: the handler gets one add, with IsInInitialList " +
			"true, for every object in the cache (in any order), then every change processed " +
			"after them, each exactly once, whatever processLoop does meanwhile: no change " +
			"both replayed and notified, none in neither, and no notification before the " +
			"replayed state it follows. Everything reaches the handler through its listener, " +
			"on the listener's goroutine: never call the handler here, and never wait for " +
			"it (the listener's Add may wait until the processor runs the listener: that " +
			"is not a wait for the handler). The registration's HasSynced turns true only once the handler has returned " +
			"from every replayed add, also when the processor's goroutine starts the " +
			"listeners in the middle of the replay (stage 05's processor can keep a late " +
			"listener from watching its upstream's HasSynced until you release it). The " +
			"Replay seam (s.seams.replay) hears each replayed object, with handler and name, " +
			"before the listener has it: a test pauses the replay there. If the processor " +
			"refuses the listener, return its error, no registration, and replay nothing. " +
			"Mirrors the end of sharedIndexInformer.AddEventHandlerWithOptions in client-go's " +
			"tools/cache/shared_informer.go, the part for an informer that has started.",
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
		// A handler added while an item is half processed: a replay that
		// adds the listener, or reads the cache, before it takes
		// blockDeltas.
		"TestALateHandlerJoiningDuringAnItemGetsItOnceLikeClientGo",
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
	// The skeleton's processDeltas does nothing: the first test, which
	// calls it directly, says so case by case; its joinLate returns no
	// registration, and the first test with a late handler crashes on it.
	Expect: []string{"with the cache holding a@1 and b@2 at rv 2 differs from client-go's rules (-client-go +ours)",
		"deadlock: main bubble goroutine has exited but blocked goroutines remain"},
}
