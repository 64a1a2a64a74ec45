package main

// Lab 08: the workqueue's two sets (Add, Get and Done keep dirty and
// processing) and the worker's side of the contract (processNextWorkItem's
// Done, Forget and AddRateLimited), graded by the queue's random programs and
// concurrency tests beside client-go's util/workqueue, and by the controller's
// scenarios on fake clients, on both stacks.
var lab08 = &Lab{
	N:       8,
	Stage:   "08-workqueue-controller",
	Chapter: "08b-controller.md",
	Title:   "the workqueue's Add, Get and Done, and the worker's processNextWorkItem",
	Minutes: "45-90",
	TODO: map[string]string{
		"Typed.Add": "called at once by many goroutines (the event handlers, the " +
			"delaying queue's loop), with no lock held; the sets and the storage are read " +
			"and written only under q.cond.L. When it returns, the item needs processing: " +
			"it is in q.dirty, and Get hands it out once however many Adds came before. " +
			"It keeps the invariant: every item in q.queue is in q.dirty and not in " +
			"q.processing. So an item a worker holds stays out of q.queue until that " +
			"worker's Done, and no second worker can get it meanwhile. An Add that finds " +
			"the item dirty marks nothing new: the metrics count only the Add that marks " +
			"(q.metrics), and an item waiting in the storage is reported to it as added " +
			"again (its Touch: a priority queue may move it). A Get asleep for want of an " +
			"item must not sleep through the one this Add queues. Once the queue is " +
			"shutting down, Add changes nothing; so does an item that cannot be a map " +
			"key, which q.items refuses (and reports why). " +
			"Mirrors Typed.Add in client-go util/workqueue/queue.go, which panics on " +
			"such an item.",
		"Typed.Get": "called by workers, several at once, with no lock held. It " +
			"blocks while nothing is waiting, and sleeps holding no lock: Add, Done and " +
			"ShutDown need q.cond.L to wake it. It returns (item, false) with the item the " +
			"storage gives next; from then on the item is in q.processing and no longer " +
			"in q.dirty, so an Add during its processing means \"again, after this " +
			"run\", and the invariant (every item in q.queue is in q.dirty and not in " +
			"q.processing) still holds. It returns the zero item and true only when the " +
			"queue is shutting down and nothing is waiting: a queue that is shutting down " +
			"still hands out what it holds. Each item handed out is counted once in " +
			"q.metrics. Mirrors Typed.Get in client-go util/workqueue/queue.go.",
		"Typed.Done": "a worker calls it once for each item Get handed it, with no " +
			"lock held, while other workers add, get and finish other items: the sets " +
			"are shared by every item. An item in q.processing leaves it, counted in " +
			"q.metrics; if it was added again while its worker held it (it is in " +
			"q.dirty), it goes back in the storage, and a Get waiting for an item may " +
			"take it. An item not in q.processing (never handed out, or Done already) " +
			"changes nothing at all: no metric, no push. While a drain waits (q.drain, " +
			"set by ShutDownWithDrain), the Done that leaves q.processing empty wakes " +
			"every ShutDownWithDrain waiting, whether it re-queued its item or not. It " +
			"keeps the invariant: every item in q.queue is in q.dirty and not in " +
			"q.processing. Mirrors Typed.Done in client-go util/workqueue/queue.go, but " +
			"for two differences (doc.go): client-go's pushes a dirty item it never " +
			"handed out, which then sits in the storage twice, and wakes one drain.",
		"Controller.processNextWorkItem": "one turn of a worker's loop, on the " +
			"worker's goroutine, with no lock held: runWorker calls it until it returns " +
			"false. It takes the next key from c.workqueue, waiting for one, and returns " +
			"false when the worker should stop: when Get reports the shutdown, or when " +
			"it hands the key back (below). Every key Get hands it is Done exactly once " +
			"before it returns, whichever way it returns: a key never Done is never handed " +
			"out again, and a drain waits for it. Once the shutdown has begun " +
			"(c.workqueue.ShuttingDown), no reconcile starts, not even for a key a Get " +
			"hands out after that moment: such a key is handed back unreconciled. " +
			"Otherwise the key is reconciled by c.syncHandler(ctx, key), and it returns " +
			"true whatever the outcome. After a success the rate limiter forgets the " +
			"key's failures (its next failure waits the shortest delay again); after an " +
			"error, the error is reported with utilruntime.HandleErrorWithContext and " +
			"the words \"Error syncing; requeuing for later retry\", and the key comes " +
			"back through the rate limiter, after a delay that grows with each failure " +
			"in a row. It logs as sample-controller does, with the key as \"objectName\": " +
			"\"Successfully synced\" after a success, and at V(4) \"Shutting down: not " +
			"reconciled\" for a key handed back (the demo's timeline shows that one). " +
			"Mirrors processNextWorkItem in kubernetes/sample-controller controller.go, " +
			"but for the hand-back. (The skeleton dropped the import utilruntime " +
			"\"k8s.io/apimachinery/pkg/util/runtime\".)",
	},
	Packages: []string{"./08-workqueue-controller/workqueue", "./08-workqueue-controller/controller"},
	// In the order the check lists them, the differential first, whatever
	// order go test runs them in (each package's in file order): on the
	// skeleton and the wrong answers kept below, none panics (one times
	// out: see Timeout), so none keeps the ones after it from running.
	Tests: []string{
		// The queue, beside client-go's util/workqueue.
		"TestRandomProgramsMatchClientGo",
		"TestManyWorkersOnTheRealClock",
		"TestManyWorkersWithRetriesInABubble",
		"TestShutDownWithDrainWaitsForEveryItemInProcessing",
		"TestGetWokenForNothingWaitsAgain",
		"TestConcurrentShutDownWithDrainsAllReturn",
		"TestDrainReturnsWithTheReQueuedItemStillQueued",
		"TestDoneOfAnItemNotBeingProcessed",
		"TestDelayingQueueScenarios",
		"TestUnhashableItemsAreRefused",
		"ExampleTyped",
		// The controller on fake clients, on client-go's informers and
		// queue and on ours.
		"TestScenarioOnFakeClients",
		"TestFailingReconcileIsRetriedWithTheDefaultLimitersDelays",
		"TestWorkersNeverReconcileOneKeyAtOnce",
		"TestShutdownStartsNoNewReconcile",
		"TestAKeyGotAsShutdownBeginsIsHandedBack",
		"TestAKeyHandedBackAtShutdownIsDone",
		"TestWorkersLogAsSampleControllerDoes",
		"TestBadObjectsAreReportedNotFatal",
	},
	// The tests take under a second, about five under -race (building them
	// takes longer: about seven seconds each after an edit, on two cores,
	// with the build cache warm). A Get that leaves its item dirty
	// hands every item out again after each Done, and keeps a controller's
	// workers busy for ever in a bubble whose clock then never moves: the
	// timeout ends that one (every other wrong answer kept below fails
	// without it).
	Timeout: "30s",
	// A queue is shared by every worker and handler: a set touched without
	// the lock is a data race that a run without -race may or may not show.
	Race: true,
	// The skeleton's Get returns at once: the first random program's Get,
	// which should have waited for the Add after it, shows the difference.
	Expect: []string{"-client-go +ours", "after operation 2, Add(d), the queues differ", "program so far"},
}
