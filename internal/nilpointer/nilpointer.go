// Not a mirror of client-go: a helper for the stages that refuse what
// client-go would accept and crash on later (a typed nil handler) or must
// not call (a typed nil object's methods).

// Package nilpointer tells a typed nil pointer in an interface apart: an
// interface value that is not nil, holding a nil pointer, whose methods
// would dereference it. Stage 03's key function refuses such an object,
// stage 05's listener and stage 06's typed informer refuse such a handler,
// stage 06's unshared informer takes one as no handler, stage 06's observe
// package does not ask such an object its resourceVersion, and stage 07
// refuses such a clientset.
package nilpointer

import "reflect"

// Is reports whether v holds a nil pointer. A nil interface is not one:
// compare it with nil first.
func Is(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && rv.IsNil()
}
