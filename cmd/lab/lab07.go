package main

// Lab 07: the factory's three rules (one informer per type, each started
// once, a wait for the started ones only), graded by the scenarios that run
// client-go's factory beside ours on fake clientsets, under -race.
var lab07 = &Lab{
	N:       7,
	Stage:   "07-factory",
	Chapter: "07-factory.md",
	Title:   "SharedInformerFactory: InformerFor, Start and WaitForCacheSync",
	Minutes: "30-60",
	TODO: map[string]string{
		"sharedInformerFactory.InformerFor": "a nil obj has no type to share by: report " +
			"an error that says \"InformerFor was given a nil object\" with " +
			"utilruntime.HandleError and return a failingInformer, which the factory does " +
			"not keep. Otherwise, under f.lock, key by reflect.TypeOf(obj): a type " +
			"in f.informers gets that informer, whatever newFunc is. The first call for a type " +
			"builds it with build(newFunc, f.client, resync, type), resync being " +
			"f.customResync's for the type or else f.defaultResync (on an error: HandleError it " +
			"and keep failingInformer(err) in its place); sets f.transform on it when there is " +
			"one (SetTransform; report its error); stores it in f.informers; returns it.",
		"sharedInformerFactory.StartWithContext": "under f.lock, and not at all once " +
			"f.shuttingDown: run each informer of f.informers that f.startedInformers does not " +
			"hold yet with RunWithContext(ctx), on a goroutine counted in f.wg (f.wg.Go), and " +
			"mark it started. Wait for nothing.",
		"sharedInformerFactory.WaitForCacheSyncWithContext": "copy the started informers " +
			"(f.informers whose type f.startedInformers holds) under f.lock, and let it go " +
			"before you wait. Wait for them all at once, without polling: informer.WaitFor(ctx, " +
			"\"\", checkers...) with each one's HasSyncedChecker(). Then Synced says, for each " +
			"type copied, its informer's HasSynced(); if one is false, Err is context.Cause(ctx).",
	},
	Packages: []string{"./07-factory"},
	// In the order they run (go test runs a package's test files in name
	// order, and the example after the tests).
	Tests: []string{
		"TestInformerForBadInput",
		"TestInformerForReportsATransformItCannotSet",
		"TestWrongObjectTypeInInformerFor",
		"TestConcurrentRequestsShareOneInformerLikeClientGo",
		"TestInformerForDuringAWaitMatchesClientGo",
		"TestFakeClientsetMatchesClientGo",
		"TestFakeClientsetLifecycleMatchesClientGo",
		"TestFakeClientsetCustomResyncMatchesClientGo",
		"ExampleSharedInformerFactory",
	},
	// A passing check runs its tests in about two seconds (building them
	// with -race takes longer); a wait that never ends fails here instead
	// of hanging.
	Timeout: "30s",
	// An InformerFor without its lock is a data race that a run without
	// -race may or may not show.
	Race: true,
	// The skeleton's InformerFor returns nil: the bad-input test says so,
	// and the first lister over a nil informer crashes, named with the line
	// of the stage's code where it did.
	Expect: []string{"InformerFor returned nil",
		"running: (*podInformer).Lister at 07-factory/core/v1/pod.go"},
}
