// Not a mirror of client-go: an in-memory workqueue.MetricsProvider, the
// demo's stand-in for the Prometheus one that
// k8s.io/component-base/metrics/prometheus/workqueue registers in a real
// controller manager. The metric names in the table are that provider's.

package main

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"informer-from-scratch/08-workqueue-controller/workqueue"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

// memMetrics holds the metrics of one queue. The queue calls them with its
// lock held, but the demo reads them from elsewhere: hence the atomics.
type memMetrics struct {
	depth, adds, retries       counter
	latency, workDuration      histogram
	unfinished, longestRunning gauge
}

var _ workqueue.MetricsProvider = (*memMetrics)(nil)

func (m *memMetrics) NewDepthMetric(string) workqueue.GaugeMetric            { return &m.depth }
func (m *memMetrics) NewAddsMetric(string) workqueue.CounterMetric           { return &m.adds }
func (m *memMetrics) NewLatencyMetric(string) workqueue.HistogramMetric      { return &m.latency }
func (m *memMetrics) NewWorkDurationMetric(string) workqueue.HistogramMetric { return &m.workDuration }
func (m *memMetrics) NewRetriesMetric(string) workqueue.CounterMetric        { return &m.retries }
func (m *memMetrics) NewUnfinishedWorkSecondsMetric(string) workqueue.SettableGaugeMetric {
	return &m.unfinished
}
func (m *memMetrics) NewLongestRunningProcessorSecondsMetric(string) workqueue.SettableGaugeMetric {
	return &m.longestRunning
}

// counter is a gauge that moves by one, or a counter (which only goes up).
type counter struct{ n atomic.Int64 }

func (c *counter) Inc() { c.n.Add(1) }
func (c *counter) Dec() { c.n.Add(-1) }

// gauge is a settable gauge.
type gauge struct{ bits atomic.Uint64 }

func (g *gauge) Set(v float64) { g.bits.Store(math.Float64bits(v)) }
func (g *gauge) get() float64  { return math.Float64frombits(g.bits.Load()) }

// histogram keeps what a table needs: count, sum and maximum.
type histogram struct {
	mu              sync.Mutex
	count           int
	sum, maxSeconds float64
}

func (h *histogram) Observe(seconds float64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.count++
	h.sum += seconds
	h.maxSeconds = max(h.maxSeconds, seconds)
}

func (h *histogram) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.count == 0 {
		return "count=0"
	}
	return fmt.Sprintf("count=%d avg=%v max=%v", h.count, seconds(h.sum/float64(h.count)), seconds(h.maxSeconds))
}

// seconds prints a duration in seconds, rounded for a person.
func seconds(s float64) time.Duration {
	d := time.Duration(s * float64(time.Second))
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// print writes the table, one metric a line, with what each counts.
func (m *memMetrics) print(tl *timeline.Timeline, queue string) {
	rows := []struct {
		name, value string
		what        lang.Text
	}{
		{"workqueue_adds_total", fmt.Sprint(m.adds.n.Load()), sayAddsWhat},
		{"workqueue_depth", fmt.Sprint(m.depth.n.Load()), sayDepthWhat},
		{"workqueue_queue_duration_seconds", m.latency.String(), sayLatencyWhat},
		{"workqueue_work_duration_seconds", m.workDuration.String(), sayWorkWhat},
		{"workqueue_retries_total", fmt.Sprint(m.retries.n.Load()), sayRetriesWhat},
		{"workqueue_unfinished_work_seconds", fmt.Sprint(seconds(m.unfinished.get())), sayUnfinished},
		{"workqueue_longest_running_processor_seconds", fmt.Sprint(seconds(m.longestRunning.get())), sayLongestWhat},
	}
	tl.Note(sayMetricsHeader, queue, queue)
	for _, r := range rows {
		tl.Note(sayMetricRow, r.name, r.value, r.what) // r.what is said in the timeline's language
	}
}
