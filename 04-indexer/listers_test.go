package indexer_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	clientlisters "k8s.io/client-go/listers"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
	"informer-from-scratch/04-indexer/listers"
)

var podsResource = corev1.Resource("pods")

// selectors covers every kind of requirement a label selector can hold.
var selectors = []string{
	"", // everything
	"app=web",
	"app!=web",
	"app in (web,db)",
	"app notin (web)",
	"tier",
	"!tier",
	"app=web,tier=front",
	"app=nope",
}

// listerFixture fills ours and client-go's indexer with the same pods.
func listerFixture(t *testing.T, withNamespaceIndex bool) (indexer.Indexer, cache.Indexer) {
	t.Helper()
	var fs []namedIndexFunc
	if withNamespaceIndex {
		fs = append(fs, namespaceIndex)
	}
	ours, theirs := newOurs(fs...), newTheirs(fs...)
	g := &generator{c: randChooser{newRand(42)}}
	for range 40 {
		pod := g.pod(false)
		if err := ours.Add(pod); err != nil {
			t.Fatal(err)
		}
		if err := theirs.Add(pod); err != nil {
			t.Fatal(err)
		}
	}
	return ours, theirs
}

func appended(list func(cache.AppendFunc) error) []string {
	var items []interface{}
	err := list(func(obj interface{}) { items = append(items, obj) })
	return append(identities(items), "err: "+errString(err))
}

func objects[T any](items []T, err error) []string {
	var out []interface{}
	for _, item := range items {
		out = append(out, item)
	}
	return append(identities(out), "err: "+errString(err))
}

func single[T any](item T, err error) string {
	return identity(item) + " err: " + errString(err)
}

// TestListersMatchClientGo asks every lister, ours and client-go's, the same
// questions over the same pods: ListAll, ListAllByNamespace (with the
// namespace index and without it, where both scan), the generic lister and
// its namespace lister, and the typed lister against client-go's generic
// ResourceIndexer and its generated PodLister.
func TestListersMatchClientGo(t *testing.T) {
	for _, withIndex := range []bool{true, false} {
		t.Run(fmt.Sprintf("namespace index=%v", withIndex), func(t *testing.T) {
			ours, theirs := listerFixture(t, withIndex)
			oursGeneric, theirsGeneric := indexer.NewGenericLister(ours, podsResource), cache.NewGenericLister(theirs, podsResource)
			oursTyped, theirsTyped := listers.New[*corev1.Pod](ours, podsResource), clientlisters.New[*corev1.Pod](theirs, podsResource)
			podLister := corev1listers.NewPodLister(theirs)

			for _, s := range selectors {
				sel, err := labels.Parse(s)
				if err != nil {
					t.Fatal(err)
				}
				check := func(what string, want, got interface{}) {
					t.Helper()
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("%s with selector %q (-client-go +ours):\n%s", what, s, diff)
					}
				}
				check("ListAll",
					appended(func(f cache.AppendFunc) error { return cache.ListAll(theirs, sel, f) }),
					appended(func(f cache.AppendFunc) error { return indexer.ListAll(ours, sel, indexer.AppendFunc(f)) }))
				check("GenericLister.List", objects(theirsGeneric.List(sel)), objects(oursGeneric.List(sel)))
				check("ResourceIndexer.List", objects(theirsTyped.List(sel)), objects(oursTyped.List(sel)))
				check("PodLister.List", objects(podLister.List(sel)), objects(oursTyped.List(sel)))

				for _, ns := range append(namespaces, "ns-empty") {
					check("ListAllByNamespace "+ns,
						appended(func(f cache.AppendFunc) error { return cache.ListAllByNamespace(theirs, ns, sel, f) }),
						appended(func(f cache.AppendFunc) error {
							return indexer.ListAllByNamespace(ours, ns, sel, indexer.AppendFunc(f))
						}))
					check("ByNamespace("+ns+").List", objects(theirsGeneric.ByNamespace(ns).List(sel)), objects(oursGeneric.ByNamespace(ns).List(sel)))
					check("NewNamespaced("+ns+").List",
						objects(clientlisters.NewNamespaced(theirsTyped, ns).List(sel)),
						objects(listers.NewNamespaced(oursTyped, ns).List(sel)))
					check("PodLister.Pods("+ns+").List", objects(podLister.Pods(ns).List(sel)), objects(listers.NewNamespaced(oursTyped, ns).List(sel)))
				}
			}
			// Get: present and absent, by key and by namespace and name;
			// absent is the API's NotFound error.
			for _, ns := range namespaces {
				for _, name := range append(podNames, "missing") {
					check := func(what string, want, got string) {
						t.Helper()
						if want != got {
							t.Errorf("%s(%q) in %q: client-go %q, ours %q", what, name, ns, want, got)
						}
					}
					key := name
					if ns != "" {
						key = ns + "/" + name
					}
					check("GenericLister.Get", single(theirsGeneric.Get(key)), single(oursGeneric.Get(key)))
					check("GenericNamespaceLister.Get", single(theirsGeneric.ByNamespace(ns).Get(name)), single(oursGeneric.ByNamespace(ns).Get(name)))
					check("ResourceIndexer.Get", single(clientlisters.NewNamespaced(theirsTyped, ns).Get(name)), single(listers.NewNamespaced(oursTyped, ns).Get(name)))
				}
			}
		})
	}
}

// Objects without metadata, stored under a custom key: listing with a
// selector needs their labels and fails like client-go; listing everything
// does not look at labels and returns them.
func TestListAllOnObjectsWithoutMetadataLikeClientGo(t *testing.T) {
	keyByName := func(obj interface{}) (string, error) { return obj.(notAnObject).Name, nil }
	ours := indexer.NewStore(keyByName)
	theirs := cache.NewStore(keyByName)
	for _, obj := range []notAnObject{{"a"}, {"b"}} {
		_ = ours.Add(obj)
		_ = theirs.Add(obj)
	}
	for _, s := range []string{"", "app=web"} {
		sel, _ := labels.Parse(s)
		want := appended(func(f cache.AppendFunc) error { return cache.ListAll(theirs, sel, f) })
		got := appended(func(f cache.AppendFunc) error { return indexer.ListAll(ours, sel, indexer.AppendFunc(f)) })
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ListAll(%q) (-client-go +ours):\n%s", s, diff)
		}
	}
}

// A cached item that is not a runtime.Object, or not a T: client-go's
// listers panic on the type assertion; ours return an error.
func TestListersReturnAnErrorOnItemsOfTheWrongType(t *testing.T) {
	store := indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc, indexer.Indexers{})
	pod := testPod("ns", "pod", "1", "", nil)
	for _, obj := range []interface{}{pod, testPodLikeService("ns", "svc"), deltafifo.ExplicitKey("ns/key-only")} {
		if err := store.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	generic := indexer.NewGenericLister(store, podsResource)
	if _, err := generic.List(labels.Everything()); err == nil {
		t.Errorf("GenericLister.List: no error for an item that is not a runtime.Object")
	}
	if _, err := generic.ByNamespace("ns").Get("key-only"); err == nil {
		t.Errorf("GenericNamespaceLister.Get: no error for an item that is not a runtime.Object")
	}
	typed := listers.New[*corev1.Pod](store, podsResource)
	if _, err := typed.List(labels.Everything()); err == nil {
		t.Errorf("ResourceIndexer[*Pod].List: no error for a Service in the cache")
	}
	if _, err := listers.NewNamespaced(typed, "ns").Get("svc"); err == nil {
		t.Errorf("ResourceIndexer[*Pod].Get: no error for a Service in the cache")
	}
	if got, err := listers.NewNamespaced(typed, "ns").Get("pod"); err != nil || got != pod {
		t.Errorf("ResourceIndexer[*Pod].Get(pod) = %v, %v", got, err)
	}
}

func testPodLikeService(ns, name string) *corev1.Service {
	svc := &corev1.Service{}
	svc.Namespace, svc.Name = ns, name
	return svc
}

// A nil selector: client-go's listers call a method on it and panic; ours
// say what to pass instead. Every way in is checked: the two list
// functions, the generic lister (both scopes) and the typed one.
func TestANilSelectorIsAnErrorNotAPanic(t *testing.T) {
	clientGoPanics := func() (panicked bool) {
		defer func() { panicked = recover() != nil }()
		_ = cache.ListAll(cache.NewStore(cache.MetaNamespaceKeyFunc), nil, func(interface{}) {})
		return false
	}()
	if !clientGoPanics {
		t.Errorf("client-go's ListAll no longer panics on a nil selector: update this test and the chapter")
	}
	store := indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc, indexer.Indexers{indexer.NamespaceIndex: indexer.MetaNamespaceIndexFunc})
	if err := store.Add(testPod("ns", "pod", "1", "", nil)); err != nil {
		t.Fatal(err)
	}
	noop := func(interface{}) {}
	typed := listers.New[*corev1.Pod](store, podsResource)
	for name, list := range map[string]func() error{
		"ListAll":            func() error { return indexer.ListAll(store, nil, noop) },
		"ListAllByNamespace": func() error { return indexer.ListAllByNamespace(store, "ns", nil, noop) },
		"GenericLister.List": func() error { _, err := indexer.NewGenericLister(store, podsResource).List(nil); return err },
		"GenericNamespaceLister.List": func() error {
			_, err := indexer.NewGenericLister(store, podsResource).ByNamespace("ns").List(nil)
			return err
		},
		"ResourceIndexer.List":       func() error { _, err := typed.List(nil); return err },
		"namespaced ResourceIndexer": func() error { _, err := listers.NewNamespaced(typed, "ns").List(nil); return err },
	} {
		if err := list(); err == nil || !strings.Contains(err.Error(), "labels.Everything()") {
			t.Errorf("%s with a nil selector returned %v, want an error pointing at labels.Everything()", name, err)
		}
	}
}
