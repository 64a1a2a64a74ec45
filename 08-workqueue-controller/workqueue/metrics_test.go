package workqueue

import (
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	cgworkqueue "k8s.io/client-go/util/workqueue"
	testingclock "k8s.io/utils/clock/testing"
)

// Every metric call, compared per operation, is part of the random programs
// (TestRandomProgramsMatchClientGo with metrics=true). This file covers the
// global provider, which those programs cannot touch: SetProvider works once
// per process.

// globalRecorders sets the global provider of both packages, once for the
// whole test binary (-count=3 runs this test three times), and tries a second
// provider that both must ignore.
var globalRecorders = sync.OnceValues(func() (theirs, ours *metricsRecorder) {
	theirs, ours = newMetricsRecorder(), newMetricsRecorder()
	cgworkqueue.SetProvider(clientGoProvider{theirs})
	SetProvider(ourProvider{ours})
	cgworkqueue.SetProvider(clientGoProvider{newMetricsRecorder()})
	SetProvider(ourProvider{newMetricsRecorder()})
	return theirs, ours
})

// TestGlobalProviderServesNamedQueuesWithoutOne: a queue with a name and no
// MetricsProvider reports to the provider given to SetProvider (the first
// one); an unnamed queue reports nothing.
func TestGlobalProviderServesNamedQueuesWithoutOne(t *testing.T) {
	theirRec, ourRec := globalRecorders()
	clk := testingclock.NewFakeClock(time.Now())
	theirs := cgworkqueue.NewTypedRateLimitingQueueWithConfig(cgworkqueue.DefaultTypedControllerRateLimiter[string](),
		cgworkqueue.TypedRateLimitingQueueConfig[string]{Name: "global", Clock: clk})
	ours := NewTypedRateLimitingQueueWithConfig(DefaultTypedControllerRateLimiter[string](),
		TypedRateLimitingQueueConfig[string]{Name: "global", Clock: clk})
	theirsUnnamed := cgworkqueue.NewTypedRateLimitingQueueWithConfig(cgworkqueue.DefaultTypedControllerRateLimiter[string](),
		cgworkqueue.TypedRateLimitingQueueConfig[string]{Clock: clk})
	oursUnnamed := NewTypedRateLimitingQueueWithConfig(DefaultTypedControllerRateLimiter[string](),
		TypedRateLimitingQueueConfig[string]{Clock: clk})
	for _, q := range []queueUnderTest{theirs, ours, theirsUnnamed, oursUnnamed} {
		q.Add("a")
		clk.Step(time.Millisecond)
		item, _ := q.Get()
		q.AddAfter("b", 0)
		clk.Step(2 * time.Millisecond)
		q.Done(item)
		q.ShutDown()
	}
	want, got := theirRec.take(), ourRec.take()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("global provider calls differ (-client-go +ours):\n%s", diff)
	}
	if got["adds/global"] == nil || got["retries/global"] == nil {
		t.Errorf("ours: the named queue reported nothing to the global provider: %v", got)
	}
}
