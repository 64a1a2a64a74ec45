// Mirrors k8s.io/client-go v0.37.2 tools/cache/controller.go: ResourceEventHandler,
// ResourceEventHandlerFuncs, ResourceEventHandlerDetailedFuncs,
// FilteringResourceEventHandler; and tools/cache/event_handler_name.go: nameForHandler.

package processor

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
)

// ResourceEventHandler is what a user registers to hear about changes. The
// calls are informational: a handler cannot return an error, and it must not
// modify the objects it receives (every handler and the cache share them).
//
//   - OnAdd: an object appeared. isInInitialList is true when it came from the
//     informer's initial list (or, for a handler added late, from the
//     synthetic list of what the cache already held), false for a later add.
//   - OnUpdate: an object changed, or a resync replayed it unchanged (then
//     oldObj and newObj have the same resourceVersion). oldObj is the last
//     state the cache knew: several changes may have been folded into one call.
//   - OnDelete: an object went away. obj is its last known state, or a
//     DeletedFinalStateUnknown tombstone when the delete was missed and only
//     noticed at a relist.
//
// Calls to one handler are sequential and in the order the processor received
// them; different handlers run concurrently and independently.
type ResourceEventHandler interface {
	OnAdd(obj any, isInInitialList bool)
	OnUpdate(oldObj, newObj any)
	OnDelete(obj any)
}

// ResourceEventHandlerFuncs adapts up to three plain functions to a
// ResourceEventHandler; a nil function means "ignore this kind of event". Its
// AddFunc does not see isInInitialList: use ResourceEventHandlerDetailedFuncs
// when the handler needs it.
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj any)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
}

// OnAdd calls AddFunc if it is set.
func (r ResourceEventHandlerFuncs) OnAdd(obj any, isInInitialList bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj)
	}
}

// OnUpdate calls UpdateFunc if it is set.
func (r ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj any) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if it is set.
func (r ResourceEventHandlerFuncs) OnDelete(obj any) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// ResourceEventHandlerDetailedFuncs is ResourceEventHandlerFuncs whose AddFunc
// also receives isInInitialList.
type ResourceEventHandlerDetailedFuncs struct {
	AddFunc    func(obj any, isInInitialList bool)
	UpdateFunc func(oldObj, newObj any)
	DeleteFunc func(obj any)
}

// OnAdd calls AddFunc if it is set.
func (r ResourceEventHandlerDetailedFuncs) OnAdd(obj any, isInInitialList bool) {
	if r.AddFunc != nil {
		r.AddFunc(obj, isInInitialList)
	}
}

// OnUpdate calls UpdateFunc if it is set.
func (r ResourceEventHandlerDetailedFuncs) OnUpdate(oldObj, newObj any) {
	if r.UpdateFunc != nil {
		r.UpdateFunc(oldObj, newObj)
	}
}

// OnDelete calls DeleteFunc if it is set.
func (r ResourceEventHandlerDetailedFuncs) OnDelete(obj any) {
	if r.DeleteFunc != nil {
		r.DeleteFunc(obj)
	}
}

// FilteringResourceEventHandler passes on only the objects FilterFunc accepts,
// and turns updates that cross the filter's edge into adds and deletes: an
// object that starts matching is an add for the inner Handler, one that stops
// matching is a delete. Like a handler, the filter must not modify objects.
type FilteringResourceEventHandler struct {
	FilterFunc func(obj any) bool
	Handler    ResourceEventHandler
}

// OnAdd calls the inner handler only if the object passes the filter.
func (r FilteringResourceEventHandler) OnAdd(obj any, isInInitialList bool) {
	if !r.FilterFunc(obj) {
		return
	}
	r.Handler.OnAdd(obj, isInInitialList)
}

// OnUpdate calls OnUpdate, OnAdd or OnDelete on the inner handler depending on
// which side of the filter the old and new objects are.
func (r FilteringResourceEventHandler) OnUpdate(oldObj, newObj any) {
	newer, older := r.FilterFunc(newObj), r.FilterFunc(oldObj)
	switch {
	case newer && older:
		r.Handler.OnUpdate(oldObj, newObj)
	case newer && !older:
		// isInInitialList is false: the object entered the filter's view
		// through a change, not through a list.
		r.Handler.OnAdd(newObj, false)
	case !newer && older:
		r.Handler.OnDelete(oldObj)
	}
}

// OnDelete calls the inner handler only if the object passes the filter.
func (r FilteringResourceEventHandler) OnDelete(obj any) {
	if !r.FilterFunc(obj) {
		return
	}
	r.Handler.OnDelete(obj)
}

// nameForHandler gives a handler a name for errors and for its HasSynced
// checker: the package-qualified function names for the Funcs adapters, all
// of them, and %T otherwise. Simpler than client-go's, which gives the Funcs
// adapters' common qualifier when their functions share one, and the package
// path with the type's name (a pointer's element's) for any other handler.
func nameForHandler(handler ResourceEventHandler) string {
	switch h := handler.(type) {
	case ResourceEventHandlerFuncs:
		return nameForFunctions(h.AddFunc, h.UpdateFunc, h.DeleteFunc)
	case *ResourceEventHandlerFuncs:
		return nameForFunctions(h.AddFunc, h.UpdateFunc, h.DeleteFunc)
	case ResourceEventHandlerDetailedFuncs:
		return nameForFunctions(h.AddFunc, h.UpdateFunc, h.DeleteFunc)
	}
	return fmt.Sprintf("%T", handler)
}

func nameForFunctions(fs ...any) string {
	var names []string
	for _, f := range fs {
		v := reflect.ValueOf(f)
		if v.Kind() != reflect.Func || v.IsNil() {
			continue
		}
		if fn := runtime.FuncForPC(v.Pointer()); fn != nil {
			names = append(names, fn.Name())
		}
	}
	if len(names) == 0 {
		return "ResourceEventHandlerFuncs{}"
	}
	return strings.Join(names, "+")
}
