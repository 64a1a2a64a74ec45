package main

import "strings"

// resource is one API type the factory serves: a row of the table below
// turns into an informer file, a lister file, and a line in each interface
// and in ForResource's switch.
type resource struct {
	// Group is the API group ("" for core); GroupPackage its Go package
	// name, and the name of the factory's accessor (Core(), Apps()).
	Group, GroupPackage string
	// Version is the API version ("v1").
	Version string
	// Kind is the type's name ("Pod"); Plural its resource ("pods").
	Kind, Plural string
	// Namespaced types take a namespace in their informer and lister.
	Namespaced bool
	// API is the Go package of the type, in k8s.io/api.
	API string
}

// resources are the types a workshop needs. To add one, add its row and
// run `make generate`.
var resources = []resource{
	{Group: "", GroupPackage: "core", Version: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true, API: "k8s.io/api/core/v1"},
	{Group: "", GroupPackage: "core", Version: "v1", Kind: "Namespace", Plural: "namespaces", Namespaced: false, API: "k8s.io/api/core/v1"},
	{Group: "", GroupPackage: "core", Version: "v1", Kind: "Pod", Plural: "pods", Namespaced: true, API: "k8s.io/api/core/v1"},
	{Group: "", GroupPackage: "core", Version: "v1", Kind: "Service", Plural: "services", Namespaced: true, API: "k8s.io/api/core/v1"},
	{Group: "apps", GroupPackage: "apps", Version: "v1", Kind: "Deployment", Plural: "deployments", Namespaced: true, API: "k8s.io/api/apps/v1"},
}

// The names the templates use, derived from a row.

// PluralKind is the accessor's name: Pods(), ConfigMaps().
func (r resource) PluralKind() string { return r.Kind + "s" }

// LowerKind is the unexported struct's prefix: pod, configMap.
func (r resource) LowerKind() string { return strings.ToLower(r.Kind[:1]) + r.Kind[1:] }

// FileName is the file's name, and the resource's singular in NotFound
// errors, as client-go's lister-gen spells it: pod, configmap.
func (r resource) FileName() string { return strings.ToLower(r.Kind) }

// APIAlias is the import name of the type's package: corev1, appsv1.
func (r resource) APIAlias() string { return r.GroupPackage + r.Version }

// ClientGroup is the clientset's accessor for the group version: CoreV1, AppsV1.
func (r resource) ClientGroup() string {
	return strings.ToUpper(r.GroupPackage[:1]) + r.GroupPackage[1:] + strings.ToUpper(r.Version[:1]) + r.Version[1:]
}

// VersionGo is the version's accessor: V1.
func (r resource) VersionGo() string { return strings.ToUpper(r.Version[:1]) + r.Version[1:] }

// GroupGo is the group's accessor: Core, Apps.
func (r resource) GroupGo() string {
	return strings.ToUpper(r.GroupPackage[:1]) + r.GroupPackage[1:]
}

// Dir is the informer package's directory under 07-factory: core/v1.
func (r resource) Dir() string { return r.GroupPackage + "/" + r.Version }

// ClientGoGroupDir is the group's directory in client-go: core, apps.
func (r resource) ClientGoGroupDir() string { return r.GroupPackage }
