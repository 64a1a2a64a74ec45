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
		"RingGrowing.grow": "double the storage (a ring of capacity 0 grows to " +
			"defaultRingSize): copy the r.readable elements that start at r.beg, and may wrap " +
			"past the end of r.data, to the front of a new array, oldest first; then set r.data, " +
			"r.n, and r.beg = 0.",
		"ProcessorListener.pop": "loop on one select until p.addCh is closed. Keep one " +
			"notification in hand and offer it on a local send channel that is nil while there " +
			"is nothing to offer (p.nextCh otherwise); when run takes it, the next comes from " +
			"the ring (p.pendingNotifications.ReadOne). Receive from p.addCh: with nothing in " +
			"hand, the new one is in hand; else it goes into the ring (WriteOne: never drop " +
			"one). While p.unbuffered and one is in hand, do not receive. Keep " +
			"p.pendingNotificationsLength in step with the ring (one more for each WriteOne, " +
			"one less for each ReadOne that found one) and p.pendingNotificationsCap equal to " +
			"its Cap() after each WriteOne. " +
			"When addCh is closed, return: deferred, close p.done and p.nextCh, and " +
			"utilruntime.HandleCrash() (the skeleton dropped its import: utilruntime " +
			"\"k8s.io/apimachinery/pkg/util/runtime\").",
		"ProcessorListener.run": "call p.deliver for each notification received from " +
			"p.nextCh, in order, until it is closed; then close p.runFinished. After a call " +
			"for which deliver reported crashed, sleep a second before the next one.",
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
