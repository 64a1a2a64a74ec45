// Command clientgo is the smallest complete controller written with
// client-go v0.37.2's own packages (informers, tools/cache and
// util/workqueue), not with this repository's stages: the program to copy
// into a real project. Every ConfigMap labelled example.com/summarize=true
// gets an annotation, example.com/keys, that lists its data keys, and
// keeps it up to date.
//
//	go run ./examples/clientgo --kubeconfig ~/.kube/config
//
// docs/en/to-client-go.md shows this file block by block and points each
// part to the chapter that rebuilds it; a test keeps the page and the file
// identical, and another runs Run against the playground.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corev1listers "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// Selector picks the ConfigMaps this controller looks after;
// KeysAnnotation is what it writes on them.
const (
	Selector       = "example.com/summarize=true"
	KeysAnnotation = "example.com/keys"
)

func main() {
	kubeconfig := flag.String("kubeconfig", os.Getenv("KUBECONFIG"), "the cluster's kubeconfig (empty: the in-cluster config)")
	workers := flag.Int("workers", 2, "how many keys are reconciled at once")
	flag.Parse()

	// Ctrl-C, or the kubelet's SIGTERM, ends ctx; Run then shuts down.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	cfg, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err == nil {
		err = Run(ctx, cfg, *workers)
	}
	if err != nil {
		klog.ErrorS(err, "The controller failed")
		klog.FlushAndExit(klog.ExitFlushTimeout, 1)
	}
}

// Run runs the controller until ctx ends, then shuts it down gracefully:
// it stops taking keys, finishes the ones it holds, and stops the
// informers. It returns nil after a shutdown.
func Run(ctx context.Context, cfg *rest.Config, workers int) error {
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}

	// One factory for the program: one informer per type, shared by every
	// part that asks for it, each with these options.
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0,
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = Selector }),
		informers.WithTransform(dropManagedFields))
	configMaps := factory.Core().V1().ConfigMaps()

	// The queue holds keys, not objects: a worker reads the newest state
	// from the cache when it gets to the key.
	queue := workqueue.NewTypedRateLimitingQueueWithConfig(
		workqueue.DefaultTypedControllerRateLimiter[cache.ObjectName](),
		workqueue.TypedRateLimitingQueueConfig[cache.ObjectName]{Name: "configmap-keys"})
	c := &controller{client: client, lister: configMaps.Lister(), queue: queue}

	// The handler only enqueues. Typed: no type assertions, and a deletion
	// has a key whether or not the informer still had the object.
	registration, err := configMaps.TypedInformer().AddTypedEventHandler(cache.TypedResourceEventHandlerFuncs[*corev1.ConfigMap]{
		AddFunc:    func(cm *corev1.ConfigMap) { queue.Add(cache.MetaObjectToName(cm)) },
		UpdateFunc: func(_, cm *corev1.ConfigMap) { queue.Add(cache.MetaObjectToName(cm)) },
		DeleteFunc: func(d cache.DeletedObject[*corev1.ConfigMap]) { queue.Add(d.GetObjectName()) },
	})
	if err != nil {
		queue.ShutDown()
		return err
	}

	// The informers stop last, after the workers, which read the cache
	// until they are done. Deferred calls run in reverse: cancel, then wait.
	informerCtx, stopInformers := context.WithCancel(context.WithoutCancel(ctx))
	defer factory.Shutdown()
	defer stopInformers()
	factory.StartWithContext(informerCtx)

	// Wait for the handler, not only for the cache: the registration has
	// synced once the cache has and this handler has been given every
	// object of the initial list, so every existing key is in the queue.
	if !cache.WaitForNamedCacheSyncWithContext(ctx, registration.HasSynced) {
		queue.ShutDown()
		return fmt.Errorf("the caches did not sync: %w", context.Cause(ctx))
	}

	// The workers' context outlives ctx, so that a reconcile in flight at
	// shutdown finishes its write instead of being cut off.
	workCtx := context.WithoutCancel(ctx)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for c.processNextItem(workCtx) {
			}
		})
	}

	<-ctx.Done()
	// Refuse new keys and wait for those being reconciled; Get still hands
	// out the keys left in the queue, so the workers finish those too.
	// ShutDown then stops the delaying queue's goroutine at once, which
	// ShutDownWithDrain alone leaves to its next 10-second heartbeat.
	queue.ShutDownWithDrain()
	queue.ShutDown()
	wg.Wait()
	return nil
}

// controller is what a worker needs: a client to write with, a lister to
// read the cache with, and the queue.
type controller struct {
	client kubernetes.Interface
	lister corev1listers.ConfigMapLister
	queue  workqueue.TypedRateLimitingInterface[cache.ObjectName]
}

// processNextItem reconciles one key and reports whether to go on. Done,
// always: a key not marked done is never handed out again. Forget on
// success: the key's next failure starts from the shortest delay again.
// AddRateLimited on failure: the key comes back after a delay that doubles
// with each failure.
func (c *controller) processNextItem(ctx context.Context) bool {
	key, shutdown := c.queue.Get()
	if shutdown {
		return false
	}
	defer c.queue.Done(key)
	if err := c.sync(ctx, key); err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Reconcile failed, will retry", "key", key)
		c.queue.AddRateLimited(key)
		return true
	}
	c.queue.Forget(key)
	return true
}

// sync makes one ConfigMap's annotation list its data keys. It reads the
// cache, not the event that queued the key; it writes only when the
// annotation differs; and the patch carries the resourceVersion it read,
// so a write based on a stale cache fails with a conflict and is retried.
func (c *controller) sync(ctx context.Context, key cache.ObjectName) error {
	cm, err := c.lister.ConfigMaps(key.Namespace).Get(key.Name)
	if apierrors.IsNotFound(err) {
		return nil // deleted: nothing left to keep up to date
	}
	if err != nil {
		return err
	}
	keys := strings.Join(slices.Sorted(maps.Keys(cm.Data)), ",")
	if got, ok := cm.Annotations[KeysAnnotation]; ok && got == keys {
		return nil
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{
		"resourceVersion": cm.ResourceVersion,
		"annotations":     map[string]string{KeysAnnotation: keys},
	}})
	if err != nil {
		return err
	}
	_, err = c.client.CoreV1().ConfigMaps(key.Namespace).Patch(ctx, key.Name, types.MergePatchType, patch, metav1.PatchOptions{})
	return err
}

// dropManagedFields is the informers' transform. It runs on every object
// before the object is queued, so the cache holds no managedFields, which
// no controller reads and which make up a large part of many objects. It
// changes the object in place, which client-go allows since 1.27, and it
// is idempotent, as it must be: an object can pass through it twice (a
// WatchList's objects do). What is not an object is handed back as it is.
func dropManagedFields(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	return obj, nil
}
