package informer_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"
)

// call is one handler invocation as both sides record it.
type call struct {
	At      time.Duration // fake time since the scenario started
	Op      string        // add, update, delete
	Key     string        // namespace/name
	RV      string        // resourceVersion of the (new) object; "nil" for a tombstone without one
	OldRV   string        // for updates
	Initial bool          // isInInitialList, for adds
	// Tombstone marks a deletion delivered as DeletedFinalStateUnknown
	// (client-go's or ours).
	Tombstone bool
	// Fields counts the managedFields entries of the object: a transform
	// that drops them must leave 0 everywhere.
	Fields int
	// Cached is what the informer's cache held under Key when the call
	// began ("" when the recorder does not look): for a handler called in
	// line, it shows whether the cache was written first.
	Cached string
}

// String is the call without its time: what every comparison uses.
func (c call) String() string {
	s := fmt.Sprintf("%s %s rv=%s", c.Op, c.Key, c.RV)
	switch {
	case c.Op == "update" && c.RV == c.OldRV:
		s += " (sync)"
	case c.Op == "update":
		s += " old=" + c.OldRV
	}
	if c.Initial {
		s += " initial"
	}
	if c.Tombstone {
		s += " tombstone"
	}
	if c.Fields > 0 {
		s += fmt.Sprintf(" managedFields=%d", c.Fields)
	}
	if c.Cached != "" {
		s += " cache:" + c.Cached
	}
	return s
}

// recorder is a ResourceEventHandler for both client-go and ours (the
// interfaces have the same method set). It records each call, then sleeps
// for delay (a slow handler) or panics when panicOn says so.
type recorder struct {
	start   time.Time
	delay   time.Duration
	panicOn func(call) bool
	// cached, if set, reads the informer's cache for a key: rv, or absent.
	cached func(key string) string

	mu      sync.Mutex
	calls   []call
	changed chan struct{}
}

func newRecorder(start time.Time) *recorder {
	return &recorder{start: start, changed: make(chan struct{})}
}

func (r *recorder) record(c call) {
	c.At = time.Since(r.start)
	if r.cached != nil {
		c.Cached = r.cached(c.Key)
	}
	r.mu.Lock()
	r.calls = append(r.calls, c)
	close(r.changed)
	r.changed = make(chan struct{})
	r.mu.Unlock()
	if r.delay > 0 {
		time.Sleep(r.delay)
	}
	if r.panicOn != nil && r.panicOn(c) {
		panic(fmt.Sprintf("handler bug on %s", c))
	}
}

func (r *recorder) OnAdd(obj any, isInInitialList bool) {
	c := describeCall("add", obj)
	c.Initial = isInInitialList
	r.record(c)
}

func (r *recorder) OnUpdate(oldObj, newObj any) {
	c := describeCall("update", newObj)
	c.OldRV = describeCall("", oldObj).RV
	r.record(c)
}

func (r *recorder) OnDelete(obj any) { r.record(describeCall("delete", obj)) }

func (r *recorder) snapshot() []call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

// describeCall reads what a call carries, unwrapping either library's
// tombstone.
func describeCall(op string, obj any) call {
	c := call{Op: op}
	switch t := obj.(type) {
	case cache.DeletedFinalStateUnknown:
		c.Key, c.Tombstone, obj = t.Key, true, t.Obj
	case informer.DeletedFinalStateUnknown:
		c.Key, c.Tombstone, obj = t.Key, true, t.Obj
	}
	if obj == nil {
		c.RV = "nil"
		return c
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		c.RV = fmt.Sprintf("<%T>", obj)
		return c
	}
	if c.Key == "" {
		c.Key = m.GetNamespace() + "/" + m.GetName()
	}
	c.RV = m.GetResourceVersion()
	c.Fields = len(m.GetManagedFields())
	return c
}

// canonical renders calls for comparison. Inside a run of initial adds, or
// of sync updates, the order is that of a map in both libraries (the cache
// replayed to a late handler, a resync), so such runs are sorted; with
// times, the calls are sorted and the times kept in their order (a slow
// handler takes the replayed objects one after the other, whichever they
// are). Everything else keeps its order.
func canonical(calls []call, withTime bool) []string {
	unordered := func(c call) string {
		switch {
		case c.Op == "add" && c.Initial:
			return "initial"
		case c.Op == "update" && c.RV == c.OldRV:
			return "sync"
		}
		return ""
	}
	out := make([]string, 0, len(calls))
	for i := 0; i < len(calls); {
		kind := unordered(calls[i])
		j := i + 1
		for j < len(calls) && kind != "" && unordered(calls[j]) == kind && (!withTime || kind == "initial" || calls[j].At == calls[i].At) {
			j++
		}
		bodies := make([]string, 0, j-i)
		for _, c := range calls[i:j] {
			bodies = append(bodies, c.String())
		}
		slices.Sort(bodies)
		for k, body := range bodies {
			if withTime {
				body = fmt.Sprintf("%v %s", calls[i+k].At, body)
			}
			out = append(out, body)
		}
		i = j
	}
	return out
}

// join is a call list for a failure message.
func join(calls []string) string { return "\n  " + strings.Join(calls, "\n  ") }
