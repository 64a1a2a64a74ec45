// Mirrors k8s.io/client-go v0.37.2 util/workqueue/metrics.go: GaugeMetric,
// SettableGaugeMetric, CounterMetric, SummaryMetric, HistogramMetric,
// MetricsProvider, SetProvider, queueMetrics, defaultQueueMetrics, noMetrics,
// retryMetrics, defaultRetryMetrics, newQueueMetrics and newRetryMetrics.

package workqueue

import (
	"sync"
	"time"

	"k8s.io/utils/clock"
)

// GaugeMetric is a value that goes up and down by one.
type GaugeMetric interface {
	Inc()
	Dec()
}

// SettableGaugeMetric is a value that is set outright.
type SettableGaugeMetric interface {
	Set(float64)
}

// CounterMetric is a value that only goes up.
type CounterMetric interface {
	Inc()
}

// SummaryMetric records observations. No queue metric uses it; it is here
// because client-go declares it.
type SummaryMetric interface {
	Observe(float64)
}

// HistogramMetric records observations (durations, in seconds).
type HistogramMetric interface {
	Observe(float64)
}

// MetricsProvider makes the metrics of one queue, each named after it. The
// queue calls every method once, when it is created. Prometheus support lives
// outside client-go (k8s.io/component-base/metrics/prometheus/workqueue
// registers a provider); this package only defines the shape.
type MetricsProvider interface {
	// NewDepthMetric: items that need processing (Add +1, Get -1). An item
	// added again while it is processed counts at once, before it is back in
	// the queue, so depth can exceed Len.
	NewDepthMetric(name string) GaugeMetric
	// NewAddsMetric: Adds that marked an item (not the ones that found it
	// already marked).
	NewAddsMetric(name string) CounterMetric
	// NewLatencyMetric: seconds from the Add that marked an item to the Get
	// that handed it out.
	NewLatencyMetric(name string) HistogramMetric
	// NewWorkDurationMetric: seconds from Get to Done.
	NewWorkDurationMetric(name string) HistogramMetric
	// NewUnfinishedWorkSecondsMetric: the sum of how long every item in
	// processing has been running, set every 500ms.
	NewUnfinishedWorkSecondsMetric(name string) SettableGaugeMetric
	// NewLongestRunningProcessorSecondsMetric: the longest of those.
	NewLongestRunningProcessorSecondsMetric(name string) SettableGaugeMetric
	// NewRetriesMetric: calls to AddAfter (so also AddRateLimited) on a
	// delaying queue.
	NewRetriesMetric(name string) CounterMetric
}

// noopMetric discards everything.
type noopMetric struct{}

func (noopMetric) Inc()            {}
func (noopMetric) Dec()            {}
func (noopMetric) Set(float64)     {}
func (noopMetric) Observe(float64) {}

// noopMetricsProvider is the provider until SetProvider is called.
type noopMetricsProvider struct{}

func (noopMetricsProvider) NewDepthMetric(string) GaugeMetric            { return noopMetric{} }
func (noopMetricsProvider) NewAddsMetric(string) CounterMetric           { return noopMetric{} }
func (noopMetricsProvider) NewLatencyMetric(string) HistogramMetric      { return noopMetric{} }
func (noopMetricsProvider) NewWorkDurationMetric(string) HistogramMetric { return noopMetric{} }
func (noopMetricsProvider) NewRetriesMetric(string) CounterMetric        { return noopMetric{} }
func (noopMetricsProvider) NewUnfinishedWorkSecondsMetric(string) SettableGaugeMetric {
	return noopMetric{}
}
func (noopMetricsProvider) NewLongestRunningProcessorSecondsMetric(string) SettableGaugeMetric {
	return noopMetric{}
}

var (
	globalMetricsProviderMu  sync.Mutex
	globalMetricsProvider    MetricsProvider = noopMetricsProvider{}
	setGlobalMetricsProvider sync.Once
)

// SetProvider sets the provider of every queue created afterwards without a
// MetricsProvider in its config. Only the first call has an effect.
func SetProvider(metricsProvider MetricsProvider) {
	setGlobalMetricsProvider.Do(func() {
		globalMetricsProviderMu.Lock()
		defer globalMetricsProviderMu.Unlock()
		globalMetricsProvider = metricsProvider
	})
}

func globalProvider() MetricsProvider {
	globalMetricsProviderMu.Lock()
	defer globalMetricsProviderMu.Unlock()
	return globalMetricsProvider
}

// queueMetrics is what a Typed queue reports; it calls these with its lock
// held, so implementations need no lock of their own.
type queueMetrics[T comparable] interface {
	add(item T)
	get(item T)
	done(item T)
	updateUnfinishedWork()
}

// newQueueMetrics returns the metrics of a queue: none for an unnamed queue
// or the no-op provider, so such a queue skips the bookkeeping (and the
// unfinished-work goroutine) altogether.
func newQueueMetrics[T comparable](mp MetricsProvider, name string, c clock.Clock) queueMetrics[T] {
	if _, noop := mp.(noopMetricsProvider); name == "" || noop {
		return noMetrics[T]{}
	}
	return &defaultQueueMetrics[T]{
		clock:                   c,
		depth:                   mp.NewDepthMetric(name),
		adds:                    mp.NewAddsMetric(name),
		latency:                 mp.NewLatencyMetric(name),
		workDuration:            mp.NewWorkDurationMetric(name),
		unfinishedWorkSeconds:   mp.NewUnfinishedWorkSecondsMetric(name),
		longestRunningProcessor: mp.NewLongestRunningProcessorSecondsMetric(name),
		addTimes:                map[T]time.Time{},
		processingStartTimes:    map[T]time.Time{},
	}
}

// noMetrics is the metrics of a queue that reports none.
type noMetrics[T comparable] struct{}

func (noMetrics[T]) add(T)                 {}
func (noMetrics[T]) get(T)                 {}
func (noMetrics[T]) done(T)                {}
func (noMetrics[T]) updateUnfinishedWork() {}

// defaultQueueMetrics turns the queue's events into the provider's metrics.
type defaultQueueMetrics[T comparable] struct {
	clock clock.Clock

	depth                   GaugeMetric
	adds                    CounterMetric
	latency                 HistogramMetric
	workDuration            HistogramMetric
	unfinishedWorkSeconds   SettableGaugeMetric
	longestRunningProcessor SettableGaugeMetric

	// addTimes: when each marked item was first added (for latency).
	addTimes map[T]time.Time
	// processingStartTimes: when each item in processing was handed out.
	processingStartTimes map[T]time.Time
}

func (m *defaultQueueMetrics[T]) add(item T) {
	m.adds.Inc()
	m.depth.Inc()
	if _, seen := m.addTimes[item]; !seen {
		m.addTimes[item] = m.clock.Now()
	}
}

func (m *defaultQueueMetrics[T]) get(item T) {
	m.depth.Dec()
	m.processingStartTimes[item] = m.clock.Now()
	if added, ok := m.addTimes[item]; ok {
		m.latency.Observe(m.clock.Since(added).Seconds())
		delete(m.addTimes, item)
	}
}

func (m *defaultQueueMetrics[T]) done(item T) {
	if started, ok := m.processingStartTimes[item]; ok {
		m.workDuration.Observe(m.clock.Since(started).Seconds())
		delete(m.processingStartTimes, item)
	}
}

// updateUnfinishedWork sets the two gauges that show a stuck worker: one that
// never calls Done makes both grow without bound.
func (m *defaultQueueMetrics[T]) updateUnfinishedWork() {
	var total, longest float64
	for _, started := range m.processingStartTimes {
		age := m.clock.Since(started).Seconds()
		total += age
		longest = max(longest, age)
	}
	m.unfinishedWorkSeconds.Set(total)
	m.longestRunningProcessor.Set(longest)
}

// retryMetrics counts a delaying queue's AddAfter calls.
type retryMetrics interface {
	retry()
}

// newRetryMetrics returns the retries counter of a delaying queue: none for
// an unnamed one. A nil provider means the global one.
func newRetryMetrics(name string, provider MetricsProvider) retryMetrics {
	if name == "" {
		return noRetryMetrics{}
	}
	if provider == nil {
		provider = globalProvider()
	}
	return &defaultRetryMetrics{retries: provider.NewRetriesMetric(name)}
}

type noRetryMetrics struct{}

func (noRetryMetrics) retry() {}

type defaultRetryMetrics struct {
	retries CounterMetric
}

func (m *defaultRetryMetrics) retry() { m.retries.Inc() }
