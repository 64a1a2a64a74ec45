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
// Left out or changed on purpose (see docs/en/08b-controller.md,
// "Differences"):
//   - Foos come from stage 07's dynamic informer as unstructured objects,
//     and fooFromUnstructured reads them into a small Foo type; their
//     status is written with the dynamic client. sample-controller has a
//     generated clientset, informer and lister for its API group;
//   - the informers sit behind the Informers interface, so that the tests
//     can run the same reconcile on client-go's informers and workqueue and
//     compare the worlds the two make (non-test code has one
//     implementation, NewInformers, on our stages);
//   - Run starts and stops the informers itself (sample-controller's
//     main.go does), and shuts down with ShutDownWithDrain: reconciles in
//     flight finish, on a context that outlives Run's, before the
//     informers stop. sample-controller defers ShutDown and leaves its
//     workers to the process's exit;
//   - an update changes a copy of the cached Deployment (only its
//     replicas, keeping its resourceVersion, so a stale cache gets a
//     Conflict and a retry) where sample-controller sends a fresh
//     newDeployment(foo), overwriting whatever else a person changed;
//   - the Foo's status is written, and the Synced Event recorded, only
//     when something changed; sample-controller writes and records on every
//     reconcile, which on a quiet cluster is one write and one Event per Foo
//     per resync;
//   - the Deployment handler ignores Deployments controlled by something
//     other than a Foo of our group and version (sample-controller checks
//     the kind only);
//   - a reconcile that panics is an error for its key (retried), not the
//     end of the process (syncHandlerWithRecover wraps syncHandler);
//   - a Controller runs once: a second Run, even Run(ctx, 0), returns an
//     error and leaves the first one running; and one built but never run
//     is given back with ShutDown, which stops its delaying queue's
//     goroutine (sample-controller's Run has no guard, and only its Run
//     shuts the queue down). NewController that fails leaves no handler
//     registered;
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
//     in the controller knows it is watched, and watching changes neither
//     what it does nor how concurrently.
//
// Size: about 381 lines of code (lines neither blank nor only a comment) in
// controller.go, handlers.go, run.go and sync.go, beside 264 in
// sample-controller v0.37.1's controller.go; informers.go, foo.go and
// options.go stand for its main.go and its generated API.
package controller
