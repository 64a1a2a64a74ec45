package factory_test

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes/fake"

	factory "informer-from-scratch/07-factory"
	"informer-from-scratch/internal/demo"
)

// Two parts of one program ask the factory for the pods informer and get
// the same one; the lister answers from its cache.
func ExampleSharedInformerFactory() {
	client := fake.NewClientset(
		demo.Pod("default", "web-1", map[string]string{"app": "web"}),
		demo.Pod("default", "web-2", map[string]string{"app": "web"}),
		demo.Pod("default", "db-1", map[string]string{"app": "db"}),
	)
	f := factory.NewSharedInformerFactory(client, 0)

	partA := f.Core().V1().Pods().Informer()
	partB := f.Core().V1().Pods().Informer()
	fmt.Println("same cache:", partA.GetStore() == partB.GetStore())

	ctx, cancel := context.WithCancel(context.Background())
	defer f.Shutdown() // after cancel: waits for the informers to stop
	defer cancel()
	f.StartWithContext(ctx)
	for typ, synced := range f.WaitForCacheSyncWithContext(ctx).Synced {
		fmt.Println("synced:", typ, synced)
	}

	web, err := f.Core().V1().Pods().Lister().Pods("default").List(labels.SelectorFromSet(labels.Set{"app": "web"}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("app=web:", len(web), "pods")
	// Output:
	// same cache: true
	// synced: *v1.Pod true
	// app=web: 2 pods
}
