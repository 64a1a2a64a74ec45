package processor

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
)

// call is one handler invocation as both sides record it.
type call struct {
	At      time.Duration // fake time since the scenario started
	Op      string        // add, update, delete
	Key     string        // namespace/name
	RV      string        // resourceVersion of the (new) object
	OldRV   string        // for updates
	Initial bool          // isInInitialList, for adds
}

func (c call) String() string {
	s := fmt.Sprintf("%v %s %s rv=%s", c.At, c.Op, c.Key, c.RV)
	if c.Op == "update" {
		s += " old=" + c.OldRV
	}
	if c.Initial {
		s += " initial"
	}
	return s
}

// isResync: an update whose old and new objects have the same
// resourceVersion is a replay of the cache.
func (c call) isResync() bool { return c.Op == "update" && c.RV == c.OldRV }

// recorder is a ResourceEventHandler for both client-go and ours (the
// interfaces have the same method set). It records each call and then
// sleeps for delay, which makes it a slow handler.
type recorder struct {
	start time.Time
	delay time.Duration
	// panicOn, if set, makes the handler panic (after recording) on the
	// calls it matches.
	panicOn func(call) bool

	mu    sync.Mutex
	calls []call
}

func newRecorder(start time.Time, delay time.Duration) *recorder {
	return &recorder{start: start, delay: delay}
}

func (r *recorder) record(c call) {
	c.At = time.Since(r.start)
	r.mu.Lock()
	r.calls = append(r.calls, c)
	r.mu.Unlock()
	if r.delay > 0 {
		time.Sleep(r.delay)
	}
	if r.panicOn != nil && r.panicOn(c) {
		panic(fmt.Sprintf("handler bug on %s", c))
	}
}

func (r *recorder) OnAdd(obj any, isInInitialList bool) {
	r.record(call{Op: "add", Key: keyOf(obj), RV: rvOf(obj), Initial: isInInitialList})
}

func (r *recorder) OnUpdate(oldObj, newObj any) {
	r.record(call{Op: "update", Key: keyOf(newObj), RV: rvOf(newObj), OldRV: rvOf(oldObj)})
}

func (r *recorder) OnDelete(obj any) {
	r.record(call{Op: "delete", Key: keyOf(obj), RV: rvOf(obj)})
}

func (r *recorder) snapshot() []call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.calls)
}

func keyOf(obj any) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("<%T>", obj)
	}
	if m.GetNamespace() == "" {
		return m.GetName()
	}
	return m.GetNamespace() + "/" + m.GetName()
}

func rvOf(obj any) string {
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	return m.GetResourceVersion()
}

// canonical makes two call sequences comparable where client-go leaves the
// order unspecified. An initial list, a late handler's replay of the cache
// and a resync all walk a map (the LIST of FakeControllerSource, the
// indexer), so the order between objects inside one such burst varies from
// run to run. Within each burst the objects are sorted by key while the times
// stay in delivery order. A burst is a run of initial adds, or of resync
// updates, in which no key repeats (a repeated key starts the next burst: two
// resyncs in a row). Everything else, including the time of every call, must
// match exactly.
func canonical(calls []call) []string {
	out := slices.Clone(calls)
	kind := func(c call) string {
		switch {
		case c.Op == "add" && c.Initial:
			return "initial"
		case c.isResync():
			return "resync"
		}
		return ""
	}
	for i := 0; i < len(out); {
		k := kind(out[i])
		seen := map[string]bool{out[i].Key: true}
		j := i + 1
		for j < len(out) && k != "" && kind(out[j]) == k && !seen[out[j].Key] {
			seen[out[j].Key] = true
			j++
		}
		burst := slices.Clone(out[i:j])
		slices.SortStableFunc(burst, func(a, b call) int { return strings.Compare(a.Key, b.Key) })
		for n := range burst {
			burst[n].At = out[i+n].At // times keep the delivery order
		}
		copy(out[i:j], burst)
		i = j
	}
	lines := make([]string, len(out))
	for i, c := range out {
		lines[i] = c.String()
	}
	return lines
}
