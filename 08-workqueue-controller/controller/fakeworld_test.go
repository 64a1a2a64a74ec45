package controller_test

import (
	"fmt"
	"reflect"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"informer-from-scratch/internal/crd"
)

// fakeWorld is a pair of fake clients (kubernetes and dynamic) that behave
// enough like an apiserver for a controller: creates get a UID, a
// resourceVersion and generation 1; updates bump the resourceVersion,
// refuse a stale one (409 Conflict), keep the status on a main-resource
// update and the spec on a /status update, and bump the generation only
// when the spec changed. client-go's fake tracker does none of that (its
// objects keep the resourceVersion the caller gave, usually none), and a
// controller that skips resyncs by comparing resourceVersions, as
// sample-controller's does, would skip every update.
//
// Failures can be injected per verb and resource: the next n requests
// fail with a 500. A panic can be injected in the create of one object: the
// fake client panics on the goroutine that called it, as a buggy client
// or a nil map in a reconcile would.
type fakeWorld struct {
	kube *kubefake.Clientset
	dyn  *dynamicfake.FakeDynamicClient

	mu       sync.Mutex
	rv, uid  int
	failures map[string]int // "create deployments" → how many more fail
	panics   map[string]int // "create deployments a-web" → how many more panic
}

func newFakeWorld(objects ...runtime.Object) *fakeWorld {
	w := &fakeWorld{failures: map[string]int{}, panics: map[string]int{}}
	w.kube = kubefake.NewSimpleClientset()
	w.dyn = dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{crd.Foo.GVR(): "FooList"})
	w.kube.PrependReactor("*", "*", w.react(w.kube.Tracker()))
	w.dyn.PrependReactor("*", "*", w.react(w.dyn.Tracker()))
	for _, obj := range objects {
		var err error
		if u, ok := obj.(*unstructured.Unstructured); ok {
			_, err = w.dyn.Invokes(clienttesting.NewCreateAction(crd.Foo.GVR(), u.GetNamespace(), u), nil)
		} else {
			m, _ := meta.Accessor(obj)
			_, err = w.kube.Invokes(clienttesting.NewCreateAction(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, m.GetNamespace(), obj), nil)
		}
		if err != nil {
			panic(err)
		}
	}
	return w
}

// fail makes the next n requests of verb on resource fail.
func (w *fakeWorld) fail(verb, resource string, n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.failures[verb+" "+resource] = n
}

// panicOn makes the next n creates of the object of resource called name
// panic.
func (w *fakeWorld) panicOn(resource, name string, n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.panics["create "+resource+" "+name] = n
}

// react is the reactor placed before the tracker's own.
func (w *fakeWorld) react(tracker clienttesting.ObjectTracker) clienttesting.ReactionFunc {
	return func(action clienttesting.Action) (bool, runtime.Object, error) {
		w.mu.Lock()
		defer w.mu.Unlock()
		failKey := action.GetVerb() + " " + action.GetResource().Resource
		if action.GetSubresource() != "" {
			failKey += "/" + action.GetSubresource()
		}
		if w.failures[failKey] > 0 {
			w.failures[failKey]--
			return true, nil, apierrors.NewInternalError(fmt.Errorf("%w: %s", errInjected, failKey))
		}
		switch a := action.(type) {
		case clienttesting.CreateActionImpl:
			if a.GetSubresource() != "" {
				return false, nil, nil
			}
			obj := a.GetObject().DeepCopyObject()
			m, err := meta.Accessor(obj)
			if err != nil {
				return true, nil, err
			}
			if panicKey := failKey + " " + m.GetName(); w.panics[panicKey] > 0 {
				w.panics[panicKey]--
				panic("injected panic: " + panicKey)
			}
			w.uid++
			w.rv++
			m.SetUID(types.UID(fmt.Sprintf("uid-%d", w.uid)))
			m.SetResourceVersion(fmt.Sprint(w.rv))
			m.SetGeneration(1)
			if err := tracker.Create(a.GetResource(), obj, a.GetNamespace()); err != nil {
				return true, nil, err
			}
			return true, obj.DeepCopyObject(), nil
		case clienttesting.UpdateActionImpl:
			obj, err := w.update(tracker, a)
			return true, obj, err
		}
		return false, nil, nil
	}
}

// update applies an update with the apiserver's rules for resourceVersion,
// generation and the status subresource.
func (w *fakeWorld) update(tracker clienttesting.ObjectTracker, a clienttesting.UpdateActionImpl) (runtime.Object, error) {
	newMeta, err := meta.Accessor(a.GetObject())
	if err != nil {
		return nil, err
	}
	stored, err := tracker.Get(a.GetResource(), a.GetNamespace(), newMeta.GetName())
	if err != nil {
		return nil, err
	}
	storedMeta, _ := meta.Accessor(stored)
	if rv := newMeta.GetResourceVersion(); rv != "" && rv != storedMeta.GetResourceVersion() {
		return nil, apierrors.NewConflict(a.GetResource().GroupResource(), newMeta.GetName(),
			fmt.Errorf("the object has been modified; please apply your changes to the latest version and try again"))
	}
	oldMap, err := runtime.DefaultUnstructuredConverter.ToUnstructured(stored)
	if err != nil {
		return nil, err
	}
	newMap, err := runtime.DefaultUnstructuredConverter.ToUnstructured(a.GetObject())
	if err != nil {
		return nil, err
	}
	var result map[string]any
	if a.GetSubresource() == "status" {
		result = oldMap
		result["status"] = newMap["status"]
	} else {
		result = newMap
		result["status"] = oldMap["status"]
		generation := storedMeta.GetGeneration()
		if !reflect.DeepEqual(oldMap["spec"], newMap["spec"]) {
			generation++
		}
		unstructured.SetNestedField(result, generation, "metadata", "generation")
	}
	if result["status"] == nil {
		delete(result, "status")
	}
	w.rv++
	unstructured.SetNestedField(result, fmt.Sprint(w.rv), "metadata", "resourceVersion")
	unstructured.SetNestedField(result, string(storedMeta.GetUID()), "metadata", "uid")

	obj := stored.DeepCopyObject()
	if u, ok := obj.(*unstructured.Unstructured); ok {
		u.Object = result
	} else {
		// Reset the typed object before filling it: FromUnstructured does not
		// clear fields the map lacks.
		v := reflect.ValueOf(obj).Elem()
		v.Set(reflect.Zero(v.Type()))
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(result, obj); err != nil {
			return nil, err
		}
	}
	if err := tracker.Update(a.GetResource(), obj, a.GetNamespace()); err != nil {
		return nil, err
	}
	return obj.DeepCopyObject(), nil
}
