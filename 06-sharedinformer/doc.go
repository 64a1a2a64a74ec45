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
// The controller (controller.go) runs a reflector and processLoop around a
// queue; processDeltas (process_deltas.go) turns each popped item into a
// cache write and a notification; the sharedIndexInformer (shared_informer.go,
// run.go, handlers.go, handle_deltas.go) is that controller's Process, and
// the source of every listener's notifications and HasSynced.
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
//     HandlerOptions.Name to name a handler to a watcher;
//   - teaching switches client-go lacks (breaks.go, the demo's --break):
//     Breaks.NoTombstones drops DeletedFinalStateUnknown before the
//     handlers, Breaks.BlockingListeners takes every listener's ring away;
//     the zero value breaks nothing;
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
// Size: about 1,016 lines of code (lines neither blank nor only a comment;
// tests, demo and generated code left out), beside 1,522 in client-go
// v0.37.2's tools/cache/shared_informer.go (whose processor half is stage
// 05's) and tools/cache/controller.go.
package informer
