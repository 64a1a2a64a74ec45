package chaos

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/reqlog"
	"informer-from-scratch/internal/timeline"
)

// controllerState is what RunController keeps about one side.
type controllerState struct {
	side ControllerSide
	ns   string
	rec  *reqlog.Recorder
	tl   *timeline.Timeline

	started atomic.Bool
	// lastWord is set when the last word's 500s are armed; from then on
	// due is when the latest retry scheduled falls due (UnixNano), and
	// lastWordWait the longest delay the rate limiter gave.
	lastWord                               atomic.Bool
	due, lastWordWait                      atomic.Int64
	mu                                     sync.Mutex
	succeeded                              map[string]bool // key → whether its last reconcile did
	reconciles, failed, requeues, mostWait atomic.Int64
	lists, watches, writes                 atomic.Int64

	runErr error
	// converged and took are the last convergence's (the last word's, if
	// there was one); convergedFirst and tookFirst the storm's.
	converged, convergedFirst bool
	took, tookFirst           time.Duration
	last                      FooWorld
	readErr                   error
}

func newControllerState(s ControllerSide, ns string, tl *timeline.Timeline) *controllerState {
	st := &controllerState{side: s, ns: ns, tl: tl, succeeded: map[string]bool{}}
	st.rec = &reqlog.Recorder{OnRequest: func(r reqlog.Request) {
		kind := classify(r)
		switch kind {
		case "LIST":
			st.lists.Add(1)
		case "WATCH":
			st.watches.Add(1)
		default:
			st.writes.Add(1)
		}
		if tl != nil && kind != "" {
			tl.Event(s.Name(), kind, resourceOfPath(r.Path), shortQuery(r))
		}
	}}
	return st
}

// observe is the controller's Tracer's Observer: it counts, and puts each failed
// reconcile on the timeline.
func (st *controllerState) observe(s observe.Step) {
	switch {
	case s.Layer == observe.LayerController && s.Op == "Synced":
		st.started.Store(true)
	case s.Layer == observe.LayerWorker && s.Op == "sync":
		st.reconciles.Add(1)
	case s.Layer == observe.LayerWorker && s.Op == "synced":
		st.setSucceeded(s.Key, true)
	case s.Layer == observe.LayerWorker && s.Op == "failed":
		st.failed.Add(1)
		st.setSucceeded(s.Key, false)
		if st.tl != nil {
			st.tl.Event(st.side.Name(), "reconcile failed", s.Key, fmt.Sprint(s.Err))
		}
	case s.Layer == observe.LayerQueue && s.Op == "AddRateLimited":
		st.requeues.Add(1)
		maxInto(&st.mostWait, int64(s.Delay))
		if st.lastWord.Load() {
			maxInto(&st.due, time.Now().Add(s.Delay).UnixNano())
			maxInto(&st.lastWordWait, int64(s.Delay))
		}
	}
}

// maxInto stores v in a if it is larger.
func maxInto(a *atomic.Int64, v int64) {
	for {
		old := a.Load()
		if v <= old || a.CompareAndSwap(old, v) {
			return
		}
	}
}

// retryDue is when the last retry the controller scheduled during the last
// word is due; zero before the last word, or when it scheduled none.
func (st *controllerState) retryDue() time.Time {
	if due := st.due.Load(); due != 0 {
		return time.Unix(0, due)
	}
	return time.Time{}
}

func (st *controllerState) setSucceeded(key string, ok bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.succeeded[key] = ok
}

func (st *controllerState) succeededLast(key string) bool {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.succeeded[key]
}

func allStarted(states []*controllerState) bool {
	for _, st := range states {
		if !st.started.Load() {
			return false
		}
	}
	return true
}

func (st *controllerState) report() ControllerSideReport {
	return ControllerSideReport{
		Name: st.side.Name(), Namespace: st.ns,
		Lists: int(st.lists.Load()), Watches: int(st.watches.Load()), Writes: int(st.writes.Load()),
		Reconciles: int(st.reconciles.Load()), Failed: int(st.failed.Load()), Requeues: int(st.requeues.Load()),
		LongestWait: time.Duration(st.mostWait.Load()),
		Converged:   st.convergedFirst, ConvergeTime: st.tookFirst,
		LastWordConverged: st.converged, LastWordTime: st.took, LastWordWait: time.Duration(st.lastWordWait.Load()),
	}
}
