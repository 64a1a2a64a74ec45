package main

import (
	"fmt"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

// handler is one of the demo's three event handlers. Each prints a row when
// a call starts (so the slow one's rows show when it got round to each
// notification), then takes delay to "process" it.
type handler struct {
	name  string
	delay time.Duration
	tl    *timeline.Timeline
	calls atomic.Int64 // calls finished
}

func (h *handler) OnAdd(obj any, isInInitialList bool) {
	detail := rv(obj)
	if isInInitialList {
		detail += " isInInitialList=true"
	}
	h.call("OnAdd", obj, detail)
}

func (h *handler) OnUpdate(oldObj, newObj any) {
	if rv(oldObj) == rv(newObj) {
		h.call("OnUpdate", newObj, rv(newObj), sayReplayed)
		return
	}
	h.call("OnUpdate", newObj, rv(oldObj)+" → "+rv(newObj))
}

func (h *handler) OnDelete(obj any) { h.call("OnDelete", obj, rv(obj)) }

func (h *handler) call(what string, obj any, detail string, why ...lang.Text) {
	name := fmt.Sprintf("%T", obj)
	if m, ok := obj.(metav1.Object); ok {
		name = m.GetNamespace() + "/" + m.GetName()
	}
	h.tl.Event(h.name, what, name, detail, why...)
	time.Sleep(h.delay)
	h.calls.Add(1)
}

func rv(obj any) string {
	if m, ok := obj.(metav1.Object); ok {
		return "rv=" + m.GetResourceVersion()
	}
	return "rv=?"
}
