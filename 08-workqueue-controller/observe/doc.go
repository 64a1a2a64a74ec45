// Package observe watches a stage 08 Controller from outside and turns what
// it does into Steps: each key's path from handler to queue to worker to
// lister to write, and the controller's start and shutdown. The demo's
// timeline, the live view, the chaos harness and the tests read them.
//
// The controller says nothing about being watched. A Tracer gets every Step
// from a seam the controller already has:
//
//   - the Informers (Seams.Informers): the handlers' calls, and the
//     listers' reads;
//   - the workqueue (Options.NewQueue): a wrapper that reports each call
//     the controller makes, an Add before it is made (what it says the
//     queue will do is marked "(predicted)"), a Get after it returns; and,
//     when the Tracer builds the queue (ours, the default), a storage
//     (TypedQueueConfig.Queue) that counts the keys waiting, for the length
//     on the rows;
//   - the rate limiter (Options.RateLimiter): the delay it hands out;
//   - the reconcile (Seams.Sync): which worker holds which key, and how
//     each reconcile ended;
//   - the event recorder (Seams.Recorder);
//   - the transport of the rest.Config the controller writes through: each
//     write is a row when it is sent, and its answer a row when it comes,
//     so a write always comes before the watch events it causes; the
//     answer reaches the client as it came, a cut one with its error;
//   - the logger in Run's context: the lines Run logs as sample-controller
//     does ("Starting workers", "Shutting down workers"…) become the
//     controller's rows, and each worker's logger carries its number.
//
// What watching changes, exactly. A watched controller makes the same calls
// on its parts, from the same goroutines, as an unwatched one: each wrapper
// passes each call on once and makes none of its own (no Len or
// ShuttingDown on the queue, no NumRequeues on the limiter, no read of a
// cache: a row says only what the Tracer saw pass, or what it predicts,
// and says so), the Tracer holds no lock of its own across a call into the
// controller's parts, and it starts no goroutine. What it adds is
// synchronisation and time: each Step passes the Tracer's mutex and is
// handed to the Observer synchronously, on the goroutine that took it (an
// informer's handler goroutine, a worker, or Run's), and the storage of
// the queue it builds updates an atomic counter under the queue's lock.
// Those are happens-before edges between goroutines that an unwatched
// controller does not have, so a data race in the controller can hide from
// the race detector in a watched run, and a slow Observer slows the
// goroutine it runs on. The race checks therefore run unwatched as well:
// under -race, TestScenarioOnFakeClients runs each stack watched and
// unwatched, the lifecycle tests run unwatched, and
// TestSeededWorkloadReachesTheSameWorld runs ours alone beside the watched
// stacks.
//
// Not a mirror of client-go or sample-controller, which are watched through
// their logs and metrics.
package observe
