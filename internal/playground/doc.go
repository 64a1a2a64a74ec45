// Package playground starts a real kube-apiserver backed by a real etcd on
// loopback, so that every stage's demo and integration test talks to the same
// LIST/WATCH protocol a production cluster speaks: resourceVersions, bookmarks,
// WatchList streaming and 410 Gone.
//
// The binaries are built once from the nested module in playground/ (which keeps
// k8s.io/kubernetes out of the learner's module graph) and cached under the
// user's cache directory, keyed by that module's go.mod and go.sum; or,
// when PLAYGROUND_BINARIES or KUBEBUILDER_ASSETS names a directory whose
// kube-apiserver says v1.37.x and whose etcd says 3.7.x (envtest's, say),
// taken from there with nothing built, and the first line says so
// (prebuilt.go). Start runs
// them in a fresh temporary directory on free loopback ports, writes a
// kubeconfig, waits for /readyz and returns a Cluster whose Stop tears
// everything down: the apiserver first, then etcd (the other order leaves the
// apiserver hanging on its storage), then the directory.
//
// The child processes run in their own process group, so a Ctrl-C in the
// terminal reaches only our process, which stops them in order. If we are
// killed with -9 instead, Linux kills them with us (a parent-death signal,
// see childAttr); macOS has no such signal, so each playground writes its
// children's PIDs down in its directory and the next Start stops those a
// dead owner left, checking each one's command line first so a reused PID
// is never killed (children.go). The directory itself is removed by the
// next Start too: its owner's lock is gone (owner.go).
//
// Every child speaks TLS with certificates from the playground's own fresh
// CA (etcd demands a client certificate from it too), which is also how
// Start knows that what answers on a port is its child and not a stranger
// that took the port first: the same check on Linux and macOS (certs.go).
//
// Linux and macOS (arm64 and amd64) are supported; native Windows is not
// (windows.go), and Windows users run the course in WSL 2.
package playground
