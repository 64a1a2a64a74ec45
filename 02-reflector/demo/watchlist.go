// Not a mirror of client-go: the demo steps for the WatchList path of
// tools/cache/reflector.go (Reflector.watchList), resync and bookmarks.

package main

import (
	"fmt"
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
	s.tl.Step("A reflector with WatchList streaming (client-go's default since 1.35)",
		"One WATCH with sendInitialEvents=true: the server streams every pod as an ADDED event, then a",
		"BOOKMARK annotated k8s.io/initial-events-end. The reflector gathers the events in a temporary",
		"store and hands them to its store in one Replace at the bookmark; no LIST at all.")
	mark := s.requests.mark()
	run := s.start(reflector.ReflectorOptions{Name: "watch-list", UseWatchList: ptr.To(true), ResyncPeriod: resyncPeriod})
	if _, err := s.waitStore(run, 0, "the Replace at the bookmark", op("Replace")); err != nil {
		return err
	}
	s.tl.Note("%d request(s) so far. The bookmark's resourceVersion is the state's: the reflector's RV now.", s.requests.mark()-mark)
	s.showRV(run)

	if s.env.Writes {
		s.tl.Step("The same stream carries on as a watch",
			"After the bookmark the reflector keeps the stream open: new changes come on it, no new request.")
		calls, requests := run.store.calls.mark(), s.requests.mark()
		if err := s.create("web-6"); err != nil {
			return err
		}
		if _, err := s.waitStore(run, calls, "Add web-6", opOn("Add", s.ns+"/web-6")); err != nil {
			return err
		}
		s.tl.Note("%d new request(s).", s.requests.mark()-requests)
		s.showRV(run)
	}

	s.tl.Step("Resync: the store's Resync every period, with no request",
		"This reflector has a 2s resync period. Resync does not talk to the apiserver: it asks the store to",
		"deliver what it already holds again (stage 03's queue turns that into Sync events), so controllers",
		"can re-check every object now and then. Watch for the missing http rows.")
	calls, requests := run.store.calls.mark(), s.requests.mark()
	first, err := s.waitStore(run, calls, "a Resync", op("Resync"))
	if err != nil {
		return err
	}
	if _, err := s.waitStore(run, calls+1, "a second Resync", func(c storeCall) bool { return c.Op == "Resync" && c.At.After(first.At) }); err != nil {
		return err
	}
	s.tl.Note("%d new request(s) during the resyncs.", s.requests.mark()-requests)

	why := fmt.Sprintf("%d plain bookmark(s) reached the store in this run.", len(run.store.bookmarks()))
	if s.env.OnPlayground() {
		why = "This playground runs without the watch cache (to force the 410), so none came here."
	}
	s.tl.Step("About bookmarks",
		"The initial-events-end bookmark above is the one every WatchList stream ends its state with.",
		"Servers also send plain BOOKMARKs on long watches (with the watch cache on, about once a minute):",
		"they only move the resourceVersion, so a restarted watch does not start from a point etcd has",
		"compacted; a store that implements ReflectorBookmarkStore hears of them. "+why)
	return s.stop(run)
}
