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
		"isDeletionDup": "say whether a (the newest delta of a key) and b (the one before " +
			"it) report one disappearance twice, and which delta stands for it: nil unless both " +
			"are Deleted. Of two deletions the one that knows more stays. A real final state " +
			"beats a DeletedFinalStateUnknown tombstone, whose object is a guess from before the " +
			"deletion, whichever of the two came first; of two real deletions the older stands " +
			"(the second adds nothing); of two tombstones the newer (the later guess). Returns " +
			"one of its arguments, never a new delta, and changes neither. dedupDeltas calls it " +
			"on every append, under the queue's lock, but it reads nothing besides a and b. " +
			"Mirrors isDeletionDup in client-go's tools/cache/delta_fifo.go.",
		"DeltaFIFO.Pop": "hand the consumer the oldest queued key with all its Deltas, exactly " +
			"once, and return them with process's error. Entered without the lock. While the " +
			"queue is empty and open, wait without spinning and without holding the lock (a " +
			"writer must get in), and let a Close wake you. ErrFIFOClosed (with nil) only when " +
			"the queue is closed and empty: a closed queue still hands out what it holds. When " +
			"Pop returns, by any way out (process's error is returned, its panic passes through), " +
			"the key is in neither f.queue nor f.items, never requeued, and the lock is released. " +
			"process runs with f.lock held: it writes the consumer's store, which Replace, Delete " +
			"and Resync read as KnownObjects under that lock. isInInitialList is true for an item " +
			"of the first Replace's batch, that is while HasSynced was still false before this " +
			"pop. A DeltaFIFO counts the pop towards HasSynced (f.initial) before process runs, " +
			"so HasSynced may turn true while process handles the last initial item (a RealFIFO " +
			"counts after). Mirrors DeltaFIFO.Pop in client-go's tools/cache/delta_fifo.go.",
		"DeltaFIFO.Replace": "take a complete list (the first, or a relist after the watch " +
			"broke) and queue what it implies, under one hold of f.lock (entered without it), so " +
			"that a consumer that pops everything ends with exactly the listed objects. Every " +
			"listed object is queued as a Replaced delta (Sync when emitDeltaTypeReplaced is off) " +
			"and goes through the transformer either way. Every key the queue knew of that the " +
			"list lacks, queued here or listed by knownObjects, gets one Deleted delta holding a " +
			"DeletedFinalStateUnknown{key, obj}: obj is the object's last state as the queue " +
			"knew it (its newest queued state, else knownObjects' object), nil when knownObjects " +
			"cannot give it back. A failed lookup is reported through utilruntime.HandleError; " +
			"nothing else is reported. An object without a key is a KeyError; a failure to queue " +
			"is returned in client-go's words, \"couldn't enqueue object: %v\". The first Replace " +
			"also sets when HasSynced turns true: once every key it queued a delta for has been " +
			"popped. The resourceVersion is not used. Mirrors DeltaFIFO.Replace in client-go's " +
			"tools/cache/delta_fifo.go.",
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
