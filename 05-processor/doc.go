// Package processor is stage 05: how one stream of notifications reaches many
// event handlers, each at its own pace.
//
// An informer keeps one cache and one watch, but many controllers want to
// hear about changes. The SharedProcessor gives each registered
// ResourceEventHandler a ProcessorListener: a goroutine pair with an unbounded
// ring buffer (RingGrowing) in between, so the distributor never waits for a
// slow handler, and no handler misses or reorders a notification. Each
// listener also carries its own resync period (ShouldResync decides who gets a
// replay of the cache) and its own HasSynced (SingleFileTracker: has this
// handler seen the whole initial list?).
//
// It mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go
// (sharedProcessor, processorListener, the notifications, the resync period
// rules, ResourceEventHandlerRegistration), tools/cache/controller.go (the
// handler interface and adapters), tools/cache/synctrack/synctrack.go
// (SingleFileTracker) and k8s.io/utils buffer/ring_growing.go (the ring).
// The typed handler layer of controller.go (TypedResourceEventHandler,
// DeletedObject and the typed adapters) is in handler_typed.go.
// Names client-go keeps unexported are exported here (SharedProcessor,
// ProcessorListener, AddNotification…) because stage 06's informer, in another
// package, drives them.
//
// Left out or changed on purpose (see docs/en/05-processor.md, "Differences"):
//   - the informer around it: who calls Distribute, ShouldResync and the
//     late-join replay is stage 06; HandlerResyncPeriod holds the informer's
//     resync arithmetic so both can share it;
//   - ProcessorOptions.OnHandlerPanic, an opt-in "log and keep going" for
//     panicking handlers; by default a panic crashes the process, as in
//     client-go;
//   - Run wakes every Distribute waiting for the start (Broadcast), where
//     client-go wakes one (Signal) and relies on its informer serializing
//     calls;
//   - AddLateListener, for a listener that joins a running informer: its
//     watchSynced waits for StartWatchSynced, also when Run starts the
//     listener during the informer's replay; client-go's run starts it then,
//     and the handler's HasSynced can turn true before the replay is counted;
//   - notifications are a sealed Notification interface, not interface{};
//   - NewProcessListener returns an error for a nil handler (a typed nil
//     pointer too), a nil HasSynced checker or a negative resync period, and
//     HandlerResyncPeriod for a negative requested period;
//     AddListener returns an error, and no registration, for a listener it
//     would never run: any listener once the processor has stopped (client-go
//     registers it unstarted), and a listener already registered, here or
//     before (client-go panics on a closed channel there);
//   - handler names (nameForHandler: a handler's HasSynced checker, errors,
//     panic reports): the Funcs adapters are named by all their functions'
//     full names joined with "+", where client-go gives their common
//     qualifier when they share one (pkg.TestFoo for pkg.TestFoo.func1 and
//     .func2); any other handler by %T (processor.mockHandler,
//     *processor.mockHandler), where client-go gives the package path and the
//     type's name, of a pointer's element too;
//   - per-handler loggers, the utiltrace of slow handlers and
//     ShutDownEventHandler (an informer function). The typed handlers
//     (handler_typed.go) are here, beside the untyped ones as in client-go's
//     controller.go; the adapter that feeds them untyped notifications is the
//     informer's (stage 06), as in client-go's shared_informer.go;
//   - synctrack's AsyncTracker and Lazy, which no informer uses: only the
//     SingleFileTracker is here;
//   - PendingNotifications, BufferCapacity and ResyncPeriod are ours, for the
//     demo and tests; WithoutBuffer is a teaching switch (stage 06's
//     --break=blocking-listener) that takes a listener's ring away, and
//     WrapHandler a watcher's seam (stage 06's Seams.Handler) that wraps the
//     handler a listener calls and keeps the handler's name.
//
// Size: about 729 lines of code (lines neither blank nor only a comment;
// tests, demo and generated code left out), beside 972 in client-go
// v0.37.2's tools/cache/shared_informer.go (whose informer half is stage
// 06's) and tools/cache/synctrack/synctrack.go.
//
// # Reading order
//
// With client-go's tools/cache/shared_informer.go open beside it at
// processorListener:
//
//  1. listener.go: ProcessorListener, Add, pop, run and watchSynced, the
//     goroutines and the ring between them;
//  2. ring.go: RingGrowing, the unbounded buffer;
//  3. processor.go: SharedProcessor, the listeners' set, Distribute and Run;
//  4. resync.go: whose resync is due, and the periods' arithmetic;
//  5. synctrack.go: SingleFileTracker, a handler's own HasSynced;
//  6. panic.go: what a panicking handler does to the process;
//  7. handler.go and notification.go: the handler interface and its
//     adapters, and the three notifications.
//
// Skip on a first reading: demo/, which is how the stage is shown;
// handler_typed.go, the same handlers over a type parameter; in
// listener.go, PendingNotifications, BufferCapacity and WithoutBuffer,
// there for the demo and a teaching switch; the tests' stand-in informer
// and recorder (feeder_test.go, recorder_test.go).
//
// The functions marked //lab:05 are lab 05's: make lab-start 5 turns them
// into stubs that state their contract (docs/en/labs/05-processor.md).
package processor
