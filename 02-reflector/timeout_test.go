package reflector_test

import (
	"fmt"
	"testing"

	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
)

// watchTimeouts runs one side's reflector through n watches that each end
// normally after one event (so the next watch follows at once, from the
// last resourceVersion), and returns the timeoutSeconds of every watch.
func watchTimeouts(t *testing.T, s side, watchList bool, n int) []int64 {
	sc := scenario{watchList: watchList, lists: []listReply{{list: podList("10", "", pod("a", "5"))}}}
	if watchList {
		sc.lists = nil
		sc.watches = append(sc.watches, watchReply{events: []timedEvent{added(pod("a", "5")), initialEventsEnd("10")}})
	}
	for i := range n {
		sc.watches = append(sc.watches, watchReply{events: []timedEvent{modified(pod("a", fmt.Sprint(11+i)))}})
	}
	var timeouts []int64
	runInspecting(t, s, sc, func(lw *scriptLW) {
		lw.mu.Lock()
		defer lw.mu.Unlock()
		timeouts = append(timeouts, lw.timeouts...)
	})
	return timeouts
}

// TestEveryWatchDrawsItsOwnTimeout: each watch request carries a
// timeoutSeconds drawn afresh from [300, 600), so that a fleet of reflectors
// started together does not reconnect together. The scripted tests only
// check the range, which a constant inside it would pass; here 40 watches
// must show many different values, on client-go's side (the premise) and on
// ours, on both paths.
func TestEveryWatchDrawsItsOwnTimeout(t *testing.T) {
	const n = 40
	for _, watchList := range []bool{false, true} {
		t.Run(fmt.Sprintf("watchList=%v", watchList), func(t *testing.T) {
			clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, watchList)
			for _, s := range []side{clientGo, ours} {
				timeouts := watchTimeouts(t, s, watchList, n)
				if len(timeouts) < n {
					t.Fatalf("%s sent %d watches, want at least %d", s, len(timeouts), n)
				}
				distinct := map[int64]bool{}
				for _, v := range timeouts {
					if v < 300 || v >= 600 {
						t.Errorf("%s: timeoutSeconds=%d outside [300, 600)", s, v)
					}
					distinct[v] = true
				}
				// 40 uniform draws from 300 values give about 38 distinct
				// ones; 20 or fewer essentially never happens.
				if len(distinct) <= len(timeouts)/2 {
					t.Errorf("%s: %d watches carried only %d different timeouts: %v", s, len(timeouts), len(distinct), timeouts)
				}
			}
		})
	}
}
