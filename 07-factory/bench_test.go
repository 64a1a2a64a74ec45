package factory_test

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clientgolisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	indexer "informer-from-scratch/04-indexer"
	informer "informer-from-scratch/06-sharedinformer"
	factory "informer-from-scratch/07-factory"
	corev1listers "informer-from-scratch/07-factory/listers/core/v1"
)

// benchPods are 5,000 pods in 10 namespaces, half app=web.
func benchPods() []*corev1.Pod {
	var pods []*corev1.Pod
	for i := range 5000 {
		pods = append(pods, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			Namespace: fmt.Sprintf("ns-%d", i%10),
			Name:      fmt.Sprintf("pod-%d", i),
			Labels:    map[string]string{"app": []string{"web", "db"}[i%2], "tier": []string{"front", "back", "cache"}[i%3]},
		}})
	}
	return pods
}

// BenchmarkListerBySelector is a controller's hot path: a typed lister
// answering a label query from the cache, in one namespace (the namespace
// index's bucket, 500 pods) and across all (5,000), over the same pods in
// client-go's indexer and lister and in ours.
func BenchmarkListerBySelector(b *testing.B) {
	selector := labels.SelectorFromSet(labels.Set{"app": "web", "tier": "front"})
	theirIndexer := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	ourIndexer := indexer.NewIndexer(informer.MetaNamespaceKeyFunc, informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc})
	for _, pod := range benchPods() {
		if err := theirIndexer.Add(pod); err != nil {
			b.Fatal(err)
		}
		if err := ourIndexer.Add(pod); err != nil {
			b.Fatal(err)
		}
	}
	theirs, ours := clientgolisters.NewPodLister(theirIndexer), corev1listers.NewPodLister(ourIndexer)
	for _, bc := range []struct {
		name string
		list func() ([]*corev1.Pod, error)
	}{
		{"namespace/client-go", func() ([]*corev1.Pod, error) { return theirs.Pods("ns-4").List(selector) }},
		{"namespace/ours", func() ([]*corev1.Pod, error) { return ours.Pods("ns-4").List(selector) }},
		{"all/client-go", func() ([]*corev1.Pod, error) { return theirs.List(selector) }},
		{"all/ours", func() ([]*corev1.Pod, error) { return ours.List(selector) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				pods, err := bc.list()
				if err != nil || len(pods) == 0 {
					b.Fatalf("%d pods, %v", len(pods), err)
				}
			}
		})
	}
}

// BenchmarkInformerAccessor is the other path a program takes often when it
// asks the factory every time instead of keeping what it got:
// Core().V1().Pods().Informer() and .Lister(), each a walk through the
// accessors, the factory's lock and map, and a typed wrapper.
func BenchmarkInformerAccessor(b *testing.B) {
	client := fake.NewClientset()
	theirs := informers.NewSharedInformerFactory(client, 0)
	ours := factory.NewSharedInformerFactory(client, 0)
	b.Run("client-go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = theirs.Core().V1().Pods().Informer()
			_ = theirs.Core().V1().Pods().Lister()
		}
	})
	b.Run("ours", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = ours.Core().V1().Pods().Informer()
			_ = ours.Core().V1().Pods().Lister()
		}
	})
}
