package indexer_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
)

// TestTypedIndexerMatchesClientGo compares NewTypedIndexer with the typed
// indexer client-go hands out from a typed informer (its only door to it):
// typed index functions added later, TypedIndex and ByTypedIndex.
func TestTypedIndexerMatchesClientGo(t *testing.T) {
	byNodeTyped := func(pod *corev1.Pod) ([]string, error) { return []string{pod.Spec.NodeName}, nil }
	byAppTyped := func(pod *corev1.Pod) ([]string, error) { return []string{pod.Labels["app"]}, nil }

	informer := cache.NewSharedIndexInformer(&cache.ListWatch{}, &corev1.Pod{}, 0,
		cache.TypedIndexersToIndexers(cache.TypedIndexers[*corev1.Pod]{"byNode": byNodeTyped}))
	theirs := cache.NewTypedSharedIndexInformer[*corev1.Pod](informer).GetTypedIndexer()
	ours := indexer.NewTypedIndexer[*corev1.Pod](indexer.NewIndexer(deltafifo.DeletionHandlingMetaNamespaceKeyFunc,
		indexer.TypedIndexersToIndexers(indexer.TypedIndexers[*corev1.Pod]{"byNode": byNodeTyped})))

	g := &generator{c: randChooser{newRand(9)}}
	for range 30 {
		pod := g.pod(false)
		if err := ours.Add(pod); err != nil {
			t.Fatal(err)
		}
		if err := theirs.Add(pod); err != nil {
			t.Fatal(err)
		}
	}
	gotErr := errString(ours.AddTypedIndexers(indexer.TypedIndexers[*corev1.Pod]{"byApp": byAppTyped}))
	wantErr := errString(theirs.AddTypedIndexers(cache.TypedIndexers[*corev1.Pod]{"byApp": byAppTyped}))
	if gotErr != wantErr {
		t.Fatalf("AddTypedIndexers: client-go returned %q, ours %q", wantErr, gotErr)
	}

	ask := func(typedIndex func(string, *corev1.Pod) ([]*corev1.Pod, error), byTypedIndex func(string, string) ([]*corev1.Pod, error)) []string {
		var out []string
		for _, name := range []string{"byNode", "byApp", "no-such-index"} {
			for _, value := range append(nodes, "web", "db", "") {
				out = append(out, name+"="+value)
				out = append(out, objects(byTypedIndex(name, value))...)
			}
			out = append(out, name+" for a probe")
			out = append(out, objects(typedIndex(name, probes["pod"].(*corev1.Pod)))...)
		}
		return out
	}
	want := ask(theirs.TypedIndex, theirs.ByTypedIndex)
	got := ask(ours.TypedIndex, ours.ByTypedIndex)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("typed indexers disagree (-client-go +ours):\n%s", diff)
	}
}

func TestIndexFuncToKeyFuncAdapterMatchesClientGo(t *testing.T) {
	funcs := map[string]func(obj interface{}) ([]string, error){
		"one value":  func(interface{}) ([]string, error) { return []string{"a"}, nil },
		"two values": func(interface{}) ([]string, error) { return []string{"a", "b"}, nil },
		"no value":   func(interface{}) ([]string, error) { return nil, nil },
		"error":      func(interface{}) ([]string, error) { return nil, errors.New("boom") },
	}
	for name, f := range funcs {
		key, err := indexer.IndexFuncToKeyFuncAdapter(f)(nil)
		wantKey, wantErr := cache.IndexFuncToKeyFuncAdapter(f)(nil)
		if key != wantKey || errString(err) != errString(wantErr) {
			t.Errorf("%s: client-go returned (%q, %v), ours (%q, %v)", name, wantKey, wantErr, key, err)
		}
	}
}
