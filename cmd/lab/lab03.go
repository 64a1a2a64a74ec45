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
			"before it) are both Deleted, nil otherwise: keep the one that knows the final state " +
			"(a real deletion beats a DeletedFinalStateUnknown tombstone; of two real ones, the older).",
		"DeltaFIFO.Pop": "under f.lock: wait on f.cond while f.queue is empty, returning " +
			"ErrFIFOClosed once the queue is closed; read isInInitialList before counting the pop; " +
			"take the first key off f.queue, count it with f.initial.popped(1), remove its Deltas " +
			"from f.items, and return them with the error of process, called still under the lock.",
		"DeltaFIFO.Replace": "under f.lock: queue every listed object with " +
			"queueActionInternalLocked (Replaced, or Sync without emitDeltaTypeReplaced; its " +
			"internal type is always Replaced); then queue a Deleted DeletedFinalStateUnknown " +
			"tombstone for every key the list lacks that is queued here (holding its newest delta's " +
			"object, never a tombstone in a tombstone) or in knownObjects (holding the stored " +
			"object; nil if it cannot be read); last, f.initial.replaced(listed keys + tombstones).",
	},
	Packages: []string{"./03-deltafifo"},
	Tests:    []string{"TestDeltaFIFORules", "TestDeltaFIFOMatchesClientGoOnRandomScenarios", "TestPopBlocksUntilAnItemArrivesOrTheQueueCloses"},
	Timeout:  "60s",
	Expect:   []string{"-client-go +ours", "Replace emits a tombstone"},
}
