package factory_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"
	factory "informer-from-scratch/07-factory"
	"informer-from-scratch/internal/testenv"
)

// The kinds every test asks both factories for, by resource name.
var kinds = []string{"configmaps", "deployments", "namespaces", "pods", "services"}

// gvrOf is each kind's GroupVersionResource, for ForResource.
var gvrOf = map[string]schema.GroupVersionResource{
	"configmaps":  corev1.SchemeGroupVersion.WithResource("configmaps"),
	"deployments": appsv1.SchemeGroupVersion.WithResource("deployments"),
	"namespaces":  corev1.SchemeGroupVersion.WithResource("namespaces"),
	"pods":        corev1.SchemeGroupVersion.WithResource("pods"),
	"services":    corev1.SchemeGroupVersion.WithResource("services"),
}

// sharedInformer is what both libraries' informers have in common, with the
// same signatures.
type sharedInformer interface {
	HasSynced() bool
	IsStopped() bool
	LastSyncResourceVersion() string
}

// genericLister is both libraries' GenericLister, reduced to what the
// tests read.
type genericLister interface {
	List(selector labels.Selector) ([]runtime.Object, error)
	Get(name string) (runtime.Object, error)
}

// A side is one factory under test, client-go's or ours, behind functions
// with the same signatures, so that one scenario drives either and the two
// outcomes can be compared with cmp.Diff.
type side struct {
	name string

	// informer asks for kind's informer through the typed accessors
	// (factory.Core().V1().Pods().Informer() and so on).
	informer func(kind string) sharedInformer
	// addHandler registers h on kind's informer (asking for it again).
	addHandler func(kind string, h *testenv.Recorder) (hasSynced func() bool, err error)
	// forResource asks for a resource through ForResource, and returns its
	// informer, its lister and the lister's view of one namespace.
	forResource func(gvr schema.GroupVersionResource, namespace string) (sharedInformer, genericLister, genericLister, error)

	start       func(ctx context.Context)
	startStopCh func(stopCh <-chan struct{})
	shutdown    func()
	// waitForCacheSync is WaitForCacheSyncWithContext: per type whether it
	// synced, and AsError's message ("" when nil).
	waitForCacheSync func(ctx context.Context) (map[string]bool, string)
	// waitForCacheSyncStopCh is the stop-channel WaitForCacheSync.
	waitForCacheSyncStopCh func(stopCh <-chan struct{}) map[string]bool

	// The typed listers' answers, as sorted "namespace/name@rv" keys.
	listPods        func(namespace string, selector labels.Selector) ([]string, error)
	getPod          func(namespace, name string) (string, error)
	listDeployments func(namespace string, selector labels.Selector) ([]string, error)
	getNamespace    func(name string) (string, error)
}

// options are the factory settings a scenario may choose; each side turns
// them into its library's options.
type options struct {
	namespace string
	tweak     func(*metav1.ListOptions)
	resync    time.Duration
	transform func(any) (any, error)
	// customResync is WithCustomResyncConfig's map.
	customResync map[metav1.Object]time.Duration
}

// newClientGoSide builds client-go's factory over client.
func newClientGoSide(client kubernetes.Interface, o options) *side {
	var opts []informers.SharedInformerOption
	if o.namespace != "" {
		opts = append(opts, informers.WithNamespace(o.namespace))
	}
	if o.tweak != nil {
		opts = append(opts, informers.WithTweakListOptions(o.tweak))
	}
	if o.transform != nil {
		opts = append(opts, informers.WithTransform(o.transform))
	}
	if o.customResync != nil {
		opts = append(opts, informers.WithCustomResyncConfig(o.customResync))
	}
	f := informers.NewSharedInformerFactoryWithOptions(client, o.resync, opts...)
	inf := func(kind string) cache.SharedIndexInformer {
		switch kind {
		case "configmaps":
			return f.Core().V1().ConfigMaps().Informer()
		case "deployments":
			return f.Apps().V1().Deployments().Informer()
		case "namespaces":
			return f.Core().V1().Namespaces().Informer()
		case "pods":
			return f.Core().V1().Pods().Informer()
		case "services":
			return f.Core().V1().Services().Informer()
		}
		panic("no kind " + kind)
	}
	return &side{
		name:     "client-go",
		informer: func(kind string) sharedInformer { return inf(kind) },
		addHandler: func(kind string, h *testenv.Recorder) (func() bool, error) {
			reg, err := inf(kind).AddEventHandler(h)
			if err != nil {
				return nil, err
			}
			return reg.HasSynced, nil
		},
		forResource: func(gvr schema.GroupVersionResource, namespace string) (sharedInformer, genericLister, genericLister, error) {
			g, err := f.ForResource(gvr)
			if err != nil {
				return nil, nil, nil, err
			}
			return g.Informer(), g.Lister(), g.Lister().ByNamespace(namespace), nil
		},
		start:       f.StartWithContext,
		startStopCh: f.Start,
		shutdown:    f.Shutdown,
		waitForCacheSync: func(ctx context.Context) (map[string]bool, string) {
			res := f.WaitForCacheSyncWithContext(ctx)
			return byTypeName(res.Synced), errString(res.AsError())
		},
		waitForCacheSyncStopCh: func(stopCh <-chan struct{}) map[string]bool {
			return byTypeName(f.WaitForCacheSync(stopCh))
		},
		listPods: func(namespace string, selector labels.Selector) ([]string, error) {
			if namespace == "" {
				return keys(f.Core().V1().Pods().Lister().List(selector))
			}
			return keys(f.Core().V1().Pods().Lister().Pods(namespace).List(selector))
		},
		getPod: func(namespace, name string) (string, error) {
			return key(f.Core().V1().Pods().Lister().Pods(namespace).Get(name))
		},
		listDeployments: func(namespace string, selector labels.Selector) ([]string, error) {
			if namespace == "" {
				return keys(f.Apps().V1().Deployments().Lister().List(selector))
			}
			return keys(f.Apps().V1().Deployments().Lister().Deployments(namespace).List(selector))
		},
		getNamespace: func(name string) (string, error) {
			return key(f.Core().V1().Namespaces().Lister().Get(name))
		},
	}
}

// newOurSide builds our factory over client, the same way.
func newOurSide(client kubernetes.Interface, o options) *side {
	var opts []factory.SharedInformerOption
	if o.namespace != "" {
		opts = append(opts, factory.WithNamespace(o.namespace))
	}
	if o.tweak != nil {
		opts = append(opts, factory.WithTweakListOptions(o.tweak))
	}
	if o.transform != nil {
		opts = append(opts, factory.WithTransform(o.transform))
	}
	if o.customResync != nil {
		opts = append(opts, factory.WithCustomResyncConfig(o.customResync))
	}
	f := factory.NewSharedInformerFactoryWithOptions(client, o.resync, opts...)
	inf := func(kind string) informer.SharedIndexInformer {
		switch kind {
		case "configmaps":
			return f.Core().V1().ConfigMaps().Informer()
		case "deployments":
			return f.Apps().V1().Deployments().Informer()
		case "namespaces":
			return f.Core().V1().Namespaces().Informer()
		case "pods":
			return f.Core().V1().Pods().Informer()
		case "services":
			return f.Core().V1().Services().Informer()
		}
		panic("no kind " + kind)
	}
	return &side{
		name:     "ours",
		informer: func(kind string) sharedInformer { return inf(kind) },
		addHandler: func(kind string, h *testenv.Recorder) (func() bool, error) {
			reg, err := inf(kind).AddEventHandler(h)
			if err != nil {
				return nil, err
			}
			return reg.HasSynced, nil
		},
		forResource: func(gvr schema.GroupVersionResource, namespace string) (sharedInformer, genericLister, genericLister, error) {
			g, err := f.ForResource(gvr)
			if err != nil {
				return nil, nil, nil, err
			}
			return g.Informer(), g.Lister(), g.Lister().ByNamespace(namespace), nil
		},
		start:       f.StartWithContext,
		startStopCh: f.Start,
		shutdown:    f.Shutdown,
		waitForCacheSync: func(ctx context.Context) (map[string]bool, string) {
			res := f.WaitForCacheSyncWithContext(ctx)
			return byTypeName(res.Synced), errString(res.AsError())
		},
		waitForCacheSyncStopCh: func(stopCh <-chan struct{}) map[string]bool {
			return byTypeName(f.WaitForCacheSync(stopCh))
		},
		listPods: func(namespace string, selector labels.Selector) ([]string, error) {
			if namespace == "" {
				return keys(f.Core().V1().Pods().Lister().List(selector))
			}
			return keys(f.Core().V1().Pods().Lister().Pods(namespace).List(selector))
		},
		getPod: func(namespace, name string) (string, error) {
			return key(f.Core().V1().Pods().Lister().Pods(namespace).Get(name))
		},
		listDeployments: func(namespace string, selector labels.Selector) ([]string, error) {
			if namespace == "" {
				return keys(f.Apps().V1().Deployments().Lister().List(selector))
			}
			return keys(f.Apps().V1().Deployments().Lister().Deployments(namespace).List(selector))
		},
		getNamespace: func(name string) (string, error) {
			return key(f.Core().V1().Namespaces().Lister().Get(name))
		},
	}
}

// storeOf is an informer's cache, of either library: two callers share an
// informer when they share its cache.
func storeOf(i sharedInformer) any {
	switch i := i.(type) {
	case cache.SharedIndexInformer:
		return i.GetStore()
	case informer.SharedIndexInformer:
		return i.GetStore()
	}
	return nil
}

// byTypeName turns a per-type result into one keyed by the type's name.
func byTypeName(m map[reflect.Type]bool) map[string]bool {
	out := map[string]bool{}
	for t, v := range m {
		out[t.String()] = v
	}
	return out
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// keys renders a lister's answer as sorted "namespace/name@rv".
func keys[T runtime.Object](items []T, err error) ([]string, error) {
	out := []string{}
	for _, item := range items {
		k, err := key(item, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	slices.Sort(out)
	return out, err
}

// key renders one object as "namespace/name@rv".
func key[T runtime.Object](obj T, err error) (string, error) {
	if err != nil {
		return "", err
	}
	m, merr := meta.Accessor(obj)
	if merr != nil {
		return "", fmt.Errorf("%T: %w", obj, merr)
	}
	return testenv.ObjectKey(m.GetNamespace(), m.GetName()) + "@" + m.GetResourceVersion(), nil
}
