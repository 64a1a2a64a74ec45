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
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/reqlog"
)

// listThenWatch runs a reflector with WatchList off: the classic LIST, then
// WATCH from the list's resourceVersion; then shows watch events becoming
// store calls, and a 410 forcing a relist.
func (s *script) listThenWatch() error {
	s.tl.Step(sayListWatchTitle, sayListWatchWhy)
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
		s.tl.Step(sayWatchOnlyTitle, sayWatchOnlyWhy)
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
		s.tl.Step(sayNo410Title, sayNo410Why)
	} else if err := s.expiredThenRelist(run); err != nil {
		return err
	}
	s.tl.Step(sayStopTitle, sayStopWhy)
	return s.stop(run)
}

// changesBecomeStoreCalls makes three changes and waits for each store call.
func (s *script) changesBecomeStoreCalls(run *running) error {
	s.tl.Step(sayChangesTitle, sayChangesWhy)
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
	s.tl.Note(sayTwoEvents)
	s.showRV(run)
	return nil
}

// expiredThenRelist cuts the reflector's connection, changes pods and
// compacts etcd meanwhile, then lets it reconnect: its watch from the old
// resourceVersion gets 410 Expired, and it lists again.
func (s *script) expiredThenRelist(run *running) error {
	s.tl.Step(sayExpiredTitle, sayExpiredWhy)
	before := run.r.LastSyncResourceVersion()
	run.link.Cut()
	s.tl.EventAbout(nil, "demo", "CUT", sayConnection, "", sayCutWhy)
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
	s.tl.Event("demo", "COMPACT", "etcd", fmt.Sprintf("revision=%d", rev), sayCompactWhy.Format(before))

	events, calls, requests := run.events.mark(), run.store.calls.mark(), s.requests.mark()
	run.link.Restore()
	s.tl.EventAbout(nil, "demo", "RESTORE", sayConnection, "", sayRestoreWhy)
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
	added, removed := run.store.lastReplaced()
	s.tl.Note(sayRelisted, pause.Seconds(), before, keyList(added), keyList(removed), strings.Join(run.store.content(), " "))
	s.showRV(run)
	return nil
}

// keyList is keys as a list in a sentence, their names without the
// namespace ("web-5", "web-3 and web-4"), or a dash for none.
func keyList(keys []string) lang.Text {
	var names []string
	for _, k := range keys {
		names = append(names, k[strings.Index(k, "/")+1:])
	}
	switch len(names) {
	case 0:
		return sayNone
	case 1:
		return sayKeys.Format(names[0])
	}
	return sayAnd.Format(strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
}
