// Mirrors k8s.io/client-go v0.37.2 dynamic/dynamiclister: interface.go,
// lister.go and shim.go here mirror its files of the same names.

// Package dynamiclister lists and gets objects of any resource from an
// informer's cache as *unstructured.Unstructured: the lister of
// 07-factory/dynamicinformer, for resources with no Go type (a
// CustomResource). Like every lister it reads the cache, never the server.
//
// Differences from client-go: the listers are stage 04's ResourceIndexer
// for *unstructured.Unstructured, so a cached item of another type or a nil
// selector is an error (client-go panics), and the shim's Get returns a nil
// runtime.Object with its error.
package dynamiclister
