package processor

import (
	"testing"
	"time"
)

// TestDetermineResyncPeriodFollowsClientGosRule checks the three cases of
// client-go's determineResyncPeriod (tools/cache/shared_informer.go). It
// cannot be differential: the function is unexported, and through the
// informer its third case never fires (AddEventHandlerWithOptions raises a
// short request, or lowers the check period, before calling it). Stage 06's
// informer calls ours directly, so the rule is checked here, case by case,
// as client-go's source states it.
func TestDetermineResyncPeriodFollowsClientGosRule(t *testing.T) {
	for _, c := range []struct {
		rule           string
		desired, check time.Duration
		want           time.Duration
	}{
		{"no resync asked: none given", 0, time.Minute, 0},
		{"no resync asked, none checked", 0, 0, 0},
		{"the informer does not resync: none given", time.Minute, 0, 0},
		{"shorter than the check period: raised to it", time.Second, time.Minute, time.Minute},
		{"equal to the check period: kept", time.Minute, time.Minute, time.Minute},
		{"longer than the check period: kept", time.Hour, time.Minute, time.Hour},
	} {
		if got := DetermineResyncPeriod(c.desired, c.check); got != c.want {
			t.Errorf("%s: DetermineResyncPeriod(%v, %v) = %v, client-go's rule gives %v", c.rule, c.desired, c.check, got, c.want)
		}
	}
}
