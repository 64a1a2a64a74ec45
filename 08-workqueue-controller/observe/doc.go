// Package observe watches a stage 08 Controller from outside and turns what
// it does into Steps: each key's path from handler to queue to worker to
// lister to write, and the controller's start and shutdown. The demo's
// timeline, the live view, the chaos harness and the tests read them.
//
// The controller says nothing about being watched. A Tracer gets every Step
// from a seam the controller already has, and none of them changes what the
// controller does or how concurrently it does it:
//
//   - the Informers (Seams.Informers): the handlers' calls, and the
//     listers' reads;
//   - the workqueue (Options.NewQueue): ours, built with a storage that
//     reports each key it queues and hands out, under the queue's own lock,
//     so the timeline's order is the queue's order (client-go's queue takes
//     such a storage too: TypedQueueConfig.Queue); and a wrapper that
//     reports each call before making it;
//   - the rate limiter (Options.RateLimiter): the delay it hands out;
//   - the reconcile (Seams.Sync): which worker holds which key, and how
//     each reconcile ended;
//   - the event recorder (Seams.Recorder);
//   - the transport of the rest.Config the controller writes through: each
//     write is a row when it is sent, and its answer a row when it comes,
//     so a write always comes before the watch events it causes;
//   - the logger in Run's context: the lines Run logs as sample-controller
//     does ("Starting workers", "Shutting down workers"…) become the
//     controller's rows, and each worker's logger carries its number.
//
// Not a mirror of client-go or sample-controller, which are watched through
// their logs and metrics.
package observe
