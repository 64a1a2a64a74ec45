package main

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
)

// watchList shows the request client-go's Reflector prefers since 1.35: one
// watch that first streams the current state as ADDED events, marks the end of
// it with a bookmark, and then carries on as an ordinary watch.
func (s *script) watchList(lw *listwatch.ListWatch) error {
	tl := s.env.Timeline
	tl.Step(sayWatchListTitle, sayWatchListWhy)
	w, err := lw.WatchWithContext(s.env.Ctx, metav1.ListOptions{
		SendInitialEvents:    ptr.To(true),
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
		AllowWatchBookmarks:  true,
		TimeoutSeconds:       ptr.To[int64](60),
	})
	if err != nil {
		return fmt.Errorf("WatchList: %w", err)
	}
	defer w.Stop()

	initial := 0
	for {
		select {
		case <-s.env.Ctx.Done():
			return s.env.Ctx.Err()
		case <-time.After(30 * time.Second):
			return fmt.Errorf("no initial-events-end bookmark within 30s")
		case ev, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("the server closed the WatchList stream before the initial events ended")
			}
			if ev.Type == watch.Added && (s.env.Writes || initial < 10) {
				if err := s.printEvent(ev); err != nil {
					return err
				}
			} else if err := s.printEventIfNotAdded(ev); err != nil {
				return err
			}
			if ev.Type == watch.Added {
				initial++
				continue
			}
			if ev.Type == watch.Bookmark {
				tl.Note(sayInitialEvents, initial)
				return s.afterBookmark(w)
			}
		}
	}
}

func (s *script) printEventIfNotAdded(ev watch.Event) error {
	if ev.Type == watch.Added {
		return nil
	}
	return s.printEvent(ev)
}

// afterBookmark shows that the same stream carries on as a normal watch.
func (s *script) afterBookmark(w watch.Interface) error {
	if !s.env.Writes {
		s.env.Timeline.Note(sayWatchingMore)
		return s.printEvents(w, 5*time.Second)
	}
	s.env.Timeline.Note(sayCarriesOn)
	if err := s.createPod("web-7"); err != nil {
		return err
	}
	return s.printEventsUntil(w, watch.Added, "web-7", 10*time.Second)
}
