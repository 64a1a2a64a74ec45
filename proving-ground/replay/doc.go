// Package replay is a stand-in for the apiserver in the scale benchmark
// (proving-ground/bench-scale, make bench-scale): an HTTP server on loopback that
// answers a pod informer's LIST (paged or in one piece), WATCH and WatchList
// requests from bytes it encoded once, in JSON or protobuf.
//
// Why not the playground: an apiserver's own cost (reading etcd or its watch
// cache, encoding, its own allocations) changes from run to run and lands on
// the same two cores as the informers being measured. Here the answer to
// every request is a slice of bytes made before the first client connects,
// so two informers measured one after the other read the same bytes, and
// what differs between them is the informer. The benchmark still runs once
// against the playground, as a check that the replayed protocol is the real
// one.
//
// What it serves is what client-go's reflector asks for
// (k8s.io/client-go v0.37.2 tools/cache/reflector.go: list, watchList,
// watch), in the apiserver's wire formats
// (k8s.io/apiserver v0.37.2 pkg/endpoints/handlers/watch.go: one framed
// metav1.WatchEvent per event, the object inside it encoded whole):
//   - GET /api/v1/pods: a PodList; with Options.Paged, limit and continue
//     are honoured as etcd pages them, otherwise limit is ignored as the
//     watch cache ignores it for resourceVersion="0";
//   - GET /api/v1/pods?watch=true: a watch with no initial events;
//   - GET /api/v1/pods?watch=true&sendInitialEvents=true: a WatchList, an
//     ADDED event per pod, then the BOOKMARK with the
//     k8s.io/initial-events-end annotation;
//   - POST /replay/send: stream prepared update events to the open watches
//     (Server.Send, for a client in another process).
//
// It ignores selectors and namespaces, never compacts and never ends a
// watch by itself: it replays one state of one resource, nothing more.
package replay
