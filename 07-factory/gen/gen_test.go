package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
)

// TestGeneratedFilesAreUpToDate renders every file as `make generate`
// would and compares it with the file in the repository: a template or
// the table changed without regenerating, or a generated file edited by
// hand, fails here, and so `make test`.
func TestGeneratedFilesAreUpToDate(t *testing.T) {
	files, err := render(resources)
	if err != nil {
		t.Fatal(err)
	}
	const dir = ".." // 07-factory, from 07-factory/gen
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("07-factory/%s: %v; run `make generate`", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("07-factory/%s is not what gen writes; run `make generate` (and edit the template, not the file)", name)
		}
	}
	stale, err := staleFiles(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range stale {
		t.Errorf("07-factory/%s was generated for a resource the table no longer lists; run `make generate`", name)
	}
}

// TestRenderCoversEveryResource: each row gives an informer, a lister and
// a case of ForResource.
func TestRenderCoversEveryResource(t *testing.T) {
	files, err := render(resources)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resources {
		for _, name := range []string{r.Dir() + "/" + r.FileName() + ".go", "listers/" + r.Dir() + "/" + r.FileName() + ".go"} {
			if _, ok := files[name]; !ok {
				t.Errorf("%s: no %s", r.Kind, name)
			}
		}
		if !bytes.Contains(files["generic.go"], []byte(`Resource: "`+r.Plural+`"}`)) {
			t.Errorf("%s: ForResource has no case for %s", r.Kind, r.Plural)
		}
	}
}

// moreResources are rows a workshop might add, with the plurals that are not
// Kind plus "s" (ingresses, networkpolicies, endpoints, storageclasses).
var moreResources = []resource{
	{Group: "", GroupPackage: "core", Version: "v1", Kind: "Endpoints", Plural: "endpoints", Namespaced: true, API: "k8s.io/api/core/v1"},
	{Group: "networking.k8s.io", GroupPackage: "networking", Version: "v1", Kind: "Ingress", Plural: "ingresses", Namespaced: true, API: "k8s.io/api/networking/v1"},
	{Group: "networking.k8s.io", GroupPackage: "networking", Version: "v1", Kind: "IngressClass", Plural: "ingressclasses", Namespaced: false, API: "k8s.io/api/networking/v1"},
	{Group: "networking.k8s.io", GroupPackage: "networking", Version: "v1", Kind: "NetworkPolicy", Plural: "networkpolicies", Namespaced: true, API: "k8s.io/api/networking/v1"},
	{Group: "storage.k8s.io", GroupPackage: "storage", Version: "v1", Kind: "StorageClass", Plural: "storageclasses", Namespaced: false, API: "k8s.io/api/storage/v1"},
	{Group: "policy", GroupPackage: "policy", Version: "v1", Kind: "PodDisruptionBudget", Plural: "poddisruptionbudgets", Namespaced: true, API: "k8s.io/api/policy/v1"},
}

// TestAccessorNamesAreClientGos: for every row, and for rows whose plural
// is not Kind plus "s", the names the templates use are methods client-go
// has: the clientset's (client.NetworkingV1().NetworkPolicies, which the
// generated informer calls) and the informers factory's
// (Networking().V1().NetworkPolicies, which ours mirrors).
func TestAccessorNamesAreClientGos(t *testing.T) {
	clientset := reflect.TypeFor[kubernetes.Interface]()
	factory := reflect.TypeFor[informers.SharedInformerFactory]()
	for _, r := range append(slices.Clone(resources), moreResources...) {
		group, ok := clientset.MethodByName(r.ClientGroup())
		if !ok {
			t.Errorf("%s: the clientset has no %s()", r.Kind, r.ClientGroup())
			continue
		}
		if _, ok := group.Type.Out(0).MethodByName(r.PluralGo()); !ok {
			t.Errorf("%s: the clientset's %s() has no %s(); the generated informer would not compile", r.Kind, r.ClientGroup(), r.PluralGo())
		}
		g, ok := factory.MethodByName(r.GroupGo())
		if !ok {
			t.Errorf("%s: client-go's factory has no %s()", r.Kind, r.GroupGo())
			continue
		}
		v, ok := g.Type.Out(0).MethodByName(r.VersionGo())
		if !ok {
			t.Errorf("%s: client-go's %s() has no %s()", r.Kind, r.GroupGo(), r.VersionGo())
			continue
		}
		if _, ok := v.Type.Out(0).MethodByName(r.PluralGo()); !ok {
			t.Errorf("%s: client-go's %s().%s() has no %s(), which ours would have instead", r.Kind, r.GroupGo(), r.VersionGo(), r.PluralGo())
		}
	}
	files, err := render(append(slices.Clone(resources), moreResources...))
	if err != nil {
		t.Fatalf("rendering the table with more rows: %v", err)
	}
	if want := "client.NetworkingV1().NetworkPolicies(namespace).List(ctx, opts)"; !bytes.Contains(files["networking/v1/networkpolicy.go"], []byte(want)) {
		t.Errorf("networking/v1/networkpolicy.go does not call %s", want)
	}
}

// TestRenderRefusesABadRow: a row the templates would turn into code that
// does not compile, or that names its resource wrongly, is an error that
// says which row and why.
func TestRenderRefusesABadRow(t *testing.T) {
	good := resources[0]
	for _, tc := range []struct {
		name string
		edit func(r *resource)
		want string
	}{
		{"a plural in capitals", func(r *resource) { r.Plural = "ConfigMaps" }, `plural "ConfigMaps": want the API's resource name, in lower case`},
		{"no plural", func(r *resource) { r.Plural = "" }, `plural "": want the API's resource name`},
		{"a plural unlike the kind", func(r *resource) { r.Plural = "maps" }, `plural "maps" does not begin as the kind does`},
		{"an unexported kind", func(r *resource) { r.Kind = "configMap" }, `kind "configMap": want an exported Go name`},
		{"no API package", func(r *resource) { r.API = "" }, "GroupPackage, Version and API are all needed"},
	} {
		r := good
		tc.edit(&r)
		_, err := render([]resource{r})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: render returned %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}
