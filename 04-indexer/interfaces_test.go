package indexer_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	reflector "informer-from-scratch/02-reflector"
	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
)

// The shapes other layers need, checked against stages 02 and 03 and against
// client-go's own interfaces (they use only builtin types, so ours can
// satisfy them):
//   - stage 02's Reflector writes into a ReflectorStore;
//   - stage 03's DeltaFIFO and RealFIFO read their KnownObjects through a
//     KeyListerGetter (and so does the informer, when it reconciles a
//     relist with atomic events);
//   - both queues are a TransformingStore, so a Reflector streaming a
//     WatchList into them transforms what it gathers with their Transformer;
//   - and our Store is a full cache.Store.
var (
	_ reflector.TransformingStore = &deltafifo.RealFIFO{}
	_ reflector.TransformingStore = &deltafifo.DeltaFIFO{}

	_ reflector.ReflectorStore  = indexer.Store(nil) // what stage 02's Reflector writes into
	_ deltafifo.KeyListerGetter = indexer.Store(nil) // stage 03's KnownObjects
	_ cache.ReflectorStore      = indexer.Store(nil)
	_ cache.KeyListerGetter     = indexer.Store(nil)
	_ cache.Store               = indexer.Store(nil)
	_ cache.ReflectorStore      = indexer.Indexer(nil)
	_ cache.KeyListerGetter     = indexer.Indexer(nil)
)

// A Store's Bookmark returns nothing, so neither client-go's store nor ours
// is a ReflectorBookmarkStore (Bookmark(string) error): a Reflector writing
// straight into a store does not pass bookmarks on. Only the queues (RealFIFO)
// are. The informer calls Store.Bookmark itself when it pops a bookmark.
func TestStoreIsABookmarkStoreExactlyWhenClientGosIs(t *testing.T) {
	_, theirs := interface{}(cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})).(cache.ReflectorBookmarkStore)
	_, ours := interface{}(indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc, indexer.Indexers{})).(cache.ReflectorBookmarkStore)
	if theirs != ours {
		t.Errorf("client-go's indexer is a ReflectorBookmarkStore: %v; ours: %v", theirs, ours)
	}
}

// describeDeltas turns what a queue pops into comparable strings.
func describeDeltas(popped interface{}) []string {
	deltas, ok := popped.(cache.Deltas)
	if !ok {
		return []string{fmt.Sprintf("not Deltas: %T", popped)}
	}
	var out []string
	for _, d := range deltas {
		if tomb, ok := d.Object.(cache.DeletedFinalStateUnknown); ok {
			out = append(out, fmt.Sprintf("%s tombstone{%s, %s}", d.Type, tomb.Key, identity(tomb.Obj)))
			continue
		}
		out = append(out, fmt.Sprintf("%s %s", d.Type, identity(d.Object)))
	}
	return out
}

// TestClientGoQueuesReadOurKnownObjectsLikeTheirs runs client-go's own
// DeltaFIFO and RealFIFO with our Indexer as KnownObjects, and with theirs.
// On a relist (Replace) that lacks some known objects, the queue must emit
// the same tombstones, carrying the objects it read from the store.
func TestClientGoQueuesReadOurKnownObjectsLikeTheirs(t *testing.T) {
	pods := func(names ...string) []interface{} {
		var out []interface{}
		for i, n := range names {
			out = append(out, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: n, ResourceVersion: fmt.Sprint(10 + i)}})
		}
		return out
	}
	known := pods("a", "b", "c", "d")
	relist := append(pods("b", "e"), known[3]) // a and c are gone; d is unchanged

	queues := map[string]func(cache.KeyListerGetter) cache.Queue{
		"DeltaFIFO": func(k cache.KeyListerGetter) cache.Queue {
			return cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{KnownObjects: k, EmitDeltaTypeReplaced: true})
		},
		"RealFIFO": func(k cache.KeyListerGetter) cache.Queue {
			return cache.NewRealFIFOWithOptions(cache.RealFIFOOptions{KnownObjects: k})
		},
	}
	for name, newQueue := range queues {
		t.Run(name, func(t *testing.T) {
			drive := func(store cache.KeyListerGetter, add func(interface{}) error) []string {
				for _, obj := range known {
					if err := add(obj); err != nil {
						t.Fatal(err)
					}
				}
				q := newQueue(store)
				if err := q.Replace(relist, "20"); err != nil {
					t.Fatal(err)
				}
				q.Close() // Pop then returns ErrFIFOClosed once the queue is empty
				var popped []string
				for {
					_, err := q.Pop(func(obj interface{}, _ bool) error {
						popped = append(popped, describeDeltas(obj)...)
						return nil
					})
					if errors.Is(err, cache.ErrFIFOClosed) {
						return popped
					}
					if err != nil {
						t.Fatal(err)
					}
				}
			}
			theirs := cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, cache.Indexers{})
			ours := indexer.NewIndexer(deltafifo.DeletionHandlingMetaNamespaceKeyFunc, indexer.Indexers{})
			want := drive(theirs, theirs.Add)
			got := drive(ours, ours.Add)
			if diff := cmp.Diff(sortedCopy(want), sortedCopy(got)); diff != "" {
				t.Errorf("%s popped different deltas (-client-go's store +ours):\n%s", name, diff)
			}
			if len(want) == 0 {
				t.Errorf("the queue popped nothing: the test proves nothing")
			}
		})
	}
}
