// Package controller is stage 08, part two: where every layer of this
// repository meets. A Controller keeps, for every Foo (the custom resource
// of kubernetes/sample-controller), a Deployment with the Foo's replicas,
// controlled by the Foo, and reports the Deployment's available replicas in
// the Foo's status. It runs on our own stack only: stage 07's factories
// (informers built by stage 06 from stages 01-05) and stage 08's workqueue.
// client-go gives it clients and the event recorder, nothing else.
//
// It mirrors kubernetes/sample-controller (controller.go: NewController,
// the event handlers, Run, runWorker, processNextWorkItem, syncHandler,
// updateFooStatus, newDeployment; main.go: the clients and the informer
// factories) with the same names, so the two read side by side. client-go
// itself has no controller; the workqueue's contract (Get, Done, Forget,
// AddRateLimited, ShutDownWithDrain) is util/workqueue's, which the
// workqueue package mirrors.
//
// Read controller.go (Controller, NewController), handlers.go (events into
// keys), run.go (Run, runWorker, processNextWorkItem) and sync.go (the
// reconcile), in that order, beside sample-controller's controller.go.
// Skip on a first reading lifecycle.go (the guards around a Controller's
// life), informers.go, foo.go and options.go (what sample-controller's
// main.go and its generated code do). The functions marked //lab:08 are
// lab 08's: make lab-start 8 turns them into stubs for you to write
// (docs/en/labs/08-workqueue-controller.md).
//
// Differences from sample-controller (docs/en/08b-controller.md,
// "Differences from sample-controller"), each line of ours beyond its
// controller.go under one of them:
//   - Foos come from stage 07's dynamic informer as unstructured objects
//     (FooLister), and fooFromUnstructured reads them into a small Foo
//     type; their status is written with the dynamic client (fooclient),
//     replacing the whole status as sample-controller's typed UpdateStatus
//     does. sample-controller has a generated clientset, informer and
//     lister for its API group. Keys are our informer.ObjectName, made with
//     meta.Accessor (cache.ObjectToName there), and tombstones our
//     DeletedFinalStateUnknown: no stage imports client-go's tools/cache;
//   - the informers sit behind the Informers interface, which also gives
//     the listers (sample-controller's fooInformer.Lister()), so that the
//     tests can run the same reconcile on client-go's informers and
//     workqueue and compare the worlds the two make (non-test code has one
//     implementation, NewInformers, on our stages);
//   - Run starts and stops the informers itself (sample-controller's
//     main.go starts them and never stops them), and waits for the
//     handlers' registrations to sync, not only the caches;
//   - Run shuts down with a drain: once ctx ends, a worker that gets a key
//     hands it back unreconciled (processNextWorkItem's ShuttingDown
//     branch), ShutDownWithDrain waits for the reconciles in flight, which
//     run on a context that outlives Run's, DrainTimeout bounds the wait,
//     and Run waits for its workers (a WaitGroup) before it stops the
//     informers. sample-controller defers ShutDown, starts its workers with
//     wait.UntilWithContext and leaves them to the process's exit;
//   - an update changes a copy of the cached Deployment (only its
//     replicas, keeping its resourceVersion, so a stale cache gets a
//     Conflict and a retry) where sample-controller sends a fresh
//     newDeployment(foo), overwriting whatever else a person changed;
//   - the Foo's status is written, and the Synced Event recorded, only
//     when something changed; sample-controller writes and records on every
//     reconcile, which on a quiet cluster is one write and one Event per Foo
//     per resync;
//   - the Deployment handler ignores Deployments controlled by something
//     other than a Foo of our group and version (IsFooOwner;
//     sample-controller checks the kind only);
//   - a reconcile that panics is an error for its key (retried), not the
//     end of the process: syncHandler is syncFoo wrapped by recovered;
//   - a Controller runs once: a second Run returns an error and leaves the
//     first one running, and one built but never run is given back with
//     ShutDown, which stops its delaying queue's goroutine (lifecycle.go;
//     sample-controller's Run has no guard, and only its Run shuts the
//     queue down);
//   - Run makes the default event recorder and stops its broadcaster when
//     it returns (lifecycle.go), where sample-controller makes it in
//     NewController and never stops it;
//   - the default rate limiter is the workqueue's
//     DefaultTypedControllerRateLimiter (a bucket of 10 per second, burst
//     100); sample-controller builds the same per-key backoff with a bucket
//     of 50 per second, burst 300. Options.RateLimiter takes either;
//   - Options.Namespace watches one namespace, where sample-controller
//     watches all; the Deployment runs the pause image, not nginx (on the
//     playground nothing runs it at all);
//   - the controller is watched from outside: it logs as sample-controller
//     does (each worker's logger carries its number), and Options take
//     seams for its informers, recorder and reconcile beside the queue
//     and rate limiter (Seams); 08-workqueue-controller/observe fills
//     them and turns what passes through into the demo's timeline. Nothing
//     in the controller knows it is watched; what watching changes (no
//     call, and some synchronisation) is in observe's doc.go.
//
// The rest is sample-controller's: a deleted Foo is reported through
// utilruntime.HandleErrorWithContext and dropped, handleObject looks the
// Foo up in the lister and calls enqueueFoo, Run defers
// utilruntime.HandleCrash, and NewController and Run check their arguments
// no more than sample-controller's do (nil clients panic; Run with no
// worker reconciles nothing until ctx ends).
//
// Size: about 341 lines of code (lines neither blank nor only a comment) in
// controller.go, handlers.go, run.go, sync.go and lifecycle.go, beside 264
// in sample-controller v0.37.1's controller.go (which counts its licence
// and imports once, where our five files repeat theirs); informers.go,
// foo.go and options.go stand for its main.go and its generated API.
package controller
