package factory_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"informer-from-scratch/internal/testenv"
)

// lifecycleScript drives one factory through the rules of Start,
// WaitForCacheSync and Shutdown and returns what it saw, one line per
// observation, to be compared between the libraries:
//
//   - a wait with nothing requested, and with an informer requested but not
//     started, returns at once with nothing in it;
//   - Start runs what was requested; an informer requested after Start does
//     not run (the wait does not report it) until Start is called again, and
//     that second Start does not run the first informer twice (no error
//     reported, still one WATCH);
//   - after the context is cancelled, Shutdown returns with every informer
//     stopped; an informer requested after Shutdown is never started, by
//     any Start; Shutdown again returns at once;
//   - a wait whose context has already ended, once every started informer
//     has synced, is no failure: it reports them all synced and no error
//     (only an informer that did not sync makes the wait's answer an error);
//   - a wait that ends before an informer synced says which one, and why.
//
// counts gives the requests made so far, by resource and verb; badTweak is
// a tweak whose requests the server refuses, so its informer never syncs.
func lifecycleScript(t *testing.T, ctx context.Context, newSide func(options) *side, counts func() map[string]int, badTweak func(*metav1.ListOptions)) []string {
	errs := testenv.CaptureErrors(t)
	var out []string
	say := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	quick := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, 300*time.Millisecond) }
	waitSay := func(s *side, when string) {
		wctx, cancel := quick()
		defer cancel()
		synced, err := s.waitForCacheSync(wctx)
		say("%s: WaitForCacheSyncWithContext → %v, AsError %q", when, sortedMap(synced), err)
	}

	s := newSide(options{})
	waitSay(s, "nothing requested")
	s.informer("pods")
	waitSay(s, "pods requested, not started")

	runCtx, stop := context.WithCancel(ctx)
	s.start(runCtx)
	waitSay(s, "after Start")
	say("after Start: requests %v, errors %q", sortedMap(counts()), errs.Take())

	configMaps := s.informer("configmaps")
	say("configmaps requested after Start: HasSynced %v, IsStopped %v", configMaps.HasSynced(), configMaps.IsStopped())
	waitSay(s, "configmaps requested after Start")

	s.start(runCtx)
	waitSay(s, "after the second Start")
	ended, end := context.WithCancelCause(ctx)
	end(errors.New("the test ended this context before the wait"))
	synced, err := s.waitForCacheSync(ended)
	say("everything started has synced, a wait with an ended context → %v, AsError %q", sortedMap(synced), err)
	stopCh := make(chan struct{})
	s.startStopCh(stopCh)
	say("after a second and a third Start: requests %v, errors %q", sortedMap(counts()), errs.Take())

	stop()
	s.shutdown()
	say("after cancel and Shutdown: pods IsStopped %v, configmaps IsStopped %v", s.informer("pods").IsStopped(), configMaps.IsStopped())

	services := s.informer("services")
	s.start(ctx)
	s.startStopCh(stopCh)
	close(stopCh)
	say("services requested after Shutdown, then Start twice: HasSynced %v, IsStopped %v, requests %v",
		services.HasSynced(), services.IsStopped(), sortedMap(counts()))
	closed := make(chan struct{})
	close(closed)
	say("WaitForCacheSync(closed channel) after Shutdown → %v", sortedMap(s.waitForCacheSyncStopCh(closed)))
	done := make(chan struct{})
	go func() { s.shutdown(); close(done) }()
	select {
	case <-done:
		say("Shutdown again: returned")
	case <-time.After(5 * time.Second):
		say("Shutdown again: still waiting after 5s")
	}

	// A factory whose pods informer can never sync.
	bad := newSide(options{tweak: badTweak})
	bad.informer("pods")
	badCtx, badStop := context.WithCancel(ctx)
	bad.start(badCtx)
	waitSay(bad, "an informer that cannot sync")
	badStop()
	bad.shutdown()
	say("after cancel and Shutdown: pods IsStopped %v; errors reported meanwhile: %v", bad.informer("pods").IsStopped(), len(errs.Take()) > 0)
	return out
}

// sortedMap renders a map with sorted keys, for lines that compare.
func sortedMap[V any](m map[string]V) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s:%v", k, m[k]))
	}
	return "{" + strings.Join(parts, " ") + "}"
}
