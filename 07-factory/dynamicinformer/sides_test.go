package dynamicinformer_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	clientgodynamic "k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"

	"informer-from-scratch/07-factory/dynamicinformer"
)

// A side is one dynamic factory, client-go's or ours, behind functions with
// the same signatures.
type side struct {
	name string
	// forResource asks for gvr's informer, registers rec on it (if not
	// nil), and returns what the tests read of it.
	forResource      func(gvr schema.GroupVersionResource, rec *recorder) (resource, error)
	start            func(stopCh <-chan struct{})
	waitForCacheSync func(stopCh <-chan struct{}) map[schema.GroupVersionResource]bool
	shutdown         func()
}

// resource is one informer of a side, reduced to what the tests read.
type resource struct {
	hasSynced func() bool
	isStopped func() bool
	store     any
	list      func(namespace string, selector labels.Selector) ([]runtime.Object, error)
	get       func(namespace, name string) (runtime.Object, error)
}

func newClientGoSide(client dynamic.Interface, namespace string) *side {
	f := clientgodynamic.NewFilteredDynamicSharedInformerFactory(client, 0, namespace, nil)
	return &side{
		name: "client-go",
		forResource: func(gvr schema.GroupVersionResource, rec *recorder) (resource, error) {
			g := f.ForResource(gvr)
			if rec != nil {
				if _, err := g.Informer().AddEventHandler(rec); err != nil {
					return resource{}, err
				}
			}
			return resource{
				hasSynced: g.Informer().HasSynced,
				isStopped: g.Informer().IsStopped,
				store:     g.Informer().GetStore(),
				list: func(ns string, sel labels.Selector) ([]runtime.Object, error) {
					if ns == "" {
						return g.Lister().List(sel)
					}
					return g.Lister().ByNamespace(ns).List(sel)
				},
				get: func(ns, name string) (runtime.Object, error) {
					if ns == "" {
						return g.Lister().Get(name)
					}
					return g.Lister().ByNamespace(ns).Get(name)
				},
			}, nil
		},
		start:            f.Start,
		waitForCacheSync: f.WaitForCacheSync,
		shutdown:         f.Shutdown,
	}
}

func newOurSide(client dynamic.Interface, namespace string) *side {
	f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(client, 0, namespace, nil)
	return &side{
		name: "ours",
		forResource: func(gvr schema.GroupVersionResource, rec *recorder) (resource, error) {
			g := f.ForResource(gvr)
			if rec != nil {
				if _, err := g.Informer().AddEventHandler(rec); err != nil {
					return resource{}, err
				}
			}
			return resource{
				hasSynced: g.Informer().HasSynced,
				isStopped: g.Informer().IsStopped,
				store:     g.Informer().GetStore(),
				list: func(ns string, sel labels.Selector) ([]runtime.Object, error) {
					if ns == "" {
						return g.Lister().List(sel)
					}
					return g.Lister().ByNamespace(ns).List(sel)
				},
				get: func(ns, name string) (runtime.Object, error) {
					if ns == "" {
						return g.Lister().Get(name)
					}
					return g.Lister().ByNamespace(ns).Get(name)
				},
			}, nil
		},
		start:            f.Start,
		waitForCacheSync: f.WaitForCacheSync,
		shutdown:         f.Shutdown,
	}
}

// ask asks a resource's lister the tests' questions and renders the
// answers as "namespace/name@rv" keys, errors included.
func (r resource) ask(namespaces []string, names []string) map[string][]string {
	out := map[string][]string{}
	for _, sel := range []string{"", "app=web", "app!=web", "seq"} {
		selector := labels.SelectorFromSet(nil)
		if sel != "" {
			var err error
			if selector, err = labels.Parse(sel); err != nil {
				panic(err)
			}
		}
		for _, ns := range append([]string{""}, namespaces...) {
			objs, err := r.list(ns, selector)
			out[fmt.Sprintf("list ns=%q selector=%q", ns, sel)] = render(objs, err)
		}
	}
	for _, ns := range namespaces {
		for _, name := range names {
			obj, err := r.get(ns, name)
			out["get "+ns+"/"+name] = render([]runtime.Object{obj}, err)
			obj, err = r.get("", ns+"/"+name)
			out["get by key "+ns+"/"+name] = render([]runtime.Object{obj}, err)
		}
	}
	return out
}

func render(objs []runtime.Object, err error) []string {
	out := []string{}
	if err != nil {
		return append(out, "error: "+err.Error())
	}
	for _, obj := range objs {
		out = append(out, keyAndRV(obj))
	}
	slices.Sort(out)
	return out
}

func keyAndRV(obj any) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("<%T>", obj)
	}
	k := m.GetName()
	if m.GetNamespace() != "" {
		k = m.GetNamespace() + "/" + k
	}
	return k + "@" + m.GetResourceVersion()
}

// recorder records a handler's calls and the state they add up to.
type recorder struct {
	mu      sync.Mutex
	calls   []string
	state   map[string]string
	changed chan struct{}
}

func newRecorder() *recorder {
	return &recorder{state: map[string]string{}, changed: make(chan struct{})}
}

func (r *recorder) OnAdd(obj any, initial bool) {
	line := "add " + keyAndRV(obj)
	if initial {
		line += " (initial list)"
	}
	r.record(line, obj, false)
}
func (r *recorder) OnUpdate(oldObj, newObj any) {
	r.record("update "+keyAndRV(oldObj)+" → "+keyAndRV(newObj), newObj, false)
}
func (r *recorder) OnDelete(obj any) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = d.Obj
	}
	r.record(fmt.Sprintf("delete %s (%T)", keyAndRV(obj), obj), obj, true)
}

func (r *recorder) record(line string, obj any, deleted bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, line)
	if m, err := meta.Accessor(obj); err == nil {
		k := m.GetNamespace() + "/" + m.GetName()
		if deleted {
			delete(r.state, k)
		} else {
			r.state[k] = m.GetResourceVersion()
		}
	}
	close(r.changed)
	r.changed = make(chan struct{})
}

// snapshot returns the calls, the initial list's adds sorted.
func (r *recorder) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := slices.Clone(r.calls)
	n := 0
	for n < len(out) && strings.HasSuffix(out[n], "(initial list)") {
		n++
	}
	slices.Sort(out[:n])
	return out
}

// waitForState waits until the handler's state is want, for up to 30s.
func (r *recorder) waitForState(want map[string]string) error {
	deadline := time.After(30 * time.Second)
	for {
		r.mu.Lock()
		same, changed := maps.Equal(r.state, want), r.changed
		r.mu.Unlock()
		if same {
			return nil
		}
		select {
		case <-changed:
		case <-deadline:
			r.mu.Lock()
			defer r.mu.Unlock()
			return fmt.Errorf("handler state %v, want %v", r.state, want)
		}
	}
}
