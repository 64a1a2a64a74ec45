// Not a mirror of client-go: issue 14's chaos harness, test machinery for
// the informers of stage 06 and stage 08's controller.

// Package chaos runs informers through faults and checks that they end
// where the server is. One Run is:
//
//	a playground (watch cache off, so etcd's compaction gives real 410s)
//	  ← a seeded random workload writes configmaps, secrets and pods directly
//	  ← internal/faultproxy, injecting the seed's fault plan
//	      ← each Side (client-go's informers, ours) lists and watches through it,
//	        one informer per resource, each with three handlers (a plain one,
//	        a slow one, one that panics on some updates)
//
// When the workload and the faults stop, every side must converge within a
// bound: each cache, and each handler's View (the adds, updates and deletes
// it received, applied in order), must equal a fresh LIST of the server,
// compared with cmp.Diff. A delete that never reached a handler leaves its
// key in that handler's View, so the same comparison catches it.
//
// The workload and the fault plan come from the seed; when each informer
// meets each fault does not (it is a real server, on real time), which is
// why the assertion is convergence within a bound and not an exact
// sequence of calls. The Sides live in the test files: client-go's
// informer is the oracle, imported only by tests.
//
// RunController does the same for stage 08's controller, whose truth is not
// a LIST of what the workload wrote but what the controller should have
// written: a FooWorkload changes Foos (and their Deployments, behind the
// controllers' backs) in one namespace per ControllerSide, and each
// namespace must end as its Foos ask (FooWorld.Wanted): every Foo with
// exactly its Deployment, right, and no orphan left.
package chaos
