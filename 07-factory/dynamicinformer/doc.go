// Mirrors k8s.io/client-go v0.37.2 dynamic/dynamicinformer: interface.go and
// informer.go here mirror its files of the same names.

// Package dynamicinformer is the shared informer factory for resources
// that have no Go type in the clientset: a CustomResource, or any resource
// a program only knows by name. It talks to the apiserver through the
// dynamic client, and its informers hold *unstructured.Unstructured objects
// (maps of JSON fields), keyed by GroupVersionResource instead of Go type.
// Otherwise it is stage 07's factory again: one informer per resource,
// shared, started, waited for and shut down together.
//
// Differences from client-go (07-factory/doc.go lists them all): a nil
// dynamic client makes every request fail with
// internalinterfaces.ErrNilClient instead of crashing the reflector's
// goroutine; the ListWatch is built by internalinterfaces.NewListWatch.
//
// Size: about 133 lines of code (lines neither blank nor only a comment;
// tests, demo and generated code left out), beside 156 in client-go
// v0.37.2's dynamic/dynamicinformer/informer.go.
package dynamicinformer
