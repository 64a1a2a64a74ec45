package deltafifo

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
)

// keyResult is a key function's answer in comparable form.
type keyResult struct {
	Key, Err string
}

func keyOf(f func(interface{}) (string, error), obj interface{}) keyResult {
	k, err := f(obj)
	return keyResult{k, errString(err)}
}

func TestKeyFunctionsMatchClientGo(t *testing.T) {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}
	cases := []struct {
		name           string
		ours, clientGo interface{}
	}{
		{"namespaced object", newPod("a", 1), newPod("a", 1)},
		{"cluster-scoped object", node, node},
		{"explicit key", ExplicitKey("ns/a"), cache.ExplicitKey("ns/a")},
		{"object without metadata", noMeta{"x"}, noMeta{"x"}},
		{"nil", nil, nil},
		{"tombstone", DeletedFinalStateUnknown{Key: "ns/gone", Obj: newPod("gone", 1)},
			cache.DeletedFinalStateUnknown{Key: "ns/gone", Obj: newPod("gone", 1)}},
		{"tombstone without object", DeletedFinalStateUnknown{Key: "ns/gone"}, cache.DeletedFinalStateUnknown{Key: "ns/gone"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, fn := range []struct {
				name           string
				ours, clientGo func(interface{}) (string, error)
			}{
				{"MetaNamespaceKeyFunc", MetaNamespaceKeyFunc, cache.MetaNamespaceKeyFunc},
				{"DeletionHandlingMetaNamespaceKeyFunc", DeletionHandlingMetaNamespaceKeyFunc, cache.DeletionHandlingMetaNamespaceKeyFunc},
			} {
				want, got := keyOf(fn.clientGo, tc.clientGo), keyOf(fn.ours, tc.ours)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s differs (-client-go +ours):\n%s", fn.name, diff)
				}
			}
		})
	}
}

// TestTypedNilIsAnErrorNotAPanic covers a deliberate difference: client-go's
// MetaNamespaceKeyFunc panics on (*v1.Pod)(nil); ours says what is wrong.
func TestTypedNilIsAnErrorNotAPanic(t *testing.T) {
	var pod *corev1.Pod
	func() {
		defer func() {
			if recover() == nil {
				t.Errorf("client-go no longer panics on a typed nil: drop this difference from the chapter")
			}
		}()
		cache.MetaNamespaceKeyFunc(pod)
	}()
	for _, fn := range []func(interface{}) (string, error){MetaNamespaceKeyFunc, DeletionHandlingMetaNamespaceKeyFunc} {
		if _, err := fn(pod); err == nil || err.Error() != "object has no meta: it is a nil *v1.Pod" {
			t.Errorf("typed nil: got %v, want an error naming the type", err)
		}
	}
}

func TestSplitMetaNamespaceKeyMatchesClientGo(t *testing.T) {
	type split struct{ Namespace, Name, Err string }
	for _, key := range []string{"ns/a", "a", "", "/a", "ns/", "a/b/c"} {
		ns, name, err := cache.SplitMetaNamespaceKey(key)
		want := split{ns, name, errString(err)}
		ns, name, err = SplitMetaNamespaceKey(key)
		got := split{ns, name, errString(err)}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("SplitMetaNamespaceKey(%q) differs (-client-go +ours):\n%s", key, diff)
		}
	}
}

func TestKeyOfHandlesDeltasAndTombstonesLikeClientGo(t *testing.T) {
	ours := NewDeltaFIFOWithOptions(DeltaFIFOOptions{})
	cg := cache.NewDeltaFIFOWithOptions(cache.DeltaFIFOOptions{})
	cases := []struct {
		name           string
		ours, clientGo interface{}
	}{
		{"Deltas: the newest object's key",
			Deltas{{Added, newPod("a", 1)}, {Deleted, DeletedFinalStateUnknown{Key: "ns/b"}}},
			cache.Deltas{{Type: cache.Added, Object: newPod("a", 1)}, {Type: cache.Deleted, Object: cache.DeletedFinalStateUnknown{Key: "ns/b"}}}},
		{"empty Deltas: an error", Deltas{}, cache.Deltas{}},
		{"tombstone: its own key", DeletedFinalStateUnknown{Key: "ns/b"}, cache.DeletedFinalStateUnknown{Key: "ns/b"}},
		{"object without metadata", noMeta{"x"}, noMeta{"x"}},
	}
	for _, tc := range cases {
		want, got := keyOf(cg.KeyOf, tc.clientGo), keyOf(ours.KeyOf, tc.ours)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: KeyOf differs (-client-go +ours):\n%s", tc.name, diff)
		}
	}
}

func TestKeyErrorUnwraps(t *testing.T) {
	_, err := NewDeltaFIFOWithOptions(DeltaFIFOOptions{}).KeyOf(Deltas{})
	if !errors.Is(err, ErrZeroLengthDeltasObject) {
		t.Errorf("KeyOf(empty Deltas) = %v; want an error wrapping ErrZeroLengthDeltasObject", err)
	}
	var ke KeyError
	if !errors.As(err, &ke) {
		t.Errorf("KeyOf(empty Deltas) = %T; want a KeyError", err)
	}
}
