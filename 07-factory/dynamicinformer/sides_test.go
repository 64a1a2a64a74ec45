package dynamicinformer_test

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	clientgodynamic "k8s.io/client-go/dynamic/dynamicinformer"

	"informer-from-scratch/07-factory/dynamicinformer"
	"informer-from-scratch/internal/testenv"
)

// A side is one dynamic factory, client-go's or ours, behind functions with
// the same signatures.
type side struct {
	name string
	// forResource asks for gvr's informer, registers rec on it (if not
	// nil), and returns what the tests read of it.
	forResource      func(gvr schema.GroupVersionResource, rec *testenv.Recorder) (resource, error)
	start            func(stopCh <-chan struct{})
	waitForCacheSync func(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool
	shutdown         func()
}

// resource is one informer of a side, reduced to what the tests read.
type resource struct {
	hasSynced func() bool
	isStopped func() bool
	store     any
	list      func(namespace string, selector labels.Selector) ([]runtime.Object, error)
	get       func(namespace, name string) (runtime.Object, error)
}

func newClientGoSide(client dynamic.Interface, namespace string) *side {
	f := clientgodynamic.NewFilteredDynamicSharedInformerFactory(client, 0, namespace, nil)
	return &side{
		name: "client-go",
		forResource: func(gvr schema.GroupVersionResource, rec *testenv.Recorder) (resource, error) {
			g := f.ForResource(gvr)
			if rec != nil {
				if _, err := g.Informer().AddEventHandler(rec); err != nil {
					return resource{}, err
				}
			}
			return resource{
				hasSynced: g.Informer().HasSynced,
				isStopped: g.Informer().IsStopped,
				store:     g.Informer().GetStore(),
				list: func(ns string, sel labels.Selector) ([]runtime.Object, error) {
					if ns == "" {
						return g.Lister().List(sel)
					}
					return g.Lister().ByNamespace(ns).List(sel)
				},
				get: func(ns, name string) (runtime.Object, error) {
					if ns == "" {
						return g.Lister().Get(name)
					}
					return g.Lister().ByNamespace(ns).Get(name)
				},
			}, nil
		},
		start:            f.Start,
		waitForCacheSync: f.WaitForCacheSync,
		shutdown:         f.Shutdown,
	}
}

func newOurSide(client dynamic.Interface, namespace string) *side {
	f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, 0, namespace, nil)
	return &side{
		name: "ours",
		forResource: func(gvr schema.GroupVersionResource, rec *testenv.Recorder) (resource, error) {
			g := f.ForResource(gvr)
			if rec != nil {
				if _, err := g.Informer().AddEventHandler(rec); err != nil {
					return resource{}, err
				}
			}
			return resource{
				hasSynced: g.Informer().HasSynced,
				isStopped: g.Informer().IsStopped,
				store:     g.Informer().GetStore(),
				list: func(ns string, sel labels.Selector) ([]runtime.Object, error) {
					if ns == "" {
						return g.Lister().List(sel)
					}
					return g.Lister().ByNamespace(ns).List(sel)
				},
				get: func(ns, name string) (runtime.Object, error) {
					if ns == "" {
						return g.Lister().Get(name)
					}
					return g.Lister().ByNamespace(ns).Get(name)
				},
			}, nil
		},
		start:            f.Start,
		waitForCacheSync: f.WaitForCacheSync,
		shutdown:         f.Shutdown,
	}
}

// ask asks a resource's lister the tests' questions and renders the
// answers as "namespace/name@rv" keys, errors included.
func (r resource) ask(namespaces []string, names []string) map[string][]string {
	out := map[string][]string{}
	for _, sel := range []string{"", "app=web", "app!=web", "seq"} {
		selector := labels.SelectorFromSet(nil)
		if sel != "" {
			var err error
			if selector, err = labels.Parse(sel); err != nil {
				panic(err)
			}
		}
		for _, ns := range append([]string{""}, namespaces...) {
			objs, err := r.list(ns, selector)
			out[fmt.Sprintf("list ns=%q selector=%q", ns, sel)] = render(objs, err)
		}
	}
	for _, ns := range namespaces {
		for _, name := range names {
			obj, err := r.get(ns, name)
			out["get "+ns+"/"+name] = render([]runtime.Object{obj}, err)
			obj, err = r.get("", ns+"/"+name)
			out["get by key "+ns+"/"+name] = render([]runtime.Object{obj}, err)
		}
	}
	return out
}

func render(objs []runtime.Object, err error) []string {
	out := []string{}
	if err != nil {
		return append(out, "error: "+err.Error())
	}
	for _, obj := range objs {
		k, rv := testenv.KeyAndRV(obj)
		out = append(out, k+"@"+rv)
	}
	slices.Sort(out)
	return out
}
