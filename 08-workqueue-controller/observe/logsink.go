package observe

import (
	"context"
	"fmt"
	"slices"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

// sink is the logger a Tracer puts in Run's context. The controller logs
// as sample-controller does; the lines that mark its start and shutdown
// become controller Steps, and the "worker" value each worker's logger
// carries says whose reconcile a write or a line is. Every other line is
// dropped: the timeline has its rows for those from the other seams.
type sink struct {
	t      *Tracer
	values []any
}

var _ logr.LogSink = (*sink)(nil)

func (s *sink) Init(logr.RuntimeInfo) {}
func (s *sink) Enabled(int) bool      { return true }

func (s *sink) WithValues(kv ...any) logr.LogSink {
	return &sink{t: s.t, values: append(slices.Clip(s.values), kv...)}
}

func (s *sink) WithName(string) logr.LogSink { return s }

func (s *sink) Error(error, string, ...any) {}

func (s *sink) Info(_ int, msg string, kv ...any) {
	all := append(slices.Clip(s.values), kv...)
	if msg == "Starting workers" {
		s.t.mu.Lock()
		s.t.workers, _ = value(all, "count").(int)
		s.t.mu.Unlock()
	}
	if st, ok := controllerLine(msg, all); ok {
		if st.Op == "Workers" {
			s.t.mu.Lock()
			st.Detail = fmt.Sprintf("%d workers started", s.t.workers)
			s.t.mu.Unlock()
		}
		st.Layer = LayerController
		if st.Op == "Synced" || st.Op == "ShutDownWithDrain" {
			st.Len = s.t.queueLen()
		} else {
			st.Len = -1
		}
		s.t.step(st)
		return
	}
	if msg == "Shutting down: not reconciled" {
		key := fmt.Sprint(value(all, "objectName"))
		s.t.step(Step{Layer: LayerWorker, Op: "skip", Key: key, Worker: workerIn(all), Detail: "shutting down: not reconciled", Len: -1})
	}
}

// controllerLine turns one of Run's lines into its Step.
func controllerLine(msg string, kv []any) (Step, bool) {
	switch msg {
	case "Starting Foo controller":
		return Step{Op: "Start", Detail: "informers of Foos and Deployments started"}, true
	case "Starting workers":
		return Step{Op: "Synced", Detail: "caches synced, every existing Foo queued"}, true
	case "Started workers":
		return Step{Op: "Workers", Detail: "workers started"}, true
	case "Shutting down workers":
		return Step{Op: "ShutDownWithDrain", Detail: "stop taking keys; wait for the reconciles in flight"}, true
	case "Drain timed out: cancelling the reconciles still running":
		return Step{Op: "DrainTimeout", Detail: fmt.Sprintf("reconciles still running after %v: cancelled", value(kv, "timeout"))}, true
	case "Drained: no reconcile in flight":
		return Step{Op: "Drained", Detail: "no reconcile in flight"}, true
	case "Workers returned":
		return Step{Op: "Shutdown", Detail: "workers returned"}, true
	case "Informers stopped":
		return Step{Op: "Shutdown", Detail: "informers stopped"}, true
	}
	return Step{}, false
}

// value is the value of key among key/value pairs, or nil.
func value(kv []any, key string) any {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == key {
			return kv[i+1]
		}
	}
	return nil
}

// workerIn is the "worker" value among key/value pairs, 0 for none.
func workerIn(kv []any) int {
	if w, ok := value(kv, "worker").(int); ok {
		return w
	}
	return 0
}

// workerOf is the worker whose context ctx is, from its logger: 0 when
// ctx has no Tracer's logger, or no worker's.
func workerOf(ctx context.Context) int {
	if s, ok := klog.FromContext(ctx).GetSink().(*sink); ok {
		return workerIn(s.values)
	}
	return 0
}
