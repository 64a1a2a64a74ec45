package indexer_test

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
	"informer-from-scratch/04-indexer/listers"
)

func pod(ns, name, node string, labels map[string]string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec:       corev1.PodSpec{NodeName: node},
	}
}

func byNodeName(obj interface{}) ([]string, error) {
	return []string{obj.(*corev1.Pod).Spec.NodeName}, nil
}

func names(items []interface{}) []string {
	var out []string
	for _, item := range items {
		out = append(out, item.(*corev1.Pod).Name)
	}
	slices.Sort(out)
	return out
}

// An update moves the pod's key from one bucket to another: the store
// computes the old object's values and the new one's, and moves the key.
func ExampleIndexer_ByIndex() {
	idx := indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc, indexer.Indexers{"byNode": byNodeName})
	_ = idx.Add(pod("shop", "web-1", "node-1", nil))
	_ = idx.Add(pod("shop", "web-2", "node-1", nil))
	_ = idx.Add(pod("shop", "db-1", "node-2", nil))

	onNode1, _ := idx.ByIndex("byNode", "node-1")
	fmt.Println("node-1:", names(onNode1))

	_ = idx.Update(pod("shop", "web-2", "node-2", nil)) // web-2 moved
	onNode1, _ = idx.ByIndex("byNode", "node-1")
	onNode2, _ := idx.ByIndex("byNode", "node-2")
	fmt.Println("node-1:", names(onNode1))
	fmt.Println("node-2:", names(onNode2))
	// Output:
	// node-1: [web-1 web-2]
	// node-1: [web-1]
	// node-2: [db-1 web-2]
}

// An index added after the store is filled indexes what is already there.
func ExampleIndexer_AddIndexers() {
	idx := indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc, indexer.Indexers{})
	_ = idx.Add(pod("shop", "web-1", "node-1", nil))
	_ = idx.Add(pod("shop", "db-1", "node-2", nil))

	fmt.Println(idx.AddIndexers(indexer.Indexers{"byNode": byNodeName}))
	keys, _ := idx.IndexKeys("byNode", "node-2")
	fmt.Println(keys)
	fmt.Println(idx.AddIndexers(indexer.Indexers{"byNode": byNodeName}))
	// Output:
	// <nil>
	// [shop/db-1]
	// indexer conflict: map[byNode:{}]
}

// Listers answer from the cache. Pods(ns).List reads the namespace index's
// bucket, then matches the selector against each pod in it.
func Example_typedLister() {
	idx := indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc,
		indexer.Indexers{indexer.NamespaceIndex: indexer.MetaNamespaceIndexFunc})
	_ = idx.Add(pod("shop", "web-1", "node-1", map[string]string{"app": "web"}))
	_ = idx.Add(pod("shop", "db-1", "node-2", map[string]string{"app": "db"}))
	_ = idx.Add(pod("blog", "web-1", "node-2", map[string]string{"app": "web"}))

	podLister := listers.New[*corev1.Pod](idx, corev1.Resource("pod")) // "pod", as client-go's generated PodLister says
	shop := listers.NewNamespaced(podLister, "shop")
	web, _ := shop.List(labels.SelectorFromSet(labels.Set{"app": "web"}))
	for _, p := range web {
		fmt.Println(p.Namespace + "/" + p.Name)
	}
	_, err := shop.Get("cache-1")
	fmt.Println(err)
	// Output:
	// shop/web-1
	// pod "cache-1" not found
}

// Mutating a cached object corrupts the index: the store is never told, and
// the next writes compute the "old" values from the mutated object.
func ExampleThreadSafeStore_mutation() {
	idx := indexer.NewIndexer(deltafifo.MetaNamespaceKeyFunc, indexer.Indexers{"byNode": byNodeName})
	_ = idx.Add(pod("shop", "web-1", "node-1", nil))

	cached, _, _ := idx.GetByKey("shop/web-1")
	cached.(*corev1.Pod).Spec.NodeName = "node-2" // never do this

	stale, _ := idx.IndexKeys("byNode", "node-1")
	fmt.Println("node-1 after the mutation:", stale)
	_ = idx.Update(pod("shop", "web-1", "node-2", nil))
	_ = idx.Delete(pod("shop", "web-1", "node-2", nil))
	ghost, _ := idx.ByIndex("byNode", "node-1")
	fmt.Printf("node-1 after update and delete: %v\n", ghost)
	// Output:
	// node-1 after the mutation: [shop/web-1]
	// node-1 after update and delete: [<nil>]
}
