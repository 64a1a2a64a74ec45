// Not a mirror of client-go: the demo steps for the WatchList path of
// tools/cache/reflector.go (Reflector.watchList), resync and bookmarks.

package main

import (
	"time"

	"k8s.io/utils/ptr"

	reflector "informer-from-scratch/02-reflector"
)

// resyncPeriod is short so the demo shows resyncs within seconds; real
// informers use minutes, or 0 (none).
const resyncPeriod = 2 * time.Second

// watchList runs a reflector with WatchList on: one request that streams the
// current state, then carries on as a watch.
func (s *script) watchList() error {
	s.tl.Step(sayWatchListTitle, sayWatchListWhy)
	mark := s.requests.mark()
	run := s.start(reflector.ReflectorOptions{Name: "watch-list", UseWatchList: ptr.To(true), ResyncPeriod: resyncPeriod})
	if _, err := s.waitStore(run, 0, "the Replace at the bookmark", op("Replace")); err != nil {
		return err
	}
	s.tl.Note(sayRequestsSoFar, s.requests.mark()-mark)
	s.showRV(run)

	if s.env.Writes {
		s.tl.Step(sayCarriesOnTitle, sayCarriesOnWhy)
		calls, requests := run.store.calls.mark(), s.requests.mark()
		if err := s.create("web-6"); err != nil {
			return err
		}
		if _, err := s.waitStore(run, calls, "Add web-6", opOn("Add", s.ns+"/web-6")); err != nil {
			return err
		}
		s.tl.Note(sayNewRequests, s.requests.mark()-requests)
		s.showRV(run)
	}

	s.tl.Step(sayResyncTitle, sayResyncWhy)
	calls, requests := run.store.calls.mark(), s.requests.mark()
	first, err := s.waitStore(run, calls, "a Resync", op("Resync"))
	if err != nil {
		return err
	}
	if _, err := s.waitStore(run, calls+1, "a second Resync", func(c storeCall) bool { return c.Op == "Resync" && c.At.After(first.At) }); err != nil {
		return err
	}
	s.tl.Note(sayResyncRequests, s.requests.mark()-requests)

	why := sayPlainBookmarks.Format(len(run.store.bookmarks()))
	if s.env.OnPlayground() {
		why = sayNoWatchCache
	}
	s.tl.Step(sayBookmarksTitle, sayBookmarksWhy.Format(why))
	return s.stop(run)
}
