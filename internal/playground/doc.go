// Package playground starts a real kube-apiserver backed by a real etcd on
// loopback, so that every stage's demo and integration test talks to the same
// LIST/WATCH protocol a production cluster speaks: resourceVersions, bookmarks,
// WatchList streaming and 410 Gone.
//
// The binaries are built once from the nested module in playground/ (which keeps
// k8s.io/kubernetes out of the learner's module graph) and cached under the
// user's cache directory, keyed by that module's go.mod and go.sum. Start runs
// them in a fresh temporary directory on free loopback ports, writes a
// kubeconfig, waits for /readyz and returns a Cluster whose Stop tears
// everything down: the apiserver first, then etcd (the other order leaves the
// apiserver hanging on its storage), then the directory.
//
// The child processes run in their own process group, so a Ctrl-C in the
// terminal reaches only our process, which stops them in order; and they carry
// a parent-death signal, so they die with us even if we are killed with -9
// (Linux ties it to the thread that started them, which in a Go program lives
// as long as the process; see startProcess). A directory left by a killed
// run is removed by the next Start: its owner's lock is gone (owner.go).
package playground
