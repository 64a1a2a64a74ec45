// Mirrors k8s.io/client-go v0.37.2 tools/cache/store.go (KeyFunc, KeyError,
// ExplicitKey, MetaNamespaceKeyFunc, SplitMetaNamespaceKey), controller.go
// (DeletionHandlingMetaNamespaceKeyFunc) and delta_fifo.go
// (DeletedFinalStateUnknown).
//
// They live in stage 03 because the DeltaFIFO is the first layer that keys
// objects; stage 04's Indexer imports them from here.

package deltafifo

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"

	"informer-from-scratch/internal/nilpointer"
)

// KeyFunc makes the key a queue or a store files an object under. It must be
// deterministic: the same object always gets the same key.
type KeyFunc func(obj interface{}) (string, error)

// KeyError is returned whenever a KeyFunc fails; it carries the object at
// fault so the error says which one.
type KeyError struct {
	Obj interface{}
	Err error
}

func (k KeyError) Error() string {
	return fmt.Sprintf("couldn't create key for object %+v: %v", k.Obj, k.Err)
}

func (k KeyError) Unwrap() error { return k.Err }

// ExplicitKey is a key standing in for an object: MetaNamespaceKeyFunc
// returns it as is. It lets a caller delete by key when only the key is
// known.
type ExplicitKey string

// MetaNamespaceKeyFunc is the default key: "namespace/name", or just "name"
// for cluster-scoped objects. Unlike client-go's, it returns an error for a
// typed nil pointer instead of panicking.
func MetaNamespaceKeyFunc(obj interface{}) (string, error) {
	if key, ok := obj.(ExplicitKey); ok {
		return string(key), nil
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", fmt.Errorf("object has no meta: %v", err)
	}
	// A typed nil such as (*v1.Pod)(nil) passes meta.Accessor, and reading
	// its name would panic. client-go panics here; we return an error.
	if nilpointer.Is(m) {
		return "", fmt.Errorf("object has no meta: it is a nil %T", obj)
	}
	if ns := m.GetNamespace(); ns != "" {
		return ns + "/" + m.GetName(), nil
	}
	return m.GetName(), nil
}

// DeletionHandlingMetaNamespaceKeyFunc is MetaNamespaceKeyFunc that also
// accepts the tombstone a DeltaFIFO hands out for a deletion it did not see,
// using the key the tombstone carries. Event handlers' DeleteFuncs use it.
func DeletionHandlingMetaNamespaceKeyFunc(obj interface{}) (string, error) {
	if d, ok := obj.(DeletedFinalStateUnknown); ok {
		return d.Key, nil
	}
	return MetaNamespaceKeyFunc(obj)
}

// SplitMetaNamespaceKey undoes MetaNamespaceKeyFunc.
func SplitMetaNamespaceKey(key string) (namespace, name string, err error) {
	parts := strings.Split(key, "/")
	switch len(parts) {
	case 1:
		return "", parts[0], nil
	case 2:
		return parts[0], parts[1], nil
	}
	return "", "", fmt.Errorf("unexpected key format: %q", key)
}

// DeletedFinalStateUnknown is a tombstone: the object was deleted while the
// watch was down, and the deletion was only noticed when a relist no longer
// contained it. Obj is the last state we knew, which may be stale.
type DeletedFinalStateUnknown struct {
	Key string
	Obj interface{}
}
