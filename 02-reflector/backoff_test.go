package reflector_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/tools/cache"
	clocktesting "k8s.io/utils/clock/testing"

	reflector "informer-from-scratch/02-reflector"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// clientGoDefaultBackoff is the backoff client-go's NewReflectorWithOptions
// builds when none is given.
var clientGoDefaultBackoff = wait.Backoff{Duration: 800 * time.Millisecond, Cap: 30 * time.Second, Steps: 38, Factor: 2, Jitter: 1}

// TestBackoffMatchesWaitDelayWithReset draws delays from our backoff and from
// apimachinery's wait.Backoff.DelayWithReset (what client-go's reflector
// uses) on fake clocks that move the same way, including a pause long enough
// to reset. Without jitter the sequences must be equal; with jitter each of
// ours must lie in [d, d+jitter×d) for client-go's jitter-free d.
func TestBackoffMatchesWaitDelayWithReset(t *testing.T) {
	noJitter := clientGoDefaultBackoff
	noJitter.Jitter = 0
	configs := []struct {
		name  string
		b     wait.Backoff
		reset time.Duration
	}{
		{"client-go's default without jitter", noJitter, 2 * time.Minute},
		{"few steps", wait.Backoff{Duration: time.Second, Factor: 3, Steps: 3}, time.Minute},
		{"no factor: a constant delay", wait.Backoff{Duration: time.Second, Steps: 5}, time.Minute},
		{"no reset interval: never grows", wait.Backoff{Duration: time.Second, Factor: 2, Steps: 5}, 0},
	}
	// How far the clocks move before each draw: a failing reflector's
	// rhythm, then a quiet spell longer than the reset interval.
	advances := []time.Duration{0, time.Second, time.Second, 2 * time.Second, 5 * time.Second, 30 * time.Second, 3 * time.Minute, time.Second, time.Second}

	for _, c := range configs {
		t.Run(c.name, func(t *testing.T) {
			cgClock, ourClock := clocktesting.NewFakeClock(epoch), clocktesting.NewFakeClock(epoch)
			cgDelay := c.b.DelayWithReset(cgClock, c.reset)
			ourDelay := reflector.NewDelayWithReset(c.b, ourClock, c.reset)
			var cg, our []time.Duration
			for _, d := range advances {
				cgClock.Step(d)
				ourClock.Step(d)
				cg = append(cg, cgDelay())
				our = append(our, ourDelay())
			}
			if diff := cmp.Diff(cg, our); diff != "" {
				t.Errorf("delays differ (-client-go +ours):\n%s", diff)
			}
		})
	}

	t.Run("client-go's default with jitter", func(t *testing.T) {
		baseClock, ourClock := clocktesting.NewFakeClock(epoch), clocktesting.NewFakeClock(epoch)
		base := noJitter.DelayWithReset(baseClock, 2*time.Minute)
		ourDelay := reflector.NewDelayWithReset(clientGoDefaultBackoff, ourClock, 2*time.Minute)
		for i, d := range advances {
			baseClock.Step(d)
			ourClock.Step(d)
			lo := base()
			if got := ourDelay(); got < lo || got >= 2*lo {
				t.Errorf("delay %d: ours is %v, client-go's range is [%v, %v)", i, got, lo, 2*lo)
			}
		}
	})
}

// TestJitteredBackoffBetweenRounds runs both reflectors with the default,
// jittered backoff over a LIST that fails twelve times, long enough for the
// two-minute reset. The requests must be the same; the pause before each
// retry must lie in the range client-go's jitter-free backoff gives at that
// moment.
func TestJitteredBackoffBetweenRounds(t *testing.T) {
	var lists []listReply
	for range 12 {
		lists = append(lists, listReply{err: errInternal})
	}
	lists = append(lists, listReply{list: podList("10", "")})
	runBoth(t, scenario{name: "jittered", defaultBackof: true, lists: lists})
}

// checkJitteredBackoff checks the pauses between one reflector's LIST
// requests (each failed at once) against apimachinery's jitter-free backoff,
// replayed on a fake clock at the moments the reflector drew its delays.
func checkJitteredBackoff(t *testing.T, s side, log []entry) {
	t.Helper()
	noJitter := clientGoDefaultBackoff
	noJitter.Jitter = 0
	c := clocktesting.NewFakeClock(epoch)
	base := noJitter.DelayWithReset(c, 2*time.Minute)
	var prev *time.Duration
	for _, e := range log {
		if e.Call != "LIST" {
			continue
		}
		if prev != nil {
			c.SetTime(epoch.Add(*prev))
			lo := base()
			if gap := e.At - *prev; gap < lo || gap >= 2*lo {
				t.Errorf("%s: LIST at %v came %v after the previous one; the backoff allows [%v, %v)", s, e.At, gap, lo, 2*lo)
			}
		}
		at := e.At
		prev = &at
	}
}

// TestRetryWithDeadlineMatchesClientGo feeds the same errors at the same
// (fake) times to client-go's RetryWithDeadline and ours and compares every
// ShouldRetry answer.
func TestRetryWithDeadlineMatchesClientGo(t *testing.T) {
	steps := []struct {
		advance time.Duration
		err     error
	}{
		{0, errInternal}, {10 * time.Second, errInternal}, {10 * time.Second, nil}, {10 * time.Second, errInternal},
		{5 * time.Second, errInternal}, {5 * time.Second, errBusy}, {time.Second, errInternal},
		{2 * time.Minute, errInternal}, {20 * time.Second, errInternal}, {20 * time.Second, errInternal},
	}
	for _, maxRetry := range []time.Duration{0, 30 * time.Second} {
		t.Run(fmt.Sprintf("max %v", maxRetry), func(t *testing.T) {
			cgClock, ourClock := clocktesting.NewFakeClock(epoch), clocktesting.NewFakeClock(epoch)
			cg := cache.NewRetryWithDeadline(maxRetry, time.Minute, apierrors.IsInternalError, cgClock)
			our := reflector.NewRetryWithDeadline(maxRetry, time.Minute, apierrors.IsInternalError, ourClock)
			var cgAnswers, ourAnswers []bool
			for _, s := range steps {
				cgClock.Step(s.advance)
				ourClock.Step(s.advance)
				cg.After(s.err)
				our.After(s.err)
				cgAnswers = append(cgAnswers, cg.ShouldRetry())
				ourAnswers = append(ourAnswers, our.ShouldRetry())
			}
			if diff := cmp.Diff(cgAnswers, ourAnswers); diff != "" {
				t.Errorf("ShouldRetry answers differ (-client-go +ours):\n%s", diff)
			}
		})
	}
}
