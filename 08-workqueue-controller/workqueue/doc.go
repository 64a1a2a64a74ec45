// Package workqueue is stage 08, part one: the queue between a controller's
// event handlers and its workers.
//
// Handlers put keys (namespace/name) on the queue; workers take them off,
// read the current object from a lister and reconcile. The queue makes that
// safe and cheap: a key added many times before a worker gets to it is
// processed once (the dirty set); a key added while a worker holds it is
// never handed to a second worker, but processed again afterwards (the
// processing set); a failed key is retried after a delay that grows with
// each failure (the delaying queue and its rate limiters); and shutdown can
// wait for the work in progress (ShutDownWithDrain).
//
// It mirrors k8s.io/client-go v0.37.2 util/workqueue: queue.go (Typed,
// TypedInterface, Queue, DefaultQueue), delaying_queue.go (the waiting loop
// and its heap), default_rate_limiters.go, rate_limiting_queue.go and
// metrics.go, with client-go's exported names, so code written against
// client-go reads the same here. The deprecated untyped names (New,
// NewNamedRateLimitingQueue, …) are left out: only client-go's own tests use
// them, and proving-ground/conformance's adapter declares them for those.
//
// Read queue.go (the two sets), delaying_queue.go and waiting_heap.go,
// default_rate_limiters.go and item_rate_limiters.go, then
// rate_limiting_queue.go; skip fifo.go, hashable.go and metrics.go on a
// first reading. The functions marked //lab:08 are lab 08's: make lab-start 8
// turns them into stubs for you to write
// (docs/en/labs/08-workqueue-controller.md).
//
// Deliberate differences (see docs/en/08a-workqueue.md,
// "Differences from client-go"):
//   - Done of an item that is not being processed does nothing. client-go's
//     pushes it again if it is waiting, so it sits in the queue twice and two
//     workers can hold it at once (TestDoneOfAnItemNotBeingProcessed).
//   - The Done that empties the processing set during a drain wakes every
//     ShutDownWithDrain, whether it re-queued its item or not. client-go's
//     wakes one, and a second concurrent ShutDownWithDrain waits until
//     something else wakes it (TestConcurrentShutDownWithDrainsAllReturn).
//   - The delaying queue's ShutDownWithDrain stops its waiting loop (after
//     shutting the queue inside down, so that it refuses items from its
//     first line on, as client-go's drain does:
//     TestAddAfterDuringADrainAddsNothing), and its ShutDown returns once the
//     loop has returned. client-go's delaying queue has no ShutDownWithDrain
//     of its own, so its loop runs on until its next wake-up (up to the 10s
//     heartbeat); and its ShutDown runs once, so a ShutDown meant to end a
//     drain that began after an earlier ShutDown does not reach the queue
//     inside (TestShutDownWithDrainStopsTheWaitingLoop,
//     TestShutDownEndsADrainAfterAnEarlierShutDown).
//   - An item that cannot be a map key (an interface holding a slice, map or
//     func, such as a corev1.Pod value on an untyped queue) is refused with
//     an error through utilruntime.HandleError, at the ways in: Add,
//     AddAfter and AddRateLimited. client-go's Add panics; its AddAfter
//     panics in the waiting loop's goroutine, which crashes the process
//     (TestUnhashableItemsAreRefused). Done, Forget and NumRequeues, which
//     take what Get handed out, panic on such an item as client-go's do, and
//     so does a per-item rate limiter used on its own.
//   - A nil rate limiter, or a nil one inside NewTypedMaxOfRateLimiter or
//     NewTypedWithMaxWaitRateLimiter, never makes an item wait; the zero
//     values of the limiter types work (wait 0). client-go panics on each
//     (TestNilAndZeroRateLimiters, TestRateLimitingQueueWithoutALimiter).
//   - The exponential limiter answers maxDelay where base·2^n is exactly 2^63
//     nanoseconds, and 0 for a zero base past 2^1023; client-go converts an
//     out-of-range float64 there, which on amd64 gives the most negative
//     Duration, "retry now" (FuzzItemExponentialFailureRateLimiter).
//   - The default FIFO reuses its array instead of re-slicing it, so a queue
//     that fills and empties does not allocate per item (BenchmarkQueue). The
//     unfinished-work ticker is created before the constructor returns
//     rather than in its goroutine, so a fake clock can be stepped at once.
//
// Kept as client-go has it, though it may surprise: ShutDownWithDrain waits
// only for items in processing, not for items waiting in the queue, not
// even one that a Done during the drain has just put back there because it
// was added again while processed (workers get those until Get reports
// shutdown; TestDrainReturnsWithTheReQueuedItemStillQueued); items waiting
// in the delaying queue's heap at shutdown are dropped; once the shutdown
// has begun, AddAfter adds nothing whatever its delay, but AddRateLimited
// still asks the limiter, which counts a requeue for an item it then drops
// (TestNothingIsAddedOnceShutDownHasBegun); the token bucket
// reads the real time whatever clock the queue has; and the metrics' depth
// counts items added while processing before they are back in the queue.
//
// Left out: ParallelizeUntil (util/workqueue/parallelizer.go), which is not a
// queue. The controller that uses this queue is stage 08, part two.
//
// Size: about 845 lines of code (lines neither blank nor only a comment;
// tests, demo and generated code left out), beside 909 in client-go
// v0.37.2's util/workqueue: queue.go, delaying_queue.go,
// rate_limiting_queue.go, default_rate_limiters.go and metrics.go.
package workqueue
