package main

// Lab 03: the DeltaFIFO's queueing, graded by the rules and the random
// scenarios that run client-go's DeltaFIFO beside ours.
var lab03 = &Lab{
	N:       3,
	Stage:   "03-deltafifo",
	Chapter: "03-deltafifo.md",
	Title:   "DeltaFIFO: deduplicated deletions, Pop, and Replace with tombstones",
	Minutes: "45-75",
	TODO: map[string]string{
		"isDeletionDup": "return the delta to keep when a (the newest) and b (the one " +
			"before it) are both Deleted, nil otherwise. If b is a DeletedFinalStateUnknown " +
			"tombstone, keep a (a real deletion beats a tombstone; of two tombstones, the newer); " +
			"else keep b (a tombstone after a real deletion adds nothing; of two real ones, the older).",
		"DeltaFIFO.Pop": "under f.lock: wait on f.cond while f.queue is empty, returning " +
			"ErrFIFOClosed if the queue is closed (a closed queue still hands out what it holds); " +
			"read isInInitialList before counting the pop; take the first key off f.queue, count it " +
			"with f.initial.popped, remove its Deltas from f.items, and return them with the " +
			"error of process, called still under the lock (do not unlock first: process may write " +
			"KnownObjects, which Replace, Delete and Resync read).",
		"DeltaFIFO.Replace": "under f.lock: queue every listed object with " +
			"queueActionInternalLocked (Replaced, or Sync without emitDeltaTypeReplaced; its " +
			"internal type is always Replaced), and wrap its error as client-go does: " +
			"fmt.Errorf(\"couldn't enqueue object: %v\", err). Then queue a Deleted " +
			"DeletedFinalStateUnknown tombstone for every key the list lacks: first each key queued " +
			"here (holding its newest delta's object, never a tombstone in a tombstone), then each " +
			"key in knownObjects that is not queued (holding the stored object; nil, reported with " +
			"utilruntime.HandleError, if it cannot be read). One tombstone per key. Last, " +
			"f.initial.replaced(listed keys + tombstones).",
	},
	Packages: []string{"./03-deltafifo"},
	Tests: []string{
		"TestDeltaFIFORules",
		"TestDeltaFIFOMatchesClientGoOnRandomScenarios",
		"TestPopBlocksUntilAnItemArrivesOrTheQueueCloses",
		// Single-threaded scenarios cannot see whether process ran under
		// the lock; this one asks the lock itself.
		"TestProcessRunsUnderTheLockWithoutUnlockWhileProcessing",
	},
	Timeout: "60s",
	Race:    true,
	Expect:  []string{"-client-go +ours", "Replace emits a tombstone"},
}
