package processor

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	deltafifo "informer-from-scratch/03-deltafifo"
)

// deletedNames is what a typed OnDelete can learn about the object, in a
// form both implementations produce.
type deletedNames struct {
	ObjectName, Key, Name, Namespace string
}

func TestDeletedObjectNamesMatchClientGo(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web"}}
	node := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "cluster-scoped"}}
	cases := []struct {
		name string
		obj  *corev1.Pod
		// tombstone, if not nil, is the key of a tombstone holding obj.
		tombstone *string
	}{
		{"namespaced object", pod, nil},
		{"cluster-scoped object", node, nil},
		{"nil object, no tombstone", nil, nil},
		{"tombstone with its object", pod, ptrTo("ns/web")},
		{"tombstone without an object", nil, ptrTo("ns/web")},
		{"tombstone of a cluster-scoped object", nil, ptrTo("cluster-scoped")},
		{"tombstone whose key has two slashes", nil, ptrTo("a/b/c")},
		{"tombstone whose key disagrees with its object", pod, ptrTo("other/name")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ours := DeletedObject[*corev1.Pod]{OptionalObj: tc.obj}
			theirs := cache.DeletedObject[*corev1.Pod]{OptionalObj: tc.obj}
			if tc.tombstone != nil {
				ours.FinalStateUnknown = &deltafifo.DeletedFinalStateUnknown{Key: *tc.tombstone, Obj: tc.obj}
				theirs.FinalStateUnknown = &cache.DeletedFinalStateUnknown{Key: *tc.tombstone, Obj: tc.obj}
			}
			want := deletedNames{theirs.GetObjectName().String(), theirs.GetKey(), theirs.GetName(), theirs.GetNamespace()}
			got := deletedNames{ours.GetObjectName().String(), ours.GetKey(), ours.GetName(), ours.GetNamespace()}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-client-go +ours):\n%s", diff)
			}
		})
	}
}

func TestObjectNameMatchesClientGo(t *testing.T) {
	for _, key := range []string{"ns/name", "name", "", "a/b/c", "/name", "ns/"} {
		ours, ourErr := deltafifo.ParseObjectName(key)
		theirs, theirErr := cache.ParseObjectName(key)
		got := fmt.Sprintf("%s %q %q err=%v", ours, ours.Namespace, ours.Name, ourErr != nil)
		want := fmt.Sprintf("%s %q %q err=%v", theirs, theirs.Namespace, theirs.Name, theirErr != nil)
		if got != want {
			t.Errorf("ParseObjectName(%q): client-go %s, ours %s", key, want, got)
		}
		ns, name := ours.Parts()
		if deltafifo.NewObjectName(ns, name) != ours {
			t.Errorf("NewObjectName(Parts()) of %q is not the same name", key)
		}
	}
}

// typedRecorder records a typed handler's calls, the same way for both
// implementations.
type typedRecorder struct{ calls []string }

func (r *typedRecorder) add(obj *corev1.Pod, initial bool) {
	r.calls = append(r.calls, fmt.Sprintf("add %s initial=%v", obj.Name, initial))
}
func (r *typedRecorder) update(oldObj, newObj *corev1.Pod) {
	r.calls = append(r.calls, fmt.Sprintf("update %s→%s", oldObj.Labels["app"], newObj.Labels["app"]))
}
func (r *typedRecorder) delete(key string, obj *corev1.Pod, tombstone bool) {
	app := "<no object>"
	if obj != nil {
		app = obj.Labels["app"]
	}
	r.calls = append(r.calls, fmt.Sprintf("delete %s (%s) tombstone=%v", key, app, tombstone))
}

// TestTypedFilteringHandlerMatchesClientGo drives both typed filtering
// handlers (around detailed funcs) with the same calls: adds, updates into,
// inside and out of the filter, and deletions of known objects and of
// tombstones, with and without an object.
func TestTypedFilteringHandlerMatchesClientGo(t *testing.T) {
	web := func(name, app string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{"app": app}}}
	}
	isWeb := func(p *corev1.Pod) bool { return p != nil && p.Labels["app"] == "web" }

	var theirs, ours typedRecorder
	cg := cache.TypedFilteringResourceEventHandler[*corev1.Pod]{FilterFunc: isWeb, Handler: cache.TypedResourceEventHandlerDetailedFuncs[*corev1.Pod]{
		AddFunc:    theirs.add,
		UpdateFunc: theirs.update,
		DeleteFunc: func(d cache.DeletedObject[*corev1.Pod]) {
			theirs.delete(d.GetKey(), d.OptionalObj, d.FinalStateUnknown != nil)
		},
	}}
	our := TypedFilteringResourceEventHandler[*corev1.Pod]{FilterFunc: isWeb, Handler: TypedResourceEventHandlerDetailedFuncs[*corev1.Pod]{
		AddFunc:    ours.add,
		UpdateFunc: ours.update,
		DeleteFunc: func(d DeletedObject[*corev1.Pod]) { ours.delete(d.GetKey(), d.OptionalObj, d.FinalStateUnknown != nil) },
	}}

	cg.OnAdd(web("a", "web"), true)
	our.OnAdd(web("a", "web"), true)
	cg.OnAdd(web("b", "db"), false)
	our.OnAdd(web("b", "db"), false)
	for _, u := range [][2]string{{"web", "web"}, {"db", "web"}, {"web", "db"}, {"db", "db"}} {
		cg.OnUpdate(web("c", u[0]), web("c", u[1]))
		our.OnUpdate(web("c", u[0]), web("c", u[1]))
	}
	cg.OnDelete(cache.DeletedObject[*corev1.Pod]{OptionalObj: web("d", "web")})
	our.OnDelete(DeletedObject[*corev1.Pod]{OptionalObj: web("d", "web")})
	cg.OnDelete(cache.DeletedObject[*corev1.Pod]{OptionalObj: web("e", "web"), FinalStateUnknown: &cache.DeletedFinalStateUnknown{Key: "ns/e", Obj: web("e", "web")}})
	our.OnDelete(DeletedObject[*corev1.Pod]{OptionalObj: web("e", "web"), FinalStateUnknown: &deltafifo.DeletedFinalStateUnknown{Key: "ns/e", Obj: web("e", "web")}})
	// A tombstone without an object: the filter sees a nil pod.
	cg.OnDelete(cache.DeletedObject[*corev1.Pod]{FinalStateUnknown: &cache.DeletedFinalStateUnknown{Key: "ns/f"}})
	our.OnDelete(DeletedObject[*corev1.Pod]{FinalStateUnknown: &deltafifo.DeletedFinalStateUnknown{Key: "ns/f"}})

	if len(theirs.calls) == 0 {
		t.Fatal("client-go's handler was never called: the scenario is wrong")
	}
	if diff := cmp.Diff(theirs.calls, ours.calls); diff != "" {
		t.Errorf("calls (-client-go +ours):\n%s", diff)
	}
}

// TestTypedFuncsIgnoreMissingFunctions: a TypedResourceEventHandlerFuncs
// with no functions set, like client-go's, ignores every call.
func TestTypedFuncsIgnoreMissingFunctions(t *testing.T) {
	var h TypedResourceEventHandler[*corev1.Pod] = TypedResourceEventHandlerFuncs[*corev1.Pod]{}
	h.OnAdd(&corev1.Pod{}, true)
	h.OnUpdate(&corev1.Pod{}, &corev1.Pod{})
	h.OnDelete(DeletedObject[*corev1.Pod]{})
	h = TypedResourceEventHandlerDetailedFuncs[*corev1.Pod]{}
	h.OnAdd(&corev1.Pod{}, true)
	h.OnUpdate(&corev1.Pod{}, &corev1.Pod{})
	h.OnDelete(DeletedObject[*corev1.Pod]{})
}

func ptrTo[T any](v T) *T { return &v }
