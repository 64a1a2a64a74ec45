package workqueue

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	cgworkqueue "k8s.io/client-go/util/workqueue"
	testingclock "k8s.io/utils/clock/testing"
)

// delayedAdd is one AddAfter of a scripted scenario.
type delayedAdd struct {
	item  string
	delay time.Duration
}

// runDelays adds each item after its delay to a fresh delaying queue, then
// steps the fake clock (by 1ms up to 100ms, by 100ms after, to two minutes)
// and records, at each step where something became due, what Get hands out.
// Each add comes out once at most; a queue that hands out more (a Done that
// queues its item again and again) is cut short.
func runDelays(q TypedDelayingInterface[string], clk *testingclock.FakeClock, adds []delayedAdd) []string {
	defer q.ShutDown()
	for _, a := range adds {
		q.AddAfter(a.item, a.delay)
		synctest.Wait() // one at a time through the waiting loop, as a program would
	}
	var log []string
	for ms := 1; ms <= 120_000; {
		step := 1
		if ms > 100 {
			step = 100
		}
		clk.Step(time.Duration(step) * time.Millisecond)
		ms += step
		synctest.Wait()
		for q.Len() > 0 {
			item, _ := q.Get()
			q.Done(item)
			log = append(log, fmt.Sprintf("%v %s", time.Duration(ms-1)*time.Millisecond, item))
			if len(log) > len(adds) {
				return append(log, "… more than were added: cut short")
			}
		}
	}
	return log
}

// TestDelayingQueueScenarios: the rules of AddAfter, each on both queues
// with the time every item came out.
func TestDelayingQueueScenarios(t *testing.T) {
	cases := []struct {
		name string
		adds []delayedAdd
		want []string
	}{
		{"due in deadline order, not in the order added",
			[]delayedAdd{{"c", 30 * time.Millisecond}, {"a", 10 * time.Millisecond}, {"b", 20 * time.Millisecond}},
			[]string{"10ms a", "20ms b", "30ms c"}},
		{"an earlier deadline wins",
			[]delayedAdd{{"a", 50 * time.Millisecond}, {"a", 30 * time.Millisecond}},
			[]string{"30ms a"}},
		{"a later deadline is ignored",
			[]delayedAdd{{"a", 30 * time.Millisecond}, {"a", 50 * time.Millisecond}},
			[]string{"30ms a"}},
		{"zero or negative delay: added at once, and the waiting entry stays",
			[]delayedAdd{{"a", 40 * time.Millisecond}, {"a", 0}, {"b", -time.Second}},
			[]string{"1ms a", "1ms b", "40ms a"}},
		{"past the heartbeat and a minute",
			[]delayedAdd{{"slow", time.Minute}, {"fast", 11 * time.Second}},
			[]string{"11s fast", "1m0s slow"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				clk := testingclock.NewFakeClock(time.Now())
				want := runDelays(cgworkqueue.NewTypedDelayingQueueWithConfig(cgworkqueue.TypedDelayingQueueConfig[string]{Clock: clk}), clk, tc.adds)
				clk = testingclock.NewFakeClock(time.Now())
				got := runDelays(NewTypedDelayingQueueWithConfig(TypedDelayingQueueConfig[string]{Clock: clk}), clk, tc.adds)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("(-client-go +ours):\n%s", diff)
				}
				if diff := cmp.Diff(tc.want, got); diff != "" {
					t.Errorf("ours, against the rule this case illustrates (-rule +ours):\n%s", diff)
				}
			})
		})
	}
}
