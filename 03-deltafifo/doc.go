// Package deltafifo is stage 03: the queues between the Reflector and the
// informer, and the key functions every later stage uses.
//
// It mirrors k8s.io/client-go v0.37.2:
//
//   - tools/cache/delta_fifo.go: DeltaFIFO, the classic design every older
//     article describes. Changes are grouped per key (a Deltas), keys leave in
//     the order they were first queued, a relist (Replace) turns objects it no
//     longer lists into DeletedFinalStateUnknown tombstones, and a resync
//     queues Sync deltas from the consumer's store.
//   - tools/cache/the_real_fifo.go: RealFIFO, what a v0.37 informer uses.
//     Every event is kept, in arrival order; with AtomicEvents a relist is one
//     ReplacedAll item and a resync one SyncAll item; Bookmark items carry
//     resourceVersions; PopBatch hands out runs of distinct objects.
//   - tools/cache/fifo.go: the Queue and QueueWithBatch interfaces,
//     PopProcessFunc and ErrFIFOClosed.
//   - tools/cache/store.go and tools/cache/controller.go: KeyFunc, KeyError,
//     ExplicitKey, MetaNamespaceKeyFunc, SplitMetaNamespaceKey,
//     DeletionHandlingMetaNamespaceKeyFunc (keyfunc.go); and
//     tools/cache/object-names.go: ObjectName (object_name.go), the key as a
//     struct, which stage 05's typed DeletedObject returns.
//
// The exported names and signatures are client-go's, so a reader can swap
// one package for the other; the tests do exactly that and compare.
//
// What it leaves out, on purpose:
//   - logging, tracing of slow handlers (utiltrace) and the RealFIFO's
//     metrics (RealFIFOOptions.Logger, Identifier, MetricsProvider): they
//     change nothing a consumer sees. What client-go reports through
//     utilruntime.HandleError (a known object whose lookup fails) ours
//     reports there too; what a DeltaFIFO only logs (a known key gone by
//     the time Replace or Resync reads it) ours does not report.
//   - the deprecated constructors NewDeltaFIFO and NewRealFIFO: use the
//     ...WithOptions ones.
//   - the plain FIFO (fifo.go), which no informer uses.
//   - ObjectName's conversions (NamespacedNameAsObjectName and
//     AsNamespacedName in object-names.go, ObjectToName and MetaObjectToName
//     in store.go): our key functions build the "namespace/name" string
//     directly, and ObjectName is here only for stage 05's DeletedObject.
//
// What differs, on purpose:
//   - ReconcileReplacement is exported (client-go's reconcileReplacement is
//     not) so that stage 06's informer can process ReplacedAll items the way
//     client-go's processReplacedAllInfo does.
//   - DeltaFIFO.Replace looks for objects missing from a relist in queue
//     order, where client-go ranges over a map; the result is the same.
//   - RealFIFO.Resync without AtomicEvents reports the error that happened
//     when queueing a Sync fails; client-go wraps the wrong (nil) variable.
//   - Queue lists the five ReflectorStore methods itself instead of
//     embedding a ReflectorStore interface, so stage 03 stands alone.
//
// Size: about 835 lines of code (lines neither blank nor only a comment;
// tests, demo and generated code left out), beside 963 in client-go
// v0.37.2's tools/cache/delta_fifo.go and tools/cache/the_real_fifo.go.
//
// # Reading order
//
// With client-go's tools/cache/delta_fifo.go and then
// tools/cache/the_real_fifo.go open beside it:
//
//  1. deltas.go: Delta, Deltas and the delta types, what both queues carry;
//  2. delta_fifo.go: DeltaFIFO, one entry per key, Add to Pop;
//  3. delta_fifo_replace.go: Replace and its tombstones, and Resync;
//  4. real_fifo.go: RealFIFO, every event in arrival order, what a v0.37
//     informer uses;
//  5. real_fifo_replace.go: Replace as one ReplacedAll item,
//     ReconcileReplacement, and Resync;
//  6. real_fifo_batch.go: PopBatch;
//  7. hassynced.go: when a queue has handed out its initial list;
//  8. queue.go and keyfunc.go: the interfaces both queues satisfy, and the
//     key functions every later stage uses.
//
// Skip on a first reading: demo/, which is how the stage is shown;
// object_name.go, ObjectName, kept for stage 05's typed DeletedObject; the
// tests' harness (harness_test.go). To see a rule as a test, read
// rules_test.go.
//
// The functions marked //lab:03 are lab 03's: make lab-start 3 turns them
// into stubs that state their contract (docs/en/labs/03-deltafifo.md).
package deltafifo
