// Package informer is stage 06: the SharedIndexInformer, stages 01 to 05
// assembled into one working informer.
//
// Every earlier stage is one box of it, and this package is the wiring:
//
//	stage 01  ListerWatcher           where the objects come from
//	stage 02  Reflector               LIST/WATCH (or WatchList) into the queue
//	stage 03  RealFIFO or DeltaFIFO   the queue; processLoop pops it
//	stage 04  Indexer                 the cache handleDeltas writes first
//	stage 05  SharedProcessor         the notifications, one listener per handler
//
// Read it beside client-go, in the order of client-go's own files:
//
//	controller.go      the controller: a reflector and processLoop around a queue
//	process_deltas.go  each popped item becomes a cache write, then a notification
//	queue.go           which queue an informer builds (newQueueFIFO)
//	shared_informer.go the interfaces, the options, the sharedIndexInformer
//	run.go             Run: the queue and controller assembled, the processor started
//	handlers.go        AddEventHandler, and a late handler's replay (joinLate)
//	handle_deltas.go   the informer as the controller's Process and as the handler
//	                   processDeltas calls: OnAdd, OnUpdate, OnDelete to the processor
//
// then, when you meet them: unshared.go (NewInformerWithOptions, one handler
// and no processor), typed.go (the typed handlers), wait.go (WaitForCacheSync
// and its kin), vocabulary.go (the earlier stages' names, aliased).
//
// The observe/ and demo/ folders are how the stage is shown: skip them on a
// first reading, and seams.go and breaks.go with them (where a watcher and
// the teaching switches plug in).
//
// Functions marked //lab:06 are lab 06's: `make lab-start 6` turns them into
// stubs for you to write (docs/en/labs/06-sharedinformer.md).
//
// It mirrors k8s.io/client-go v0.37.2 tools/cache/controller.go (Config, New,
// Controller, processLoop, processDeltas, processDeltasInBatch,
// processReplacedAllInfo, InformerOptions, NewInformerWithOptions,
// newQueueFIFO) and tools/cache/shared_informer.go (SharedInformer,
// SharedIndexInformer, TypedSharedIndexInformer, their constructors and
// methods, WaitForCacheSync and its kin, WaitFor, ShutDownEventHandler). The
// names of the earlier stages an informer's user meets are aliased in
// vocabulary.go, so this package reads like client-go's cache package.
//
// Deliberate differences (see docs/en/06-sharedinformer.md, "Differences"):
//   - one package per layer: client-go keeps every layer in tools/cache, so
//     its informer reads the processor's and the queues' unexported fields
//     (and its tests set the processor's clock); here those are stages 03
//     to 05, and this package uses only what they export;
//   - no feature gates: the queue is an option (SharedIndexInformerOptions.Queue:
//     RealFIFO with atomic events, client-go v0.37's only path, or the
//     classic DeltaFIFO), and so are WatchList (UseWatchList, on by default
//     as in client-go) and batch processing (on whenever the queue offers
//     PopBatch, as with client-go's default gates);
//   - options client-go lacks: a Clock for the resync timers (client-go sets
//     one only in its own tests), OnHandlerPanic (stage 05's "log and keep
//     going"), Seams where a watcher may wrap the parts as they are
//     assembled (seams.go; 06-sharedinformer/observe turns them into every
//     step of every object; client-go has metrics and logs instead), and
//     HandlerOptions.Name to name a handler to a watcher (the listener
//     still names it as client-go does: it wraps the handler after it is
//     built);
//   - teaching switches client-go lacks (breaks.go, the demo's --break),
//     installed at the seams, outside a watcher's wrapper, so no mirrored
//     method mentions them: Breaks.NoTombstones drops DeletedFinalStateUnknown
//     between processDeltas and the informer's OnDelete,
//     Breaks.BlockingListeners takes every listener's ring away; the zero
//     value breaks nothing;
//   - left out: logging (HandlerOptions.Logger, the klog lines of
//     WaitForNamedCacheSync and WaitFor), metrics (Identifier,
//     InformerMetricsProvider), the cache mutation detector, the deprecated
//     GetController and its dummyController, the deprecated
//     constructors NewInformer, NewIndexerInformer, NewTransformingInformer
//     and NewTransformingIndexerInformer, and DeletionHandlingObjectToName
//     (stage 03 leaves out the ObjectToName it builds on);
//   - two concurrent Runs start an informer once (client-go checks and sets
//     started in two lock sections, so both can start, and the second to
//     sync panics closing synced again);
//   - a panic on processLoop's goroutine before the first sync (an
//     IndexFunc's, with a queue that hands out the initial list an object
//     at a time) comes out of Run at once; client-go's Run holds it until
//     its context ends, its goroutine that closes synced waiting only for
//     the context until then;
//   - a handler added while the informer runs, before the processor's
//     goroutine has started the listeners, learns that the informer has
//     synced only after its replay (stage 05's AddLateListener); client-go's
//     processor may start that watch mid-replay, so its HasSynced can turn
//     true before the replay is counted;
//   - errors where client-go is silent or panics: processLoop reports an
//     error from Process (client-go drops it), processDeltas rejects an
//     unknown delta type (client-go skips it), a controller run twice or
//     with a Config missing its Queue, ListerWatcher or Process reports it
//     and does not start, an informer run twice reports it through
//     HandleError (client-go logs it at info level), AddEventHandler and
//     AddTypedEventHandler refuse a nil handler, and leave the informer's
//     resync check period as it was (client-go registers it, lowering the
//     period if it asks for less, and panics on the first notification),
//     and the typed adapter reports an
//     object of the wrong type instead of panicking in the handler's
//     goroutine;
//   - nil is a default where client-go would crash later: a nil Handler in
//     InformerOptions is a cache without notifications, and a nil watch
//     error handler (with or without context) restores the default;
//   - a handler's negative resync period is an error (stage 05's
//     HandlerResyncPeriod), where client-go silently gives the check period.
//
// Size: about 1,038 lines of code (lines neither blank nor only a comment;
// tests, demo and generated code left out), beside 1,522 in client-go
// v0.37.2's tools/cache/shared_informer.go (whose processor half is stage
// 05's) and tools/cache/controller.go.
package informer
