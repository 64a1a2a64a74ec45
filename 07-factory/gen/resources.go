package main

import (
	"fmt"
	"strings"
	"unicode"
)

// resource is one API type the factory serves: a row of the table below
// turns into an informer file, a lister file, and a line in each interface
// and in ForResource's switch.
type resource struct {
	// Group is the API group ("" for core); GroupPackage its Go package
	// name, and the name of the factory's accessor (Core(), Apps()).
	Group, GroupPackage string
	// Version is the API version ("v1").
	Version string
	// Kind is the type's name ("Pod"); Plural its resource, as the API
	// spells it ("pods", "ingresses", "networkpolicies", "endpoints"): it
	// is not always Kind plus "s".
	Kind, Plural string
	// Namespaced types take a namespace in their informer and lister.
	Namespaced bool
	// API is the Go package of the type, in k8s.io/api.
	API string
}

// resources are the types a workshop needs. To add one of a group already
// here (core, apps), add its row and run `make generate`. A row of a new
// group (networking, for Ingress) generates that group's packages too, but
// the factory's accessor for it (Networking() in factory.go's
// SharedInformerFactory) is written by hand: add it, or generic.go, which
// calls it, does not compile.
var resources = []resource{
	{Group: "", GroupPackage: "core", Version: "v1", Kind: "ConfigMap", Plural: "configmaps", Namespaced: true, API: "k8s.io/api/core/v1"},
	{Group: "", GroupPackage: "core", Version: "v1", Kind: "Namespace", Plural: "namespaces", Namespaced: false, API: "k8s.io/api/core/v1"},
	{Group: "", GroupPackage: "core", Version: "v1", Kind: "Pod", Plural: "pods", Namespaced: true, API: "k8s.io/api/core/v1"},
	{Group: "", GroupPackage: "core", Version: "v1", Kind: "Service", Plural: "services", Namespaced: true, API: "k8s.io/api/core/v1"},
	{Group: "apps", GroupPackage: "apps", Version: "v1", Kind: "Deployment", Plural: "deployments", Namespaced: true, API: "k8s.io/api/apps/v1"},
}

// The names the templates use, derived from a row.

// PluralGo is Plural as a Go name, the accessor's: Pods(), ConfigMaps(),
// Ingresses(), NetworkPolicies(), Endpoints(), as client-go's clientset
// and informers spell them. It keeps Kind's capitals for as long as Kind
// and Plural agree (ignoring case), then takes Plural's letters: the API's
// plural, never a guess at English.
func (r resource) PluralGo() string {
	n := 0
	for n < len(r.Kind) && n < len(r.Plural) && strings.ToLower(r.Kind[n:n+1]) == r.Plural[n:n+1] {
		n++
	}
	return r.Kind[:n] + r.Plural[n:]
}

// check refuses a row the templates would turn into code that does not
// compile, or that names the resource wrongly.
func (r resource) check() error {
	switch {
	case r.Kind == "" || !unicode.IsUpper(rune(r.Kind[0])):
		return fmt.Errorf("kind %q: want an exported Go name, such as Pod", r.Kind)
	case r.Plural == "" || r.Plural != strings.ToLower(r.Plural):
		return fmt.Errorf("%s: plural %q: want the API's resource name, in lower case, such as pods", r.Kind, r.Plural)
	case !strings.EqualFold(r.Kind[:1], r.Plural[:1]):
		return fmt.Errorf("%s: plural %q does not begin as the kind does; the accessor's name would not be exported", r.Kind, r.Plural)
	case r.GroupPackage == "" || r.Version == "" || r.API == "":
		return fmt.Errorf("%s: GroupPackage, Version and API are all needed", r.Kind)
	}
	return nil
}

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
