// Not a mirror of client-go: the demo steps for the LIST then WATCH path of
// tools/cache/reflector.go (Reflector.list, Reflector.watch), and the 410.

package main

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	reflector "informer-from-scratch/02-reflector"
	"informer-from-scratch/internal/reqlog"
)

// listThenWatch runs a reflector with WatchList off: the classic LIST, then
// WATCH from the list's resourceVersion; then shows watch events becoming
// store calls, and a 410 forcing a relist.
func (s *script) listThenWatch() error {
	s.tl.Step("A reflector with LIST, then WATCH",
		`The first LIST asks for resourceVersion=0: "whatever you have", which an apiserver with a watch cache`,
		"serves from memory. Its answer goes to the store in one Replace. Then a WATCH from the list's",
		"resourceVersion, with bookmarks allowed and a random timeout between 5 and 10 minutes.")
	mark := s.requests.mark()
	run := s.start(reflector.ReflectorOptions{Name: "list-watch", UseWatchList: ptr.To(false)})
	if _, err := s.waitStore(run, 0, "the first Replace", op("Replace")); err != nil {
		return err
	}
	if err := s.waitRequest(mark, "the first WATCH", isWatch); err != nil {
		return err
	}
	s.showRV(run)

	if !s.env.Writes {
		s.tl.Step("Watch for five seconds",
			"On a real cluster the demo changes nothing: whatever pods change meanwhile arrives as events.",
			"Skipped here (they write): creating and deleting pods, and the forced 410 with an etcd compaction.")
		select { // a Ctrl-C need not wait the five seconds out
		case <-time.After(5 * time.Second):
		case <-s.env.Ctx.Done():
		}
		s.showRV(run)
		return s.stop(run)
	}
	if err := s.changesBecomeStoreCalls(run); err != nil {
		return err
	}
	if s.env.Cluster == nil {
		s.tl.Step("Skipped: the forced 410",
			"It needs an etcd compaction, which only the playground allows.")
	} else if err := s.expiredThenRelist(run); err != nil {
		return err
	}
	s.tl.Step("Stop the reflector", "Cancelling its context ends the watch, the resync timer and the retry loop.")
	return s.stop(run)
}

// changesBecomeStoreCalls makes three changes and waits for each store call.
func (s *script) changesBecomeStoreCalls(run *running) error {
	s.tl.Step("Changes arrive as watch events, and become store calls",
		"ADDED → Add, MODIFIED → Update, DELETED → Delete. Each event's resourceVersion becomes the",
		"reflector's LastSyncResourceVersion: where the next watch will start if this one ends.")
	changes := []struct {
		do   func() error
		want func(storeCall) bool
		what string
	}{
		{func() error { return s.create("web-4") }, opOn("Add", s.ns+"/web-4"), "Add web-4"},
		{func() error { return s.label("web-1") }, opOn("Update", s.ns+"/web-1"), "Update web-1"},
		{func() error { return s.delete("web-2") }, opOn("Delete", s.ns+"/web-2"), "Delete web-2"},
	}
	for _, c := range changes {
		mark := run.store.calls.mark()
		if err := c.do(); err != nil {
			return err
		}
		if _, err := s.waitStore(run, mark, c.what, c.want); err != nil {
			return err
		}
	}
	s.tl.Note("A deleted pod first gets a deletionTimestamp (MODIFIED → Update), then goes (DELETED → Delete).")
	s.showRV(run)
	return nil
}

// expiredThenRelist cuts the reflector's connection, changes pods and
// compacts etcd meanwhile, then lets it reconnect: its watch from the old
// resourceVersion gets 410 Expired, and it lists again.
func (s *script) expiredThenRelist(run *running) error {
	s.tl.Step("Lose the connection while etcd forgets: 410 Expired, then a relist",
		"The watch drops; while the reflector is away, pods change and etcd compacts its history.",
		"Its next watch asks for changes after a resourceVersion etcd no longer has: the server answers",
		"410 Expired. No event stream can fill that gap, so the reflector lists again, after a backoff.")
	before := run.r.LastSyncResourceVersion()
	run.link.Cut()
	s.tl.Event("demo", "CUT", "the reflector's connection", "its watch ends; its next watch request waits")
	if err := s.create("web-5"); err != nil {
		return err
	}
	if err := s.delete("web-3"); err != nil {
		return err
	}
	rev, err := s.env.Cluster.Compact(s.env.Ctx)
	if err != nil {
		return err
	}
	s.tl.Event("demo", "COMPACT", "etcd", fmt.Sprintf("history before revision %d is gone; the reflector is at %s", rev, before))

	events, calls, requests := run.events.mark(), run.store.calls.mark(), s.requests.mark()
	run.link.Restore()
	s.tl.Event("demo", "RESTORE", "the reflector's connection", "the waiting watch request goes out")
	if _, err := run.events.waitFor(s.env.Ctx, events, "the 410", func(e watch.Event) bool { return e.Type == watch.Error }); err != nil {
		return err
	}
	expiredAt := time.Now()
	if err := s.waitRequest(requests, "the relist", func(r reqlog.Request) bool { return !isWatch(r) }); err != nil {
		return err
	}
	pause := time.Since(expiredAt)
	if _, err := s.waitStore(run, calls, "the Replace of the relist", op("Replace")); err != nil {
		return err
	}
	if err := s.waitRequest(requests+1, "the watch after the relist", isWatch); err != nil {
		return err
	}
	s.tl.Note("The LIST went out %.1fs after the 410: the backoff between two rounds (800ms at first, up to", pause.Seconds())
	s.tl.Note("twice that with jitter). It asks for resourceVersion=%s, the last one the reflector saw:", before)
	s.tl.Note(`"at least this new" is something the server can still answer from its current state.`)
	s.tl.Note("Paging is off for it, so an apiserver with a watch cache can serve it from memory.")
	s.tl.Note("The Replace brought in web-5 and dropped web-3: the changes no event ever announced.")
	s.tl.Note("Store now: %s", strings.Join(run.store.content(), " "))
	s.showRV(run)
	return nil
}
