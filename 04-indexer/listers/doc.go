// Package listers is stage 04's typed lister: ResourceIndexer[T], the
// generic type behind every generated lister in client-go (PodLister,
// DeploymentLister…). It mirrors k8s.io/client-go v0.37.2
// listers/generic_helpers.go.
//
// It differs from client-go in one way: where client-go would panic, on a
// cached item that is not a T or on a nil label selector, ours returns an
// error.
// lister-gen's per-type interfaces (PodLister with its Pods(namespace)
// method, the expansion interfaces) are generated code and left out: a
// ResourceIndexer[*corev1.Pod] and NewNamespaced do the same job.
package listers
