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
		"sharedInformerFactory.InformerFor": "many goroutines call it at once, and " +
			"all of them must get one informer per type: what it reads or writes of the " +
			"factory (the maps, the transform) it touches only under f.lock. The key is the " +
			"type, reflect.TypeOf(obj); obj is only an example of it. A type already in " +
			"f.informers gets that informer, whatever newFunc is: the first caller's newFunc " +
			"wins. The first call for a type builds the informer with newFunc, given f.client " +
			"and the type's resync period (f.customResync's for the type, else " +
			"f.defaultResync), sets the factory's transform on it when there is one, keeps it " +
			"in f.informers and returns it; it does not run it (Start does). It never returns " +
			"nil and never panics on bad input: it reports the mistake with " +
			"utilruntime.HandleError and returns an informer that cannot sync " +
			"(failingInformer). A nil obj: the error says \"InformerFor was given a nil " +
			"object\", and that informer is not the factory's (there is no type to keep it " +
			"under). A nil newFunc, or one that returns nil (build reports both): the failing " +
			"informer stands for the type, so the wait names it. A transform the informer " +
			"refuses (it already runs) is reported, not dropped. Mirrors " +
			"sharedInformerFactory.InformerFor in client-go informers/factory.go, which panics " +
			"or shares nonsense on that bad input.",
		"sharedInformerFactory.StartWithContext": "holds f.lock throughout: it reads " +
			"and writes the factory's maps while other goroutines ask for informers, wait or " +
			"shut down. It runs every informer in f.informers that has not been started yet, " +
			"each on a goroutine of its own, with ctx, and remembers it did " +
			"(f.startedInformers): a second Start runs only what was requested since, and no " +
			"informer ever runs twice. Shutdown waits for every goroutine Start began, so " +
			"each must be counted in f.wg. Once Shutdown has begun (f.shuttingDown) it starts " +
			"nothing. It does not block: it waits neither for the informers to sync nor for " +
			"them to stop. Mirrors sharedInformerFactory.StartWithContext in client-go " +
			"informers/factory.go.",
		"sharedInformerFactory.WaitForCacheSyncWithContext": "waits until every " +
			"informer Start has started has synced, or ctx ends, whichever comes first, " +
			"without polling (each informer's HasSyncedChecker is a channel to wait on). An " +
			"informer requested but not started is neither waited for nor reported: a wait " +
			"for it could only end with ctx (kubernetes#92777). It reads the factory's maps " +
			"under f.lock, but holds no lock while it waits: a wait may last as long as ctx, " +
			"and meanwhile other goroutines ask the factory for informers and start them. The " +
			"answer: Synced has an entry for each started informer's type, whether it had " +
			"synced when the wait ended; Err is nil when all had (even if ctx has ended by " +
			"then), and otherwise context.Cause(ctx), the reason the caller gave, not only " +
			"ctx.Err(). Mirrors sharedInformerFactory.WaitForCacheSyncWithContext in client-go " +
			"informers/factory.go.",
	},
	Packages: []string{"./07-factory"},
	// In the order they run (go test runs a package's test files in name
	// order, and the example after the tests).
	Tests: []string{
		"TestInformerForBadInput",
		"TestWrongObjectTypeInInformerFor",
		"TestInformerForReportsATransformItCannotSet",
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
