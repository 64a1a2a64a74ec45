// Not a mirror of client-go: the Indexer as the Reflector sees it, wrapped
// to print a "cache" row for each write (the calls client-go's Reflector
// makes on its store in tools/cache/reflector.go) and to let the demo wait
// for them.

package main

import (
	"slices"

	"k8s.io/apimachinery/pkg/api/meta"

	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
	"informer-from-scratch/internal/timeline"
)

// loggingStore is the Indexer as the Reflector sees it, with a "cache" row on
// the timeline for every write, and a signal for the demo to wait on.
type loggingStore struct {
	indexer.Indexer
	tl *timeline.Timeline
	// writes receives the key and resourceVersion of every write, and ""
	// for a Replace. The demo waits on it; nothing blocks if it does not.
	writes chan write
}

type write struct {
	op, key, rv string
}

func newLoggingStore(idx indexer.Indexer, tl *timeline.Timeline) *loggingStore {
	return &loggingStore{Indexer: idx, tl: tl, writes: make(chan write, 1024)}
}

func (s *loggingStore) Add(obj interface{}) error { return s.logged("ADD", obj, s.Indexer.Add) }
func (s *loggingStore) Update(obj interface{}) error {
	return s.logged("UPDATE", obj, s.Indexer.Update)
}
func (s *loggingStore) Delete(obj interface{}) error {
	return s.logged("DELETE", obj, s.Indexer.Delete)
}

func (s *loggingStore) Replace(list []interface{}, rv string) error {
	n := len(list)
	if err := s.Indexer.Replace(list, rv); err != nil {
		return err
	}
	s.tl.EventAbout(nil, "cache", "REPLACE", sayPods.Format(n), "rv="+rv, sayWholeState)
	s.signal(write{op: "REPLACE", rv: rv})
	return nil
}

func (s *loggingStore) logged(op string, obj interface{}, do func(interface{}) error) error {
	if err := do(obj); err != nil {
		return err
	}
	key, _ := deltafifo.DeletionHandlingMetaNamespaceKeyFunc(obj)
	rv := ""
	if m, err := meta.Accessor(obj); err == nil {
		rv = m.GetResourceVersion()
	}
	s.tl.Event("cache", op, key, "rv="+rv)
	s.signal(write{op: op, key: key, rv: rv})
	return nil
}

func (s *loggingStore) signal(w write) {
	select {
	case s.writes <- w:
	default: // the demo is not listening; never hold up the Reflector
	}
}

// sortedKeys returns the keys of items, sorted, for printing.
func sortedKeys(items []interface{}) []string {
	var keys []string
	for _, item := range items {
		key, _ := deltafifo.MetaNamespaceKeyFunc(item)
		keys = append(keys, key)
	}
	slices.Sort(keys)
	return keys
}
