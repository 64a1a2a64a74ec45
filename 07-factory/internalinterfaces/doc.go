// Mirrors k8s.io/client-go v0.37.2 informers/internalinterfaces (its one file,
// factory_interfaces.go, is factory_interfaces.go here).

// Package internalinterfaces holds the few names that both the factory
// (stage 07's package factory) and its per-resource informers
// (07-factory/core/v1, 07-factory/apps/v1…) need. The factory imports the
// resource packages to offer Core().V1().Pods(); a resource package needs
// the factory's InformerFor to share its informer. Putting the factory's
// interface here, in a package both import, breaks the import cycle, which
// is all this package is for, in client-go as here.
//
// Differences from client-go: SharedInformerFactory and InformerOptions
// have no InformerName (metrics are left out), and NewListWatch and
// ErrNilClient (listwatch.go) are ours.
package internalinterfaces
