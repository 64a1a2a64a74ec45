//go:build conformance

// Adapter for client-go's util/workqueue tests (queue_test.go, an external
// test package; delaying_queue_test.go, default_rate_limiters_test.go,
// rate_limiting_queue_test.go and metrics_test.go, internal ones), run in
// package workqueue by internal/conformance. Stage 08's queue keeps
// client-go's names, the unexported ones the internal tests use included
// (newQueue, newQueueWithConfig, newRetryMetrics, waitFor, and the fields of
// delayingType, which TestRateLimitingQueue fills in by hand), so nothing
// needs renaming: queue_test.go only has its import of client-go's package
// pointed at ours, and the others compile as they are. The file is here so
// that a later rename is a change to this file only.

package workqueue
