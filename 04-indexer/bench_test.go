package indexer_test

// Benchmarks, ours beside client-go's in the same run:
//
//	go test -run '^$' -bench . -benchmem ./04-indexer/
//
// They run only with -bench: building 100k objects is kept out of make test.
// Objects are PartialObjectMetadata (as in client-go's own lister
// benchmarks): the store never looks past the metadata, and 100k of them
// stay small. The node is a label here, since metadata has no spec.

import (
	"fmt"
	"strconv"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
)

var benchSizes = []int{10_000, 100_000}

func benchObject(i, generation int) *metav1.PartialObjectMetadata {
	lbls := map[string]string{
		"app":  "app-" + strconv.Itoa(i%50),
		"node": "node-" + strconv.Itoa((i+generation)%1000),
	}
	if i%100 == 0 {
		lbls["match"] = "true" // 1% of the objects match the selector
	}
	return &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{
		Namespace:       "ns-" + strconv.Itoa(i%100),
		Name:            "obj-" + strconv.Itoa(i),
		ResourceVersion: strconv.Itoa(generation*1_000_000 + i),
		Labels:          lbls,
	}}
}

// benchObjects builds each size once and shares it between both sides.
var benchObjects = sync.OnceValue(func() map[int][]*metav1.PartialObjectMetadata {
	out := map[int][]*metav1.PartialObjectMetadata{}
	for _, n := range benchSizes {
		objs := make([]*metav1.PartialObjectMetadata, n)
		for i := range objs {
			objs[i] = benchObject(i, 0)
		}
		out[n] = objs
	}
	return out
})

func labelIndex(key string) func(obj interface{}) ([]string, error) {
	return func(obj interface{}) ([]string, error) {
		return []string{obj.(metav1.Object).GetLabels()[key]}, nil
	}
}

// allLabels is a multi-valued index: one value per label.
func allLabels(obj interface{}) ([]string, error) {
	var out []string
	for k, v := range obj.(metav1.Object).GetLabels() {
		out = append(out, k+"="+v)
	}
	return out, nil
}

// benchStore is one side, with what the benchmarks call.
type benchStore struct {
	update             func(obj interface{}) error
	replace            func(list []interface{}, rv string) error
	listAll            func(sel labels.Selector, f func(interface{})) error
	listAllByNamespace func(ns string, sel labels.Selector, f func(interface{})) error
}

func newBenchStores(b *testing.B, n int) map[string]benchStore {
	b.Helper()
	ours := indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc, indexer.Indexers{
		indexer.NamespaceIndex: indexer.MetaNamespaceIndexFunc, "byNode": labelIndex("node"), "byLabel": allLabels,
	})
	theirs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{
		cache.NamespaceIndex: cache.MetaNamespaceIndexFunc, "byNode": labelIndex("node"), "byLabel": allLabels,
	})
	for _, obj := range benchObjects()[n] {
		if err := ours.Add(obj); err != nil {
			b.Fatal(err)
		}
		if err := theirs.Add(obj); err != nil {
			b.Fatal(err)
		}
	}
	return map[string]benchStore{
		"client-go": {
			update:  theirs.Update,
			replace: theirs.Replace,
			listAll: func(sel labels.Selector, f func(interface{})) error { return cache.ListAll(theirs, sel, f) },
			listAllByNamespace: func(ns string, sel labels.Selector, f func(interface{})) error {
				return cache.ListAllByNamespace(theirs, ns, sel, f)
			},
		},
		"ours": {
			update:  ours.Update,
			replace: ours.Replace,
			listAll: func(sel labels.Selector, f func(interface{})) error { return indexer.ListAll(ours, sel, f) },
			listAllByNamespace: func(ns string, sel labels.Selector, f func(interface{})) error {
				return indexer.ListAllByNamespace(ours, ns, sel, f)
			},
		},
	}
}

// BenchmarkIndexerUpdate measures one Update that moves an object to another
// node: its key leaves one bucket of byNode and joins another, and byLabel
// (three values) is recomputed. The store holds n objects; the updates
// cycle through 1,000 of them, flipping each between two versions.
func BenchmarkIndexerUpdate(b *testing.B) {
	for _, n := range benchSizes {
		stores := newBenchStores(b, n)
		const cycle = 1000
		versions := [2][]*metav1.PartialObjectMetadata{make([]*metav1.PartialObjectMetadata, cycle), make([]*metav1.PartialObjectMetadata, cycle)}
		for i := range cycle {
			versions[0][i] = benchObject(i, 0)
			versions[1][i] = benchObject(i, 1)
		}
		for _, impl := range []string{"client-go", "ours"} {
			b.Run(fmt.Sprintf("objects=%dk/%s", n/1000, impl), func(b *testing.B) {
				s := stores[impl]
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					obj := versions[(i/cycle)%2][i%cycle]
					if err := s.update(obj); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}

// BenchmarkIndexerReplace measures a relist: Replace with n objects (the
// same n the store holds), which rebuilds all three indices from nothing.
func BenchmarkIndexerReplace(b *testing.B) {
	for _, n := range benchSizes {
		stores := newBenchStores(b, n)
		objs := benchObjects()[n]
		for _, impl := range []string{"client-go", "ours"} {
			b.Run(fmt.Sprintf("objects=%dk/%s", n/1000, impl), func(b *testing.B) {
				s := stores[impl]
				b.ReportAllocs()
				for b.Loop() {
					// Replace owns its list: hand it a fresh one each time.
					list := make([]interface{}, len(objs))
					for i, obj := range objs {
						list[i] = obj
					}
					if err := s.replace(list, "1"); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkListAllWithSelector is a lister's List(selector) across
// namespaces: a scan of every object, matching 1% of them.
func BenchmarkListAllWithSelector(b *testing.B) {
	sel := labels.SelectorFromSet(labels.Set{"match": "true"})
	for _, n := range benchSizes {
		stores := newBenchStores(b, n)
		for _, impl := range []string{"client-go", "ours"} {
			b.Run(fmt.Sprintf("objects=%dk/%s", n/1000, impl), func(b *testing.B) {
				s := stores[impl]
				b.ReportAllocs()
				for b.Loop() {
					matched := 0
					if err := s.listAll(sel, func(interface{}) { matched++ }); err != nil {
						b.Fatal(err)
					}
					if matched != n/100 {
						b.Fatalf("matched %d objects, want %d", matched, n/100)
					}
				}
			})
		}
	}
}

// BenchmarkListAllByNamespaceWithSelector is Pods(ns).List(selector): the
// namespace index narrows the scan to 1% of the objects.
func BenchmarkListAllByNamespaceWithSelector(b *testing.B) {
	sel := labels.SelectorFromSet(labels.Set{"app": "app-7"})
	for _, n := range benchSizes {
		stores := newBenchStores(b, n)
		for _, impl := range []string{"client-go", "ours"} {
			b.Run(fmt.Sprintf("objects=%dk/%s", n/1000, impl), func(b *testing.B) {
				s := stores[impl]
				b.ReportAllocs()
				for b.Loop() {
					if err := s.listAllByNamespace("ns-7", sel, func(interface{}) {}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
