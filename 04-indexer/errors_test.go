package indexer_test

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
)

func testPod(ns, name, rv, node string, labels map[string]string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv, Labels: labels},
		Spec:       corev1.PodSpec{NodeName: node},
	}
}

func TestUnknownIndexNameIsAnErrorLikeClientGo(t *testing.T) {
	ours, theirs := newOurs(byNode), newTheirs(byNode)
	pod := testPod("ns", "a", "1", "node-1", nil)
	if err := ours.Add(pod); err != nil {
		t.Fatal(err)
	}
	if err := theirs.Add(pod); err != nil {
		t.Fatal(err)
	}
	ask := func(s view) []string {
		items, err := s.ByIndex("byZone", "z")
		keys, err2 := s.IndexKeys("byZone", "z")
		items3, err3 := s.Index("byZone", pod)
		return []string{
			fmt.Sprintf("ByIndex: %#v, %v", items, err),
			fmt.Sprintf("IndexKeys: %#v, %v", keys, err2),
			fmt.Sprintf("Index: %#v, %v", items3, err3),
			fmt.Sprintf("ListIndexFuncValues: %#v", s.ListIndexFuncValues("byZone")),
		}
	}
	if diff := cmp.Diff(ask(theirs), ask(ours)); diff != "" {
		t.Errorf("asking for an unknown index (-client-go +ours):\n%s", diff)
	}
}

// Objects without metadata have no key: every keyed call fails with a
// KeyError naming the object, and the store does not change.
func TestObjectWithoutMetadataIsAKeyErrorLikeClientGo(t *testing.T) {
	bad := notAnObject{Name: "no-meta"}
	calls := map[string]struct {
		ours   func(indexer.Indexer) error
		theirs func(cache.Indexer) error
	}{
		"Add":     {func(s indexer.Indexer) error { return s.Add(bad) }, func(s cache.Indexer) error { return s.Add(bad) }},
		"Update":  {func(s indexer.Indexer) error { return s.Update(bad) }, func(s cache.Indexer) error { return s.Update(bad) }},
		"Delete":  {func(s indexer.Indexer) error { return s.Delete(bad) }, func(s cache.Indexer) error { return s.Delete(bad) }},
		"Get":     {func(s indexer.Indexer) error { _, _, err := s.Get(bad); return err }, func(s cache.Indexer) error { _, _, err := s.Get(bad); return err }},
		"Replace": {func(s indexer.Indexer) error { return s.Replace([]interface{}{bad}, "9") }, func(s cache.Indexer) error { return s.Replace([]interface{}{bad}, "9") }},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			ours, theirs := newOurs(initialIndexFuncs...), newTheirs(initialIndexFuncs...)
			for _, pod := range []*corev1.Pod{testPod("ns", "a", "1", "node-1", nil), testPod("ns", "b", "2", "node-2", nil)} {
				_ = ours.Add(pod)
				_ = theirs.Add(pod)
			}
			gotErr, wantErr := call.ours(ours), call.theirs(theirs)
			if errString(wantErr) != errString(gotErr) {
				t.Errorf("client-go returned %q, ours %q", errString(wantErr), errString(gotErr))
			}
			var keyErr deltafifo.KeyError
			if !errors.As(gotErr, &keyErr) || keyErr.Obj != bad {
				t.Errorf("ours returned %#v, want a KeyError carrying the object", gotErr)
			}
			compareStates(t, ours, theirs, name)
		})
	}
}

// An index function that fails on a write: client-go panics with its store
// half updated; ours returns the same message as an error and leaves the
// store exactly as client-go's was before the write.
func TestIndexFuncErrorIsAnErrorAndChangesNothing(t *testing.T) {
	clean := testPod("ns", "a", "1", "node-1", map[string]string{"app": "web"})
	poisoned := testPod("ns", "a", "2", "node-2", map[string]string{"poison": "true"})
	other := testPod("ns", "b", "3", "node-1", nil)
	cases := map[string]op{
		"Add new key":                {kind: opAdd, obj: testPod("ns", "c", "4", "node-1", map[string]string{"poison": "true"})},
		"Update":                     {kind: opUpdate, obj: poisoned},
		"Replace":                    {kind: opReplace, list: []interface{}{other, poisoned}, rv: "9"},
		"AddIndexers":                {kind: opAddIndexers, indexers: []namedIndexFunc{byNodeStrict}},
		"AddIndexers, two functions": {kind: opAddIndexers, indexers: []namedIndexFunc{byTier, byNodeStrict}},
	}
	for name, o := range cases {
		t.Run(name, func(t *testing.T) {
			setup := []op{
				{kind: opAdd, obj: clean},
				{kind: opAdd, obj: other},
				{kind: opAdd, obj: testPod("", "cluster-scoped", "5", "", nil)}, // fails byNodeStrict
			}
			ours := newOurs(initialIndexFuncs...)
			for _, s := range setup {
				if err := applyOurs(ours, s); err != "" {
					t.Fatal(err)
				}
			}
			gotErr := applyOurs(ours, o)
			wantPanic, panicked := applyTheirs(replay(t, setup), o)
			if !panicked {
				t.Fatalf("client-go did not panic on %s (returned %q): the test's premise is wrong", o, wantPanic)
			}
			if wantPanic != gotErr {
				t.Errorf("client-go panicked with %q; ours returned %q", wantPanic, gotErr)
			}
			compareStates(t, ours, replay(t, setup), "after the failed "+name)
		})
	}
}

// An index function that fails on the object already stored, not on the one
// written: a controller mutated the cached pod (here, poisoned it), so the
// values the next write computes for the old object fail. client-go panics
// naming the key and the index; ours returns that as an error and changes
// nothing, the mutated object and its stale buckets included. A write that
// went ahead with no old values would leave the key in its old buckets.
func TestIndexFuncFailingOnTheStoredObjectIsAnErrorAndChangesNothing(t *testing.T) {
	writes := map[string]op{
		"Update": {kind: opUpdate, obj: testPod("ns", "a", "3", "node-2", map[string]string{"app": "db"})},
		"Delete": {kind: opDelete, obj: testPod("ns", "a", "3", "node-1", map[string]string{"app": "web"})},
	}
	for name, o := range writes {
		t.Run(name, func(t *testing.T) {
			stored := testPod("ns", "a", "1", "node-1", map[string]string{"app": "web"})
			setup := []op{{kind: opAdd, obj: stored}, {kind: opAdd, obj: testPod("ns", "b", "2", "node-2", nil)}}
			// All three hold the very same objects, so the one forbidden
			// write below reaches each of them.
			ours, theirs, before := newOurs(initialIndexFuncs...), replay(t, setup), replay(t, setup)
			for _, s := range setup {
				if err := applyOurs(ours, s); err != "" {
					t.Fatal(err)
				}
			}
			stored.Labels["poison"] = "true"

			gotErr := applyOurs(ours, o)
			wantPanic, panicked := applyTheirs(theirs, o)
			if !panicked {
				t.Fatalf("client-go did not panic on %s of a poisoned stored object (returned %q): the test's premise is wrong", o, wantPanic)
			}
			if wantPanic != gotErr {
				t.Errorf("%s: client-go panicked with %q; ours returned %q", o, wantPanic, gotErr)
			}
			compareStates(t, ours, before, "after the failed "+name)
		})
	}
}

// In a batch, ours skips a write whose index function fails and applies
// the rest; client-go would panic.
func TestTransactionSkipsAWriteWhoseIndexFuncFails(t *testing.T) {
	a := testPod("ns", "a", "1", "node-1", nil)
	b := testPod("ns", "b", "2", "node-1", map[string]string{"poison": "true"})
	c := testPod("ns", "c", "3", "node-2", nil)
	o := op{kind: opTransaction, txns: []txn{{"Add", a}, {"Add", b}, {"Add", c}, {"Add", notAnObject{"x"}}}}

	ours := newOurs(initialIndexFuncs...)
	got := applyOurs(ours, o)
	if _, panicked := applyTheirs(newTheirs(initialIndexFuncs...), o); !panicked {
		t.Fatal("client-go did not panic: the test's premise is wrong")
	}
	theirs, _, want := transactionWithoutPanics(t, nil, o)
	if want != got {
		t.Errorf("client-go, without the write it panics on, returned\n%s\nours returned\n%s", want, got)
	}
	compareStates(t, ours, theirs, "after the transaction")
}

// AddIndexers after objects exist indexes them (client-go ≥ 1.30 allows
// it); a name already in use is refused, with client-go's message, and
// nothing is added.
func TestAddIndexersOnAFilledStoreLikeClientGo(t *testing.T) {
	ours, theirs := newOurs(namespaceIndex, byNode), newTheirs(namespaceIndex, byNode)
	g := &generator{c: randChooser{newRand(3)}}
	for range 30 {
		pod := g.pod(false)
		_ = ours.Add(pod)
		_ = theirs.Add(pod)
	}
	for _, add := range [][]namedIndexFunc{{byTier, byLabel}, {byNode}, {byUser, namespaceIndex}} {
		gotErr := errString(ours.AddIndexers(oursIndexers(add...)))
		wantErr := errString(theirs.AddIndexers(theirsIndexers(add...)))
		if gotErr != wantErr {
			t.Errorf("AddIndexers(%d funcs): client-go returned %q, ours %q", len(add), wantErr, gotErr)
		}
		compareStates(t, ours, theirs, "after AddIndexers")
	}
}

// Differences, pinned down with client-go's behaviour beside ours so that a
// change on either side shows up here.
func TestIndexersMapIsCopiedNotShared(t *testing.T) {
	theirsMap := theirsIndexers(byNode)
	theirs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, theirsMap)
	if err := theirs.AddIndexers(theirsIndexers(byTier)); err != nil {
		t.Fatal(err)
	}
	if _, written := theirsMap["byTier"]; !written {
		t.Errorf("client-go no longer writes AddIndexers into the caller's map: update this test and the chapter")
	}

	oursMap := oursIndexers(byNode)
	ours := indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc, oursMap)
	if err := ours.AddIndexers(oursIndexers(byTier)); err != nil {
		t.Fatal(err)
	}
	if _, written := oursMap["byTier"]; written {
		t.Errorf("ours wrote AddIndexers into the map given to NewIndexer")
	}
	got := ours.GetIndexers()
	delete(got, "byNode")
	if _, ok := ours.GetIndexers()["byNode"]; !ok {
		t.Errorf("changing the map GetIndexers returned changed the store")
	}
}

func TestNilIndexersAreAccepted(t *testing.T) {
	if _, panicked := applyTheirs(cache.NewIndexer(cache.MetaNamespaceKeyFunc, nil), op{kind: opAddIndexers, indexers: []namedIndexFunc{byNode}}); !panicked {
		t.Errorf("client-go no longer panics on AddIndexers after NewIndexer(keyFunc, nil): update this test and the chapter")
	}
	ours := indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc, nil)
	if err := ours.AddIndexers(oursIndexers(byNode)); err != nil {
		t.Fatalf("AddIndexers after NewIndexer(keyFunc, nil): %v", err)
	}
	if names := slices.Collect(maps.Keys(ours.GetIndexers())); !slices.Equal(names, []string{"byNode"}) {
		t.Errorf("indexers after AddIndexers: %v", names)
	}
}

func TestNilIndexFuncIsRefused(t *testing.T) {
	ours := indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc, nil)
	err := ours.AddIndexers(indexer.Indexers{"byNothing": nil})
	if err == nil {
		t.Fatal("AddIndexers accepted a nil IndexFunc")
	}
	if len(ours.GetIndexers()) != 0 {
		t.Errorf("the refused indexer was added anyway")
	}
}

// A nil IndexFunc handed to NewIndexer (where nothing refuses it): client-go
// calls it on the first write and panics; ours refuses every write with an
// error that names the index, and stores nothing.
func TestNilIndexFuncInTheIndexersIsAnErrorOnEveryWrite(t *testing.T) {
	pod := testPod("ns", "a", "1", "node-1", nil)
	theirs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{"byNothing": nil})
	if _, panicked := applyTheirs(theirs, op{kind: opAdd, obj: pod}); !panicked {
		t.Errorf("client-go no longer panics on a write to an indexer with a nil IndexFunc: update this test and the chapter")
	}
	ours := indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc, indexer.Indexers{"byNothing": nil})
	writes := []struct {
		name  string
		write func() error
	}{
		{"Add", func() error { return ours.Add(pod) }},
		{"Update", func() error { return ours.Update(pod) }},
		{"Replace", func() error { return ours.Replace([]interface{}{pod}, "2") }},
	}
	for _, w := range writes {
		name, write := w.name, w.write
		panicked, err := func() (panicked any, err error) {
			defer func() { panicked = recover() }()
			return nil, write()
		}()
		if panicked != nil {
			t.Errorf("%s on an indexer with a nil IndexFunc panicked (%v), want an error naming the index", name, panicked)
			continue
		}
		if err == nil || !strings.Contains(err.Error(), `indexer "byNothing" has a nil IndexFunc`) {
			t.Errorf("%s on an indexer with a nil IndexFunc returned %v, want an error naming the index", name, err)
		}
	}
	if keys := ours.ListKeys(); len(keys) != 0 {
		t.Errorf("the refused writes stored %v", keys)
	}
}

// A typed index function given an object of another type: client-go's
// wrapper panics; ours is an error, so the write that brought the object is
// refused.
func TestTypedIndexFuncOnAnotherTypeIsAnError(t *testing.T) {
	typed := func(pod *corev1.Pod) ([]string, error) { return []string{pod.Spec.NodeName}, nil }
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc"}}

	theirs := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.TypedIndexersToIndexers(cache.TypedIndexers[*corev1.Pod]{"byNode": typed}))
	if _, panicked := applyTheirs(theirs, op{kind: opAdd, obj: svc}); !panicked {
		t.Errorf("client-go's typed index function no longer panics on another type: update this test")
	}
	ours := indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc, indexer.TypedIndexersToIndexers(indexer.TypedIndexers[*corev1.Pod]{"byNode": typed}))
	err := ours.Add(svc)
	if err == nil {
		t.Fatal("ours accepted a Service into a pod-typed index")
	}
	t.Logf("ours: %v", err)
	if len(ours.ListKeys()) != 0 {
		t.Errorf("the refused object was stored")
	}
}
