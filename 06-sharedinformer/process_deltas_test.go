package informer

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
)

// TestProcessDeltasStopsAtAMalformedItemOrAFailedWrite: what processDeltas
// does with an item it cannot apply, the rules of client-go's processDeltas
// and processReplacedAllInfo (tools/cache/controller.go), called here
// directly. They cannot be run beside client-go's: both are unexported
// there, and client-go's informers build their queue and their cache
// themselves, so no test can hand one a malformed item or a cache that
// refuses a write. The rules, as client-go's code reads:
//
//   - a ReplacedAll, SyncAll or Bookmark whose object is not its Info is
//     an error in client-go's words, and changes nothing;
//   - a cache write that fails (Add, Update, Delete, a relist's Replace, or
//     a relist's listed object without a key) is returned before any
//     handler hears of it, and the item's later deltas are not applied;
//   - a SyncAll ends the item (client-go returns there), so a delta after
//     it in the same Deltas is not applied.
//
// And one of ours: a delta type processDeltas does not know is an error
// (client-go skips it: see doc.go's differences).
//
// Before each case the cache holds a@1 and b@2, at resourceVersion 2. The
// first case shows well-formed deltas of each kind, to set the rules apart.
func TestProcessDeltasStopsAtAMalformedItemOrAFailedWrite(t *testing.T) {
	a, b, c := deltaPod("a", "1"), deltaPod("b", "2"), deltaPod("c", "3")
	keyless := "an object without metadata"

	type outcome struct {
		Err   string   // the error, "" if none
		Calls []string // the handler's calls, in order
		Cache []string // key@resourceVersion, sorted
		RV    string   // the cache's LastStoreSyncResourceVersion
	}
	untouched := outcome{Cache: []string{"ns/a@1", "ns/b@2"}, RV: "2"}
	withErr := func(o outcome, err string) outcome { o.Err = err; return o }

	for _, tc := range []struct {
		name   string
		deltas Deltas
		refuse string // the cache write that fails: Add, Update, Delete or Replace
		// anyOrder: the calls are compared sorted.
		anyOrder bool
		// want.Err is a part of the error's text.
		want outcome
	}{
		{
			// First, to set the rules below apart: what well-formed
			// deltas of each kind do, one after another.
			name: "a relist, an Added, an Updated, a Deleted and a Bookmark, all applied",
			deltas: Deltas{
				{Type: deltafifo.ReplacedAll, Object: deltafifo.ReplacedAllInfo{ResourceVersion: "3", Objects: []any{deltaPod("b", "2"), c}}},
				{Type: deltafifo.Added, Object: deltaPod("d", "4")},
				{Type: deltafifo.Updated, Object: deltaPod("d", "5")},
				{Type: deltafifo.Deleted, Object: deltafifo.DeletedFinalStateUnknown{Key: "ns/c", Obj: c}},
				{Type: deltafifo.Bookmark, Object: deltafifo.BookmarkInfo{ResourceVersion: "7"}},
			},
			want: outcome{
				Calls: []string{
					"OnDelete(DeletedFinalStateUnknown{ns/a, a@1})", "OnUpdate(b@2, b@2)", "OnAdd(c@3, false)",
					"OnAdd(d@4, false)", "OnUpdate(d@4, d@5)", "OnDelete(DeletedFinalStateUnknown{ns/c, c@3})",
				},
				Cache: []string{"ns/b@2", "ns/d@5"},
				RV:    "7",
			},
		},
		{
			name:   "a ReplacedAll whose object is not a ReplacedAllInfo",
			deltas: Deltas{{Type: deltafifo.ReplacedAll, Object: []any{c}}},
			want:   withErr(untouched, "ReplacedAll did not contain ReplacedAllInfo: []interface {}"),
		},
		{
			name:   "a SyncAll whose object is not a SyncAllInfo",
			deltas: Deltas{{Type: deltafifo.SyncAll, Object: a}},
			want:   withErr(untouched, "SyncAll did not contain SyncAllInfo: *v1.Pod"),
		},
		{
			name:   "a Bookmark whose object is not a BookmarkInfo",
			deltas: Deltas{{Type: deltafifo.Bookmark, Object: "7"}},
			want:   withErr(untouched, "bookmark delta did not contain BookmarkInfo: string"),
		},
		{
			name:   "a delta type processDeltas does not know (ours: an error; client-go skips it)",
			deltas: Deltas{{Type: "Frobbed", Object: c}},
			want:   withErr(untouched, `unknown delta type "Frobbed"`),
		},
		{
			name:   "an Added the cache refuses, then another",
			deltas: Deltas{{Type: deltafifo.Added, Object: c}, {Type: deltafifo.Added, Object: deltaPod("d", "4")}},
			refuse: "Add",
			want:   withErr(untouched, "the cache refuses Add"),
		},
		{
			name:   "an Added without a key, then another",
			deltas: Deltas{{Type: deltafifo.Added, Object: keyless}, {Type: deltafifo.Added, Object: c}},
			want:   withErr(untouched, "couldn't create key for object an object without metadata"),
		},
		{
			name:   "an Updated the cache refuses, then another",
			deltas: Deltas{{Type: deltafifo.Updated, Object: deltaPod("a", "3")}, {Type: deltafifo.Added, Object: deltaPod("d", "4")}},
			refuse: "Update",
			want:   withErr(untouched, "the cache refuses Update"),
		},
		{
			name:   "a Deleted the cache refuses, then another",
			deltas: Deltas{{Type: deltafifo.Deleted, Object: deltaPod("b", "3")}, {Type: deltafifo.Added, Object: deltaPod("d", "4")}},
			refuse: "Delete",
			want:   withErr(untouched, "the cache refuses Delete"),
		},
		{
			name: "a relist the cache refuses to Replace, then an Added",
			deltas: Deltas{
				{Type: deltafifo.ReplacedAll, Object: deltafifo.ReplacedAllInfo{ResourceVersion: "3", Objects: []any{deltaPod("a", "1"), c}}},
				{Type: deltafifo.Added, Object: deltaPod("d", "4")},
			},
			refuse: "Replace",
			want:   withErr(untouched, "the cache refuses Replace"),
		},
		{
			name: "a relist listing an object without a key, then an Added",
			deltas: Deltas{
				{Type: deltafifo.ReplacedAll, Object: deltafifo.ReplacedAllInfo{ResourceVersion: "3", Objects: []any{c, keyless}}},
				{Type: deltafifo.Added, Object: deltaPod("d", "4")},
			},
			want: withErr(untouched, "couldn't create key for object an object without metadata"),
		},
		{
			name: "a SyncAll, then an Added: the SyncAll ends the item",
			// The resync replays the cache in its map order.
			anyOrder: true,
			deltas: Deltas{
				{Type: deltafifo.SyncAll, Object: deltafifo.SyncAllInfo{}},
				{Type: deltafifo.Added, Object: c},
			},
			want: outcome{Calls: []string{"OnUpdate(a@1, a@1)", "OnUpdate(b@2, b@2)"}, Cache: untouched.Cache, RV: "2"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := indexer.NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, indexer.Indexers{})
			if err := cache.Replace([]any{a, b}, "2"); err != nil {
				t.Fatal(err)
			}
			h := &callLog{}
			err := processDeltas(h, refusing{Store: cache, op: tc.refuse}, tc.deltas, false, DeletionHandlingMetaNamespaceKeyFunc)

			got := outcome{Calls: h.calls, Cache: cacheContent(cache), RV: cache.LastStoreSyncResourceVersion()}
			if err != nil {
				got.Err = err.Error()
			}
			if tc.anyOrder {
				slices.Sort(got.Calls)
			}
			if tc.want.Err != "" && strings.Contains(got.Err, tc.want.Err) {
				got.Err = tc.want.Err // the part the rule is about
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("processDeltas(%s)\nwith the cache holding a@1 and b@2 at rv 2 differs from client-go's rules (-client-go +ours):\n%s",
					describeDeltas(tc.deltas), diff)
			}
		})
	}
}

// refusing is a cache whose op method (Add, Update, Delete or Replace)
// fails, as a cache write may: the cache is left as it was.
type refusing struct {
	indexer.Store
	op string
}

func (r refusing) refuses(op string) error {
	if r.op == op {
		return errors.New("the cache refuses " + op)
	}
	return nil
}

func (r refusing) Add(obj any) error {
	if err := r.refuses("Add"); err != nil {
		return err
	}
	return r.Store.Add(obj)
}

func (r refusing) Update(obj any) error {
	if err := r.refuses("Update"); err != nil {
		return err
	}
	return r.Store.Update(obj)
}

func (r refusing) Delete(obj any) error {
	if err := r.refuses("Delete"); err != nil {
		return err
	}
	return r.Store.Delete(obj)
}

func (r refusing) Replace(list []any, rv string) error {
	if err := r.refuses("Replace"); err != nil {
		return err
	}
	return r.Store.Replace(list, rv)
}

// callLog records a handler's calls.
type callLog struct{ calls []string }

func (l *callLog) OnAdd(obj any, isInInitialList bool) {
	l.calls = append(l.calls, fmt.Sprintf("OnAdd(%s, %v)", describeObject(obj), isInInitialList))
}

func (l *callLog) OnUpdate(oldObj, newObj any) {
	l.calls = append(l.calls, fmt.Sprintf("OnUpdate(%s, %s)", describeObject(oldObj), describeObject(newObj)))
}

func (l *callLog) OnDelete(obj any) {
	l.calls = append(l.calls, fmt.Sprintf("OnDelete(%s)", describeObject(obj)))
}

func deltaPod(name, rv string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: rv}}
}

func describeObject(obj any) string {
	switch o := obj.(type) {
	case *corev1.Pod:
		return o.Name + "@" + o.ResourceVersion
	case deltafifo.DeletedFinalStateUnknown:
		return fmt.Sprintf("DeletedFinalStateUnknown{%s, %s}", o.Key, describeObject(o.Obj))
	case []any:
		var objs []string
		for _, obj := range o {
			objs = append(objs, describeObject(obj))
		}
		return fmt.Sprintf("[]any{%s}", strings.Join(objs, ", "))
	}
	return fmt.Sprintf("%T(%v)", obj, obj)
}

func describeDeltas(deltas Deltas) string {
	var parts []string
	for _, d := range deltas {
		switch info := d.Object.(type) {
		case deltafifo.ReplacedAllInfo:
			parts = append(parts, fmt.Sprintf("%s{rv %s, %s}", d.Type, info.ResourceVersion, describeObject(info.Objects)))
		case deltafifo.BookmarkInfo:
			parts = append(parts, fmt.Sprintf("%s{rv %s}", d.Type, info.ResourceVersion))
		case deltafifo.SyncAllInfo:
			parts = append(parts, fmt.Sprintf("%s{}", d.Type))
		default:
			parts = append(parts, fmt.Sprintf("%s %s", d.Type, describeObject(d.Object)))
		}
	}
	return strings.Join(parts, ", ")
}

func cacheContent(s indexer.Store) []string {
	var out []string
	for _, obj := range s.List() {
		pod := obj.(*corev1.Pod)
		out = append(out, pod.Namespace+"/"+pod.Name+"@"+pod.ResourceVersion)
	}
	slices.Sort(out)
	return out
}
