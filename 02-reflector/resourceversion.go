// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go:
// LastSyncResourceVersion, setLastSyncResourceVersion, relistResourceVersion,
// rewatchResourceVersion and setIsLastSyncResourceVersionUnavailable.

package reflector

import (
	"math/rand/v2"
	"sync"

	"k8s.io/utils/ptr"
)

// resourceVersionState is where the reflector is in the resource's history.
type resourceVersionState struct {
	mu sync.RWMutex
	// last is the resourceVersion of the last LIST, WatchList bookmark or
	// watch event the reflector delivered: the point a new watch or list
	// must continue from so nothing is missed and nothing goes back in time.
	last string
	// unavailable is set when a request at last failed with "expired" (410)
	// or "too large": the server cannot serve that point any more (or yet),
	// so the next request asks for the newest data instead.
	unavailable bool
}

// LastSyncResourceVersion is the resourceVersion the store was last brought
// up to. It is safe to call at any time, but not synchronized with the
// store: the store may already hold newer objects.
func (r *Reflector) LastSyncResourceVersion() string {
	r.rv.mu.RLock()
	defer r.rv.mu.RUnlock()
	return r.rv.last
}

func (r *Reflector) setLastSyncResourceVersion(v string) {
	r.rv.mu.Lock()
	defer r.rv.mu.Unlock()
	r.rv.last = v
}

func (r *Reflector) setIsLastSyncResourceVersionUnavailable(unavailable bool) {
	r.rv.mu.Lock()
	defer r.rv.mu.Unlock()
	r.rv.unavailable = unavailable
}

// relistResourceVersion is the resourceVersion of the next LIST:
//   - "0" the first time: "any data you have", which the watch cache serves
//     from memory without touching etcd;
//   - the last synced resourceVersion on a relist: "at least this new", so a
//     reflector never goes back in time, even if it reaches an apiserver
//     whose cache lags behind the one it was talking to;
//   - "" once that resourceVersion was reported expired or too large: a
//     consistent (quorum) read of the newest data from etcd.
//
//lab:02
func (r *Reflector) relistResourceVersion() string {
	r.rv.mu.RLock()
	defer r.rv.mu.RUnlock()
	if r.rv.unavailable {
		return ""
	}
	if r.rv.last == "" {
		return "0"
	}
	return r.rv.last
}

// rewatchResourceVersion is the resourceVersion of the next WatchList
// request: the last synced one ("" the first time, the newest data), or ""
// once it was reported expired or too large.
func (r *Reflector) rewatchResourceVersion() string {
	r.rv.mu.RLock()
	defer r.rv.mu.RUnlock()
	if r.rv.unavailable {
		return ""
	}
	return r.rv.last
}

// watchTimeout draws the timeoutSeconds of one watch request from
// [minWatchTimeout, maxWatchTimeout).
func (r *Reflector) watchTimeout() *int64 {
	lo, hi := r.minWatchTimeout.Seconds(), r.maxWatchTimeout.Seconds()
	return ptr.To(int64(lo + rand.Float64()*(hi-lo)))
}
