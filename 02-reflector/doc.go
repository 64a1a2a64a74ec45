// Package reflector is stage 02: the Reflector, the loop that keeps a local
// store in step with the apiserver.
//
// A Reflector gets the current state of one resource (a LIST, or a WatchList
// stream), hands it to its store with Replace, then WATCHes from the
// resourceVersion of that state and turns every event into Add, Update or
// Delete on the store. When the watch ends it starts another from the last
// resourceVersion it saw; when the server says that resourceVersion is gone
// (410), it lists again. Every failure is retried with a backoff, so a broken
// apiserver sees a trickle of requests instead of a storm.
//
// It mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go (Reflector,
// ReflectorOptions, NewReflectorWithOptions, RunWithContext,
// ListAndWatchWithContext, watch, list, watchList, handleAnyWatch,
// LastSyncResourceVersion, the resourceVersion rules, the error helpers,
// DefaultWatchErrorHandler and TransformingStore) and
// tools/cache/retry_with_deadline.go. Like client-go's, it leaves WatchList
// off for a ListerWatcher whose client cannot stream (a fake clientset; see
// stage 01's ToListWatcherWithWatchListSemantics). The LIST
// goes through stage 01's pager; the backoff is rebuilt here from the
// algorithm of apimachinery's wait.Backoff.DelayWithReset.
//
// Left out on purpose (see docs/en/02-reflector.md, "Differences"):
//   - the WatchListClient feature gate: ReflectorOptions.UseWatchList chooses
//     between WatchList streaming and LIST+WATCH explicitly (nil means
//     WatchList, client-go's default since 1.35);
//   - logging (klog) and the initial-events-end warning ticker, which only
//     logs; errors that client-go hands to utilruntime.HandleErrorWithContext
//     are handed to it here too, with the same messages, and the one line
//     client-go logs at the default verbosity when a watch ends with an error
//     ("Warning: watch ended with error") is logged too: without it a watch
//     event that does not decode would leave no trace;
//   - metrics (tools/cache/reflector_metrics.go), traces and the data
//     consistency detector;
//   - NewNamespaceKeyedIndexerAndReflector (it needs the Indexer of stage 04).
//
// Two things are deliberately different: the LIST runs on the calling
// goroutine with the reflector's context instead of a detached goroutine, and
// every wait (including the one between two ListAndWatch rounds, which
// client-go takes on the real clock) uses the reflector's clock and returns
// as soon as the context is cancelled.
//
// Size: about 944 lines of code (lines neither blank nor only a comment;
// tests, demo and generated code left out), beside 926 in client-go
// v0.37.2's tools/cache/reflector.go and tools/cache/retry_with_deadline.go.
//
// # Reading order
//
// With client-go's tools/cache/reflector.go open beside it:
//
//  1. reflector.go: Reflector, RunWithContext and ListAndWatchWithContext,
//     the loop the rest hangs from;
//  2. options.go: NewReflectorWithOptions, what it chooses and its defaults;
//  3. list.go: list and syncWith, the state by LIST into the store's
//     Replace;
//  4. watch.go: watchWithResync and watch, one watch after another and how
//     each ends;
//  5. handlewatch.go: handleAnyWatch, one event into one store call;
//  6. resourceversion.go: which resourceVersion a relist and a rewatch ask
//     for;
//  7. watchlist.go: the state as a WatchList stream instead;
//  8. resync.go, then errors.go, backoff.go and retry.go: the resync timer,
//     and what a failure costs.
//
// Skip on a first reading: demo/, which is how the stage is shown;
// typecheck.go and transform.go, helpers for names, type checks and an
// interface the store may implement; the tests' fakes and harness
// (fakeclient_test.go, script_test.go, recorder_test.go, runboth_test.go,
// export_test.go).
//
// The functions marked //lab:02 are lab 02's: make lab-start 2 turns them
// into stubs that state their contract (docs/en/labs/02-reflector.md).
package reflector
