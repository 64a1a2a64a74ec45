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
		"Reflector.relistResourceVersion": "return the resourceVersion the next LIST must ask " +
			"for, and change nothing. Three answers, the first that applies wins: \"\" while the " +
			"last synced resourceVersion is marked unavailable (the server called it expired or too " +
			"large: ask for a consistent read of the newest data); \"0\" while nothing has been " +
			"synced (any data, which the watch cache serves from memory); otherwise the last synced " +
			"resourceVersion (\"at least this new\": a reflector never goes back in time, whichever " +
			"apiserver answers). No lock is held on entry; both fields live under r.rv.mu, and " +
			"LastSyncResourceVersion reads them from other goroutines. Mirrors " +
			"Reflector.relistResourceVersion in client-go's tools/cache/reflector.go.",
		"Reflector.list": "LIST the resource at the resourceVersion relistResourceVersion gives, " +
			"through stage 01's pager (its ListWithAlloc: the store keeps items for different " +
			"lengths of time), paged as the doc comment says; on success, Replace the store's " +
			"content with the items, and only then make the list's resourceVersion the last synced " +
			"one. When the server cannot serve that resourceVersion (410 Expired or Gone, or too " +
			"large) the list is retried at once at \"\", and every LIST asks for \"\" from then on " +
			"until one succeeds: the next round's too, when the retry fails. Never panics on a " +
			"bad answer: a Table, an answer that is not a list and one without items are errors. " +
			"Returns nil, store untouched, once ctx is cancelled; otherwise the errors read as " +
			"client-go's, which the check compares: \"failed to list <type>: %w\" for the LIST " +
			"(and \"unsupported list gvk: %v, type: %v\" inside it for a Table), \"unable to " +
			"understand list result %#v: %v\" and \"... %#v (%v)\" for the answer, \"unable to " +
			"sync list result: %v\" for the store. A failed round changes no resourceVersion. Runs " +
			"on the reflector's goroutine, no lock held. Mirrors Reflector.list in client-go's " +
			"tools/cache/reflector.go.",
		"Reflector.watch": "watch from the last synced resourceVersion, one watch after the " +
			"other, until one ends in a way that needs a relist: then return nil, and the caller " +
			"relists after its backoff. Return an error only for a watch request refused for good " +
			"(not retriable); return nil, quietly and without another request, once ctx is done. " +
			"A w handed in is a WatchList stream past its initial events: carry on with it first. " +
			"Every request carries the last synced resourceVersion, a timeout drawn for it alone " +
			"and allowWatchBookmarks. Every event's resourceVersion becomes the last synced one (and " +
			"reaches a store that is a ResourceVersionUpdater), but on a watch you started from " +
			"\"\" or \"0\" only once an event other than ADDED proved the replay of the current " +
			"state is over. Each ending as the doc comment's list says: a 429 or a refused " +
			"connection waits the reflector's backoff and watches again from the same place; a 500 " +
			"is retried in place within MaxInternalErrorRetryDuration; a 410 marks nothing " +
			"unavailable. A watch is very short by the time since before " +
			"its request was sent. A started watch whose ending it returns on, but " +
			"for a 410 or a cancel, is logged, the one line client-go logs at the default verbosity: Info " +
			"\"Warning: watch ended with error\" on klog.FromContext(ctx), with the keys " +
			"reflector, type and err. Stop a watch you still hold when you return. Runs on the " +
			"reflector's goroutine, no lock held. Mirrors Reflector.watch in client-go's " +
			"tools/cache/reflector.go.",
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
