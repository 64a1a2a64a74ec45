package chaos

import (
	"fmt"
	"maps"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
)

// A View is one handler's idea of the server: the objects (key →
// resourceVersion) its adds, updates and deletes describe, applied in the
// order it received them. It implements the ResourceEventHandler method
// set, which client-go's and ours share, so one View serves either
// library; Tombstone unwraps that library's DeletedFinalStateUnknown.
type View struct {
	Name string
	// Delay makes a slow handler: each call sleeps this long.
	Delay time.Duration
	// PanicOnBoom makes a buggy handler: an update whose new object is
	// labelled boom=true panics, after the View has recorded it (the
	// update was received; what the handler did with it is its bug).
	PanicOnBoom bool
	// Tombstone returns the key and last known object of a
	// DeletedFinalStateUnknown, and ok=false for anything else.
	Tombstone func(obj any) (key string, last any, ok bool)

	mu      sync.Mutex
	objects map[string]string // nil until the first call
	counts  Delivered
}

// Delivered counts what a View received.
type Delivered struct {
	Adds, Updates, Deletes, Tombstones, Panics int
	// Errors are calls the View could not read (not an object): a wrong
	// type that reached a handler.
	Errors []string
	// Broken are calls that contradict the calls before them: an add of a
	// key the handler already holds (it never heard of that object's
	// deletion: a lost delete, even when the name came back), an update or
	// a delete of a key it does not hold.
	Broken []string
}

// Total is every call.
func (d Delivered) Total() int { return d.Adds + d.Updates + d.Deletes + d.Tombstones }

func (v *View) OnAdd(obj any, _ bool) {
	v.apply(obj, func(key, rv string) {
		v.expect(key, false, "add of a key it holds at rv "+v.objects[key]+" (a lost delete)")
		v.objects[key] = rv
		v.counts.Adds++
	})
	v.after(obj, false)
}

func (v *View) OnUpdate(_, newObj any) {
	v.apply(newObj, func(key, rv string) {
		v.expect(key, true, "update of a key it does not hold")
		v.objects[key] = rv
		v.counts.Updates++
	})
	v.after(newObj, true)
}

func (v *View) OnDelete(obj any) {
	if key, _, ok := v.Tombstone(obj); ok {
		v.mu.Lock()
		v.expect(key, true, "tombstone for a key it does not hold")
		delete(v.objects, key)
		v.counts.Tombstones++
		v.mu.Unlock()
	} else {
		v.apply(obj, func(key, _ string) {
			v.expect(key, true, "delete of a key it does not hold")
			delete(v.objects, key)
			v.counts.Deletes++
		})
	}
	v.after(nil, false)
}

// expect records a broken call unless the View holds key exactly when
// held; v.mu is held.
func (v *View) expect(key string, held bool, broken string) {
	if _, ok := v.objects[key]; ok != held {
		v.counts.Broken = append(v.counts.Broken, key+": "+broken)
	}
}

func (v *View) apply(obj any, do func(key, rv string)) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.objects == nil {
		v.objects = map[string]string{}
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		v.counts.Errors = append(v.counts.Errors, fmt.Sprintf("%T: %v", obj, err))
		return
	}
	do(m.GetNamespace()+"/"+m.GetName(), m.GetResourceVersion())
}

// after is what makes the handler slow or buggy.
func (v *View) after(obj any, update bool) {
	if v.Delay > 0 {
		time.Sleep(v.Delay)
	}
	if !v.PanicOnBoom || !update {
		return
	}
	if m, err := meta.Accessor(obj); err == nil && m.GetLabels()["boom"] == "true" {
		v.mu.Lock()
		v.counts.Panics++
		v.mu.Unlock()
		panic(fmt.Sprintf("chaos: handler %s's bug, on %s/%s at rv %s", v.Name, m.GetNamespace(), m.GetName(), m.GetResourceVersion()))
	}
}

// Objects returns a copy of the View's objects.
func (v *View) Objects() map[string]string {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := maps.Clone(v.objects)
	if out == nil {
		out = map[string]string{}
	}
	return out
}

// Delivered returns a copy of the counts.
func (v *View) Delivered() Delivered {
	v.mu.Lock()
	defer v.mu.Unlock()
	d := v.counts
	d.Errors = append([]string(nil), d.Errors...)
	d.Broken = append([]string(nil), d.Broken...)
	return d
}
