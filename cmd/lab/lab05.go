package main

// Lab 05: the listener's two goroutines and the ring between them, graded by
// the ring's differential test against k8s.io/utils/buffer and the delivery
// scenarios that run client-go's informer beside our processor.
var lab05 = &Lab{
	N:       5,
	Stage:   "05-processor",
	Chapter: "05-processor.md",
	Title:   "processorListener: pop, run, and the ring that grows",
	Minutes: "45-75",
	TODO: map[string]string{
		"RingGrowing.grow": "WriteOne calls it only when the ring is full " +
			"(r.readable == r.n, which an empty ring of capacity 0 is too). When it returns, " +
			"the capacity has doubled, or is defaultRingSize if it was 0, and r.n is still " +
			"len(r.data); the ring holds the same r.readable elements, in the order they were " +
			"written, the oldest at index 0 (r.beg is 0), so the slot right after them is free " +
			"for WriteOne. No lock: only pop's goroutine touches a " +
			"listener's ring. Mirrors the branch of TypedRingGrowing.WriteOne that grows, in " +
			"k8s.io/utils buffer/ring_growing.go.",
		"ProcessorListener.pop": "runs on a goroutine of its own, one per listener, " +
			"holding no lock; it is the only code that touches the ring. Until p.addCh is " +
			"closed it is always ready to receive from it, so Add returns at once however slow " +
			"the handler is; the one exception is a WithoutBuffer listener (p.unbuffered), " +
			"which receives nothing more while one notification waits for run. It offers run, " +
			"on p.nextCh, every notification it received, each once, in the order received, " +
			"and nothing else: never a nil. What run cannot take yet waits in the ring, which " +
			"grows: never drop one, never make the sender wait for room. With nothing to do it " +
			"waits; it never spins. Whenever it waits, p.pendingNotificationsLength counts the " +
			"notifications in the ring (not the one being offered), and " +
			"p.pendingNotificationsCap is the ring's Cap() as it is after the last write. When " +
			"addCh is closed it returns without delivering what is still buffered (a removed " +
			"or stopped listener gets no more calls); on its way out it closes p.done, so " +
			"watchSynced stops waiting for a source that may never sync, and p.nextCh, so run " +
			"ends. Mirrors processorListener.pop in client-go tools/cache/shared_informer.go; " +
			"the capacity gauge and WithoutBuffer are ours.",
		"ProcessorListener.run": "runs on a goroutine of its own, one per listener, " +
			"holding no lock. It hands every notification pop offers on p.nextCh to p.deliver, " +
			"one at a time, in the order offered, until pop closes p.nextCh; then it returns, " +
			"and on its way out closes p.runFinished (what ShutdownChan waits for: the handler " +
			"will not be called again). It never calls the handler itself: deliver does, with " +
			"the panic handling and the count behind HasSynced, and reports whether the " +
			"handler crashed. After a call that crashed (only possible when panics do not " +
			"crash the process), one second passes before the next call, so a handler that " +
			"panics on everything does not spin; after any other call the next one comes at " +
			"once. Mirrors processorListener.run in client-go tools/cache/shared_informer.go, " +
			"without its trace of slow handlers.",
	},
	Packages: []string{"./05-processor"},
	// In the order they run (go test runs a package's test files in name
	// order): a pop that never receives deadlocks the first, and a
	// deadlock ends the test binary, so the later ones do not run.
	Tests: []string{
		"TestDeliveryMatchesClientGoInformer",
		"TestWithoutBufferAddWaitsWhileTheHandlerIsBusy",
		"TestStoppingGivesUpOnASourceThatNeverSyncs",
		"TestReallyCrashOffSkipsPausesAndNeverSyncsLikeClientGo",
		"TestOnHandlerPanicLogsAndKeepsGoing",
		"TestManyNotificationsReachEveryHandlerInOrder",
		"TestBufferCapacityCountsTheWriteThatGrewTheRing",
		"TestRemovedListenerStopsAndClosesItsShutdownChan",
		"TestRingGrowingMatchesUtilsBuffer",
		"TestRingGrowingWrapsBeforeGrowing",
	},
	// A passing check takes about 3s; a pop that spins (never blocks, so
	// synctest's clock never moves) hangs until this fires.
	Timeout: "30s",
	Race:    true,
	// The skeleton's pop never receives, so the first scenario deadlocks:
	// the check names it and shows where the goroutines wait.
	Expect: []string{"mixed handlers on an informer that resyncs every second",
		"deadlock: all goroutines in bubble are blocked",
		"chan send (durable): (*ProcessorListener).Add at 05-processor/listener.go"},
}
