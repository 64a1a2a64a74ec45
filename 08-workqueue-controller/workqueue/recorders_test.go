package workqueue

import (
	"fmt"
	"maps"
	"sync"
	"time"

	cgworkqueue "k8s.io/client-go/util/workqueue"
)

// The recorders wrap what both sides accept from the outside (a rate limiter,
// the storage, a metrics provider), so one test can watch client-go's queue
// and ours make the same calls. The limiter and storage interfaces have the
// same methods in both packages, so one type serves both; a metrics provider
// returns each package's own metric interfaces, so it needs one thin type per
// side over a shared recorder.

// limiter is TypedRateLimiter[string] of either package.
type limiter interface {
	When(item string) time.Duration
	Forget(item string)
	NumRequeues(item string) int
}

// recordingLimiter logs every When a queue asks of its limiter, and the
// answer.
type recordingLimiter struct {
	inner limiter
	mu    sync.Mutex
	log   []string
}

func (r *recordingLimiter) When(item string) time.Duration {
	d := r.inner.When(item)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = append(r.log, fmt.Sprintf("When(%s)=%v", item, d))
	return d
}

func (r *recordingLimiter) Forget(item string)          { r.inner.Forget(item) }
func (r *recordingLimiter) NumRequeues(item string) int { return r.inner.NumRequeues(item) }

// take returns what was logged since the last take.
func (r *recordingLimiter) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	log := r.log
	r.log = nil
	return log
}

// storage is Queue[string] of either package.
type storage interface {
	Touch(item string)
	Push(item string)
	Len() int
	Pop() string
}

// recordingStorage logs the Touch, Push and Pop calls a queue makes on its
// storage. The queue calls it under its own lock, but take runs on the test's
// goroutine, hence the mutex.
type recordingStorage struct {
	inner storage
	mu    sync.Mutex
	log   []string
}

func (r *recordingStorage) record(s string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log = append(r.log, s)
}

func (r *recordingStorage) Touch(item string) { r.record("touch " + item); r.inner.Touch(item) }
func (r *recordingStorage) Push(item string)  { r.record("push " + item); r.inner.Push(item) }
func (r *recordingStorage) Len() int          { return r.inner.Len() }
func (r *recordingStorage) Pop() string {
	item := r.inner.Pop()
	r.record("pop " + item)
	return item
}

func (r *recordingStorage) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	log := r.log
	r.log = nil
	return log
}

// metricsRecorder logs each metric's calls, per metric: the calls of
// different metrics can interleave differently on the two sides (the
// unfinished-work loop runs on its own goroutine), those of one metric
// cannot.
type metricsRecorder struct {
	mu     sync.Mutex
	events map[string][]string // "kind/queue name" → calls
}

func newMetricsRecorder() *metricsRecorder {
	return &metricsRecorder{events: map[string][]string{}}
}

func (r *metricsRecorder) metric(kind, name string) *recordedMetric {
	return &recordedMetric{r: r, key: kind + "/" + name}
}

func (r *metricsRecorder) record(key, call string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events[key] = append(r.events[key], call)
}

func (r *metricsRecorder) take() map[string][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	events := maps.Clone(r.events)
	clear(r.events)
	if len(events) == 0 {
		return nil
	}
	return events
}

// recordedMetric is every metric kind at once.
type recordedMetric struct {
	r   *metricsRecorder
	key string
}

func (m *recordedMetric) Inc() { m.r.record(m.key, "inc") }
func (m *recordedMetric) Dec() { m.r.record(m.key, "dec") }

// Set and Observe print nanosecond precision: the values are durations in
// seconds on a fake clock, so this hides only float rounding, such as the
// order a map is summed in.
func (m *recordedMetric) Set(v float64)     { m.r.record(m.key, fmt.Sprintf("set %.9f", v)) }
func (m *recordedMetric) Observe(v float64) { m.r.record(m.key, fmt.Sprintf("observe %.9f", v)) }

// ourProvider is a MetricsProvider of ours over a recorder.
type ourProvider struct{ r *metricsRecorder }

func (p ourProvider) NewDepthMetric(n string) GaugeMetric            { return p.r.metric("depth", n) }
func (p ourProvider) NewAddsMetric(n string) CounterMetric           { return p.r.metric("adds", n) }
func (p ourProvider) NewLatencyMetric(n string) HistogramMetric      { return p.r.metric("latency", n) }
func (p ourProvider) NewWorkDurationMetric(n string) HistogramMetric { return p.r.metric("work", n) }
func (p ourProvider) NewRetriesMetric(n string) CounterMetric        { return p.r.metric("retries", n) }
func (p ourProvider) NewUnfinishedWorkSecondsMetric(n string) SettableGaugeMetric {
	return p.r.metric("unfinished", n)
}
func (p ourProvider) NewLongestRunningProcessorSecondsMetric(n string) SettableGaugeMetric {
	return p.r.metric("longest", n)
}

// clientGoProvider is a client-go MetricsProvider over a recorder.
type clientGoProvider struct{ r *metricsRecorder }

func (p clientGoProvider) NewDepthMetric(n string) cgworkqueue.GaugeMetric {
	return p.r.metric("depth", n)
}
func (p clientGoProvider) NewAddsMetric(n string) cgworkqueue.CounterMetric {
	return p.r.metric("adds", n)
}
func (p clientGoProvider) NewLatencyMetric(n string) cgworkqueue.HistogramMetric {
	return p.r.metric("latency", n)
}
func (p clientGoProvider) NewWorkDurationMetric(n string) cgworkqueue.HistogramMetric {
	return p.r.metric("work", n)
}
func (p clientGoProvider) NewRetriesMetric(n string) cgworkqueue.CounterMetric {
	return p.r.metric("retries", n)
}
func (p clientGoProvider) NewUnfinishedWorkSecondsMetric(n string) cgworkqueue.SettableGaugeMetric {
	return p.r.metric("unfinished", n)
}
func (p clientGoProvider) NewLongestRunningProcessorSecondsMetric(n string) cgworkqueue.SettableGaugeMetric {
	return p.r.metric("longest", n)
}
