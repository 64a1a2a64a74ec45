package indexer_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
)

// describeNodeIndex is what a reader of the byNode index sees: each bucket's
// keys and the items ByIndex returns for it.
func describeNodeIndex(v view) []string {
	var out []string
	values := sortedCopy(v.ListIndexFuncValues("byNode"))
	out = append(out, fmt.Sprintf("values %v", values))
	for _, node := range []string{"node-1", "node-2"} {
		keys, _ := v.IndexKeys("byNode", node)
		items, _ := v.ByIndex("byNode", node)
		var described []string
		for _, item := range items {
			if pod, ok := item.(*corev1.Pod); ok && pod != nil {
				described = append(described, fmt.Sprintf("%s/%s on %s", pod.Namespace, pod.Name, pod.Spec.NodeName))
			} else {
				described = append(described, fmt.Sprintf("%#v", item))
			}
		}
		slices.Sort(described)
		out = append(out, fmt.Sprintf("%s: keys %v, ByIndex %v", node, keys, described))
	}
	return out
}

// TestMutatingACachedObjectCorruptsTheIndexLikeClientGo is the rule "never
// mutate what the cache returns", demonstrated on both sides. A controller
// changes a cached pod's node in place. The index is not told, so the pod
// stays in node-1's bucket. The next update computes the "old" values from
// the mutated object (node-2), so it removes the key from the wrong bucket
// and the key stays in node-1's for good; after the delete, ByIndex on
// node-1 returns a nil item. Ours must go wrong in exactly the same way:
// we mirror the data structure, we do not hide the misuse.
func TestMutatingACachedObjectCorruptsTheIndexLikeClientGo(t *testing.T) {
	ours, theirs := newOurs(byNode), newTheirs(byNode)
	pod := testPod("ns", "web", "1", "node-1", nil)
	type stage struct {
		name string
		do   func(v view, add, update, del func(interface{}) error) error
	}
	stages := []stage{
		{"added on node-1", func(v view, add, _, _ func(interface{}) error) error { return add(pod.DeepCopy()) }},
		{"cached object mutated to node-2", func(v view, _, _, _ func(interface{}) error) error {
			cached, _, err := v.GetByKey("ns/web")
			cached.(*corev1.Pod).Spec.NodeName = "node-2" // the forbidden write
			return err
		}},
		{"updated from the server (node-2)", func(v view, _, update, _ func(interface{}) error) error {
			return update(testPod("ns", "web", "2", "node-2", nil))
		}},
		{"deleted", func(v view, _, _, del func(interface{}) error) error {
			return del(testPod("ns", "web", "3", "node-2", nil))
		}},
	}
	for _, s := range stages {
		if err := s.do(theirs, theirs.Add, theirs.Update, theirs.Delete); err != nil {
			t.Fatalf("%s on client-go: %v", s.name, err)
		}
		if err := s.do(ours, ours.Add, ours.Update, ours.Delete); err != nil {
			t.Fatalf("%s on ours: %v", s.name, err)
		}
		if diff := cmp.Diff(describeNodeIndex(theirs), describeNodeIndex(ours)); diff != "" {
			t.Errorf("%s: the byNode index differs (-client-go +ours):\n%s", s.name, diff)
		}
	}
	// The premise, on client-go's side: the deleted pod's key is still in
	// node-1's bucket and ByIndex hands out a nil item for it.
	items, _ := theirs.ByIndex("byNode", "node-1")
	if len(items) != 1 || items[0] != nil {
		t.Errorf("client-go's ByIndex(node-1) after the delete = %#v; the chapter says [nil]: update it", items)
	}
}
