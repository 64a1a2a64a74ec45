// Not a mirror of client-go: the oracle behind stage 08's controller. The
// same controller.Controller runs on client-go's stack (its informers
// factory, dynamicinformer and util/workqueue) beside ours, so that what the
// two produce can be compared. It is imported by tests only.

// Package clientgostack adapts client-go's informers and workqueue to stage
// 08's controller.Informers and controller.Queue. It may import client-go's
// tools/cache, informers and util/workqueue because it is no stage's code:
// stages 01-08 never do outside their _test.go files.
package clientgostack
