// Ours: client-go has no counterpart. Its queues index items in maps, so an
// item whose dynamic type is not comparable panics there ("hash of unhashable
// type"); ours refuses it with an error instead, at the ways in: Add,
// AddAfter and AddRateLimited. Everything else takes items Get handed out.

package workqueue

import (
	"fmt"
	"reflect"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
)

// itemCheck refuses items that cannot be map keys. The compiler already
// rejects most: T must be comparable. What it lets through is an interface
// (T = any, or a struct or array holding one) whose value at run time is a
// slice, a map, a func, or a struct holding one, such as a corev1.Pod by
// value. That is the classic mistake of queueing objects instead of keys, so
// the error says what to queue instead.
type itemCheck[T comparable] struct {
	// needed is false for types whose values are always hashable (string,
	// int, pointers, structs of those...), so checking them costs nothing.
	needed bool
}

func newItemCheck[T comparable]() itemCheck[T] {
	return itemCheck[T]{needed: mayHoldInterface(reflect.TypeFor[T]())}
}

// mayHoldInterface reports whether a value of t can hold an interface, the
// only way a comparable type can carry an unhashable value.
func mayHoldInterface(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Array:
		return mayHoldInterface(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if mayHoldInterface(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// refused reports whether item cannot be queued, and reports why through
// utilruntime.HandleError (klog by default).
func (c itemCheck[T]) refused(item T) bool {
	if !c.needed {
		return false
	}
	if err := checkHashable(item); err != nil {
		utilruntime.HandleError(err)
		return true
	}
	return false
}

// checkHashable returns an error naming item's type if item cannot be a map
// key.
func checkHashable[T comparable](item T) error {
	v := reflect.ValueOf(&item).Elem()
	if v.Comparable() {
		return nil
	}
	return fmt.Errorf("workqueue: refusing an item of type %T: its value is not comparable, so the queue cannot tell one copy from another (queue a key such as \"namespace/name\" instead of the object)", item)
}
