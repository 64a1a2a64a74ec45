package indexer_test

// Snapshots: everything a caller can observe of an indexer, taken from both
// sides and compared.

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	indexer "informer-from-scratch/04-indexer"
)

// view is what both indexers answer with the same method set.
type view interface {
	List() []interface{}
	ListKeys() []string
	Get(obj interface{}) (interface{}, bool, error)
	GetByKey(key string) (interface{}, bool, error)
	Index(indexName string, obj interface{}) ([]interface{}, error)
	IndexKeys(indexName, indexedValue string) ([]string, error)
	ByIndex(indexName, indexedValue string) ([]interface{}, error)
	ListIndexFuncValues(indexName string) []string
	LastStoreSyncResourceVersion() string
}

type getResult struct {
	Item   string
	Exists bool
	Err    string
}

type listResult struct {
	Items []string // items as identity(), sorted
	Err   string
}

type keysResult struct {
	Keys []string
	Err  string
}

type indexState struct {
	Values    []string // ListIndexFuncValues, sorted
	ByIndex   map[string]listResult
	IndexKeys map[string]keysResult // already sorted by both sides
}

// state is everything a caller can observe.
type state struct {
	List         []string // items as identity(), sorted
	ListKeys     []string
	Gets         map[string]getResult
	GetNoMeta    getResult
	IndexerNames []string
	Indices      map[string]indexState
	Probes       map[string]listResult // Index(name, probe)
	Unknown      []string              // answers for an index that does not exist
	RV           string
}

// probes are objects passed to Index: a plain pod, a poisoned one, and one
// without metadata.
var probes = map[string]interface{}{
	"pod": &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns-a", Labels: map[string]string{"app": "web", "tier": "front"},
			Annotations: map[string]string{"users": "ann,bob"}},
		Spec: corev1.PodSpec{NodeName: "node-1"},
	},
	"poisoned": &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns-b", Labels: map[string]string{"poison": "true"}}},
	"no-meta":  notAnObject{Name: "probe"},
}

func allKeys() []string {
	var keys []string
	for _, ns := range namespaces {
		for _, name := range podNames {
			if ns == "" {
				keys = append(keys, name)
			} else {
				keys = append(keys, ns+"/"+name)
			}
		}
	}
	return keys
}

// identities describes items, sorted. Both sides are handed the very same
// objects, so the pointer says "this exact object", not just "an equal one".
func identities(items []interface{}) []string {
	if items == nil {
		return nil
	}
	out := make([]string, len(items))
	for i, item := range items {
		out[i] = identity(item)
	}
	slices.Sort(out)
	return out
}

func identity(obj interface{}) string {
	pod, ok := obj.(*corev1.Pod)
	if !ok || pod == nil {
		return fmt.Sprintf("%#v", obj)
	}
	key, _ := cache.MetaNamespaceKeyFunc(pod)
	return fmt.Sprintf("%s rv=%s %p", key, pod.ResourceVersion, pod)
}

func sortedCopy(s []string) []string {
	if s == nil {
		return nil
	}
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// snapshot asks v everything, querying each index for the given values.
func snapshot(v view, names []string, values map[string][]string) state {
	st := state{
		List:         identities(v.List()),
		ListKeys:     sortedCopy(v.ListKeys()),
		Gets:         map[string]getResult{},
		IndexerNames: names,
		Indices:      map[string]indexState{},
		Probes:       map[string]listResult{},
		RV:           v.LastStoreSyncResourceVersion(),
	}
	for _, key := range allKeys() {
		item, exists, err := v.GetByKey(key)
		st.Gets[key] = getResult{identity(item), exists, errString(err)}
	}
	item, exists, err := v.Get(notAnObject{Name: "get"})
	st.GetNoMeta = getResult{identity(item), exists, errString(err)}
	for _, name := range names {
		is := indexState{
			Values:    sortedCopy(v.ListIndexFuncValues(name)),
			ByIndex:   map[string]listResult{},
			IndexKeys: map[string]keysResult{},
		}
		for _, value := range values[name] {
			items, err := v.ByIndex(name, value)
			is.ByIndex[value] = listResult{identities(items), errString(err)}
			keys, err := v.IndexKeys(name, value)
			is.IndexKeys[value] = keysResult{keys, errString(err)}
		}
		st.Indices[name] = is
		for probeName, probe := range probes {
			items, err := v.Index(name, probe)
			st.Probes[name+"/"+probeName] = listResult{identities(items), errString(err)}
		}
	}
	items, err := v.ByIndex("no-such-index", "x")
	keys, err2 := v.IndexKeys("no-such-index", "x")
	items3, err3 := v.Index("no-such-index", probes["pod"])
	st.Unknown = []string{fmt.Sprintf("%#v %v", items, err), fmt.Sprintf("%#v %v", keys, err2),
		fmt.Sprintf("%#v %v", items3, err3), fmt.Sprintf("%#v", v.ListIndexFuncValues("no-such-index"))}
	return st
}

// compareStates snapshots both sides, asking each index for every value
// either side holds plus two that no object has, and reports the diff.
func compareStates(t *testing.T, ours indexer.Indexer, theirs cache.Indexer, context string) {
	t.Helper()
	oursNames := slices.Sorted(maps.Keys(ours.GetIndexers()))
	theirsNames := slices.Sorted(maps.Keys(theirs.GetIndexers()))
	values := map[string][]string{}
	for _, name := range append(slices.Clone(oursNames), theirsNames...) {
		vs := append(ours.ListIndexFuncValues(name), theirs.ListIndexFuncValues(name)...)
		vs = append(vs, "", "no-such-value")
		slices.Sort(vs)
		values[name] = slices.Compact(vs)
	}
	want := snapshot(theirs, theirsNames, values)
	got := snapshot(ours, oursNames, values)
	// reflect.DeepEqual first: cmp.Diff is the slow part of these tests, and
	// only its report is needed, when they differ.
	if reflect.DeepEqual(want, got) {
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s: the indexers disagree (-client-go +ours):\n%s", context, diff)
	}
}
