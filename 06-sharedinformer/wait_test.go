package informer_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"
)

// A checker that is done after a delay (0: at once; negative: never), in
// bubble time. It is built afresh for each side, inside the bubble.
type delayedChecker struct {
	name string
	done chan struct{}
}

func newDelayedChecker(name string, delay time.Duration) *delayedChecker {
	c := &delayedChecker{name: name, done: make(chan struct{})}
	switch {
	case delay == 0:
		close(c.done)
	case delay > 0:
		time.AfterFunc(delay, func() { close(c.done) })
	}
	return c
}

func (c *delayedChecker) Name() string          { return c.name }
func (c *delayedChecker) Done() <-chan struct{} { return c.done }

// waitAnswer is what one WaitFor call answered, and when it returned.
type waitAnswer struct {
	Done  bool
	After time.Duration
}

// TestWaitForAnswersLikeClientGo: WaitFor's answer, and the moment it comes,
// for the scenarios of client-go's own TestWaitFor. make conformance skips
// the cases of that test that name the wait, because they compare its klog
// lines and ours does not log; this test keeps their other half.
func TestWaitForAnswersLikeClientGo(t *testing.T) {
	for name, tc := range map[string]struct {
		delays []time.Duration // one checker each
		// timeout > 0: a deadline; < 0: cancelled before the call; with
		// cause: cancelled with that cause after timeout.
		timeout time.Duration
		cause   string
	}{
		"no checkers":               {},
		"all done in time":          {delays: []time.Duration{10 * time.Second, 5 * time.Second, 0}},
		"one never, deadline":       {delays: []time.Duration{10 * time.Second, -1, 0}, timeout: time.Minute},
		"one never, cancelled":      {delays: []time.Duration{10 * time.Second, -1, 0}, timeout: -1},
		"cancelled with a cause":    {delays: []time.Duration{10 * time.Second, -1, 0}, timeout: 5 * time.Second, cause: "go fish"},
		"none done, deadline":       {delays: []time.Duration{-1, -1, -1}, timeout: time.Minute},
		"all done, then cancelled":  {delays: []time.Duration{0, 0}, timeout: -1},
		"done later than the cause": {delays: []time.Duration{time.Hour}, timeout: time.Second, cause: "stop"},
	} {
		t.Run(name, func(t *testing.T) {
			answer := func(waitFor func(ctx context.Context, checkers []*delayedChecker) bool) (a waitAnswer) {
				synctest.Test(t, func(t *testing.T) {
					ctx := context.Background()
					switch {
					case tc.cause != "":
						c, cancel := context.WithCancelCause(ctx)
						timer := time.AfterFunc(tc.timeout, func() { cancel(errors.New(tc.cause)) })
						defer timer.Stop()
						ctx = c
					case tc.timeout > 0:
						c, cancel := context.WithTimeout(ctx, tc.timeout)
						defer cancel()
						ctx = c
					case tc.timeout < 0:
						c, cancel := context.WithCancel(ctx)
						cancel()
						ctx = c
					}
					var checkers []*delayedChecker
					for i, d := range tc.delays {
						checkers = append(checkers, newDelayedChecker(string(rune('a'+i)), d))
					}
					start := time.Now()
					a.Done = waitFor(ctx, checkers)
					a.After = time.Since(start)
				})
				return a
			}
			theirs := answer(func(ctx context.Context, checkers []*delayedChecker) bool {
				var cs []cache.DoneChecker
				for _, c := range checkers {
					cs = append(cs, c)
				}
				return cache.WaitFor(ctx, "", cs...)
			})
			ours := answer(func(ctx context.Context, checkers []*delayedChecker) bool {
				var cs []informer.DoneChecker
				for _, c := range checkers {
					cs = append(cs, c)
				}
				return informer.WaitFor(ctx, "", cs...)
			})
			if diff := cmp.Diff(theirs, ours); diff != "" {
				t.Errorf("WaitFor answered differently (-client-go +ours):\n%s", diff)
			}
		})
	}
}
