package informer_test

import (
	"context"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/06-sharedinformer/observe"
)

// A side is one informer under test, client-go's or ours, behind the same
// small interface, so that one scenario can drive either.
type side interface {
	addHandler(h handlerSpec, rec *recorder) (registration, error)
	run(ctx context.Context)
	hasSynced() bool
	// cache is the informer's cache as key → resourceVersion.
	cache() map[string]string
	lastSyncResourceVersion() string
	isStopped() bool
}

// registration is what adding a handler gave back.
type registration struct {
	hasSynced func() bool
	synced    <-chan struct{}
	remove    func() error
}

// handlerSpec is one handler of a scenario.
type handlerSpec struct {
	name   string
	resync *time.Duration // nil: AddEventHandler, the informer's default
	delay  time.Duration  // a slow handler
	filter bool           // behind a FilteringResourceEventHandler (app=web)
	typed  bool           // through the typed layer (AddTypedEventHandler)
	// addAt: 0 before the informer runs, else added while it runs.
	addAt time.Duration
	// removeAt, if set, removes the handler then.
	removeAt time.Duration
	// racesTheSource marks a late handler added while the informer may be
	// processing (a source change at the same instant, a relist due about
	// then): where it joins differs between any two runs, so its calls are
	// checked against the scenario's reference handler, not compared.
	racesTheSource bool
}

func isWeb(obj any) bool {
	pod, ok := obj.(*corev1.Pod)
	return ok && pod.Labels["app"] == "web"
}

func isWebPod(pod *corev1.Pod) bool { return pod != nil && pod.Labels["app"] == "web" }

// sortedSource lists in key order, as a real apiserver does (etcd's order),
// where FakeControllerSource ranges over a map: both informers then see a
// relist's objects in the same order.
type sortedSource struct {
	lw cache.ListerWatcher
}

func (s sortedSource) List(options metav1.ListOptions) (runtime.Object, error) {
	//lint:ignore SA1019 FakeControllerSource has only the context-less methods
	list, err := s.lw.List(options)
	if err != nil {
		return nil, err
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	slices.SortFunc(items, func(a, b runtime.Object) int {
		ma, _ := meta.Accessor(a)
		mb, _ := meta.Accessor(b)
		return compareStrings(ma.GetNamespace()+"/"+ma.GetName(), mb.GetNamespace()+"/"+mb.GetName())
	})
	if err := meta.SetList(list, items); err != nil {
		return nil, err
	}
	return list, nil
}

func (s sortedSource) Watch(options metav1.ListOptions) (watch.Interface, error) {
	//lint:ignore SA1019 FakeControllerSource has only the context-less methods
	return s.lw.Watch(options)
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// storeContent reads a cache as key → resourceVersion.
func storeContent(list []any) map[string]string {
	out := map[string]string{}
	for _, obj := range list {
		m, err := meta.Accessor(obj)
		if err != nil {
			out[fmt.Sprintf("<%T>", obj)] = ""
			continue
		}
		out[m.GetNamespace()+"/"+m.GetName()] = m.GetResourceVersion()
	}
	return out
}

// dropManagedFields is the transform of the demo and of the transform
// scenarios: it drops managedFields, and marks what it saw so a test can
// tell it ran exactly once per object.
func dropManagedFields(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	return obj, nil
}

// --- client-go ---

type clientGoShared struct {
	informer cache.SharedIndexInformer
}

func newClientGoShared(lw cache.ListerWatcher, resync time.Duration, transform bool) *clientGoShared {
	inf := cache.NewSharedIndexInformer(lw, &corev1.Pod{}, resync, cache.Indexers{})
	if transform {
		if err := inf.SetTransform(dropManagedFields); err != nil {
			panic(err)
		}
	}
	return &clientGoShared{informer: inf}
}

func (c *clientGoShared) addHandler(h handlerSpec, rec *recorder) (registration, error) {
	var reg cache.ResourceEventHandlerRegistration
	var err error
	switch {
	case h.typed:
		typed := cache.NewTypedSharedIndexInformer[*corev1.Pod](c.informer)
		var handler cache.TypedResourceEventHandler[*corev1.Pod] = cache.TypedResourceEventHandlerDetailedFuncs[*corev1.Pod]{
			AddFunc:    func(p *corev1.Pod, initial bool) { rec.OnAdd(p, initial) },
			UpdateFunc: func(o, n *corev1.Pod) { rec.OnUpdate(o, n) },
			DeleteFunc: func(d cache.DeletedObject[*corev1.Pod]) {
				rec.recordDeleted(d.GetKey(), d.OptionalObj, d.FinalStateUnknown != nil)
			},
		}
		if h.filter {
			handler = cache.TypedFilteringResourceEventHandler[*corev1.Pod]{FilterFunc: isWebPod, Handler: handler}
		}
		if h.resync == nil {
			reg, err = typed.AddTypedEventHandler(handler)
		} else {
			reg, err = typed.AddTypedEventHandler(handler, cache.HandlerOptions{ResyncPeriod: h.resync})
		}
	default:
		var handler cache.ResourceEventHandler = rec
		if h.filter {
			handler = cache.FilteringResourceEventHandler{FilterFunc: isWeb, Handler: rec}
		}
		if h.resync == nil {
			reg, err = c.informer.AddEventHandler(handler)
		} else {
			reg, err = c.informer.AddEventHandlerWithResyncPeriod(handler, *h.resync)
		}
	}
	if err != nil {
		return registration{}, err
	}
	return registration{
		hasSynced: reg.HasSynced,
		synced:    reg.HasSyncedChecker().Done(),
		remove:    func() error { return c.informer.RemoveEventHandler(reg) },
	}, nil
}

func (c *clientGoShared) run(ctx context.Context)  { c.informer.RunWithContext(ctx) }
func (c *clientGoShared) hasSynced() bool          { return c.informer.HasSynced() }
func (c *clientGoShared) cache() map[string]string { return storeContent(c.informer.GetStore().List()) }
func (c *clientGoShared) lastSyncResourceVersion() string {
	return c.informer.LastSyncResourceVersion()
}
func (c *clientGoShared) isStopped() bool { return c.informer.IsStopped() }

// --- ours ---

type ourShared struct {
	informer informer.SharedIndexInformer
}

func newOurShared(lw informer.ListerWatcher, resync time.Duration, transform bool, kind informer.QueueKind, observer observe.Observer, useWatchList *bool) *ourShared {
	inf := informer.NewSharedIndexInformerWithOptions(lw, &corev1.Pod{}, informer.SharedIndexInformerOptions{
		ResyncPeriod: resync,
		Indexers:     informer.Indexers{},
		Queue:        kind,
		Seams:        observe.Seams(observer),
		UseWatchList: useWatchList,
	})
	if transform {
		if err := inf.SetTransform(dropManagedFields); err != nil {
			panic(err)
		}
	}
	return &ourShared{informer: inf}
}

func (o *ourShared) addHandler(h handlerSpec, rec *recorder) (registration, error) {
	var reg informer.ResourceEventHandlerRegistration
	var err error
	switch {
	case h.typed:
		typed := informer.NewTypedSharedIndexInformer[*corev1.Pod](o.informer)
		var handler informer.TypedResourceEventHandler[*corev1.Pod] = informer.TypedResourceEventHandlerDetailedFuncs[*corev1.Pod]{
			AddFunc:    func(p *corev1.Pod, initial bool) { rec.OnAdd(p, initial) },
			UpdateFunc: func(o, n *corev1.Pod) { rec.OnUpdate(o, n) },
			DeleteFunc: func(d informer.DeletedObject[*corev1.Pod]) {
				rec.recordDeleted(d.GetKey(), d.OptionalObj, d.FinalStateUnknown != nil)
			},
		}
		if h.filter {
			handler = informer.TypedFilteringResourceEventHandler[*corev1.Pod]{FilterFunc: isWebPod, Handler: handler}
		}
		if h.resync == nil {
			reg, err = typed.AddTypedEventHandler(handler)
		} else {
			reg, err = typed.AddTypedEventHandler(handler, informer.HandlerOptions{ResyncPeriod: h.resync})
		}
	default:
		var handler informer.ResourceEventHandler = rec
		if h.filter {
			handler = informer.FilteringResourceEventHandler{FilterFunc: isWeb, Handler: rec}
		}
		if h.resync == nil {
			reg, err = o.informer.AddEventHandler(handler)
		} else {
			reg, err = o.informer.AddEventHandlerWithResyncPeriod(handler, *h.resync)
		}
	}
	if err != nil {
		return registration{}, err
	}
	return registration{
		hasSynced: reg.HasSynced,
		synced:    reg.HasSyncedChecker().Done(),
		remove:    func() error { return o.informer.RemoveEventHandler(reg) },
	}, nil
}

func (o *ourShared) run(ctx context.Context)         { o.informer.RunWithContext(ctx) }
func (o *ourShared) hasSynced() bool                 { return o.informer.HasSynced() }
func (o *ourShared) cache() map[string]string        { return storeContent(o.informer.GetStore().List()) }
func (o *ourShared) lastSyncResourceVersion() string { return o.informer.LastSyncResourceVersion() }
func (o *ourShared) isStopped() bool                 { return o.informer.IsStopped() }

// recordDeleted records a typed deletion from what DeletedObject offers.
func (r *recorder) recordDeleted(key string, pod *corev1.Pod, tombstone bool) {
	c := call{Op: "delete", Key: key, Tombstone: tombstone, RV: "nil"}
	if pod != nil {
		c.RV, c.Fields = pod.ResourceVersion, len(pod.ManagedFields)
	}
	r.record(c)
}
