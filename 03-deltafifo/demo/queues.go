// The queue side of the demo: one DeltaFIFO and one RealFIFO fed the same
// writes, and a consumer for each that plays the informer's part
// (tools/cache/controller.go: processDeltas, processReplacedAllInfo).

package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"

	deltafifo "informer-from-scratch/03-deltafifo"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

// queues feeds every event to a DeltaFIFO set up as client-go's informer
// used to (KnownObjects, EmitDeltaTypeReplaced) and to a RealFIFO set up as
// it does today (AtomicEvents, bookmarks, unlocked processing), and plays
// the consumer of each: a cache of what it has seen, like the informer's
// Indexer (stage 04).
type queues struct {
	tl    *timeline.Timeline
	delta *deltafifo.DeltaFIFO
	real  *deltafifo.RealFIFO
	// What each consumer has seen, by key. The DeltaFIFO reads its
	// consumer's cache (KnownObjects); the RealFIFO never does.
	deltaCache, realCache cache
	// fed lists the resourceVersions fed since the last drain, in order.
	fed []string
	// deltaPops and realPops count the Pops of the last drain.
	deltaPops, realPops int
}

func newQueues(tl *timeline.Timeline) *queues {
	q := &queues{tl: tl, deltaCache: cache{}, realCache: cache{}}
	q.delta = deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
		KnownObjects:          q.deltaCache,
		EmitDeltaTypeReplaced: true,
	})
	q.real = deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{
		AtomicEvents:          true,
		EmitDeltaTypeBookmark: true,
		UnlockWhileProcessing: true,
	})
	// A closed queue still takes every write; only a Pop on an EMPTY closed
	// queue returns ErrFIFOClosed instead of blocking. That lets the demo
	// pop "until empty" on one goroutine, where an informer would block.
	q.delta.Close()
	q.real.Close()
	return q
}

// cache is a consumer's store: key → object. It is also the DeltaFIFO's
// KnownObjects (ListKeys, GetByKey).
type cache map[string]interface{}

func (c cache) ListKeys() []string {
	keys := make([]string, 0, len(c))
	for k := range c {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (c cache) GetByKey(key string) (interface{}, bool, error) {
	obj, ok := c[key]
	return obj, ok, nil
}

func (c cache) String() string {
	var parts []string
	for _, k := range c.ListKeys() {
		parts = append(parts, shortName(c[k])+"@"+rv(c[k]))
	}
	return strings.Join(parts, " ")
}

// each feeds one write to both queues.
func (q *queues) each(what string, toDelta, toReal func() error) error {
	if err := toDelta(); err != nil {
		return fmt.Errorf("DeltaFIFO %s: %w", what, err)
	}
	if err := toReal(); err != nil {
		return fmt.Errorf("RealFIFO %s: %w", what, err)
	}
	return nil
}

func (q *queues) add(obj interface{}) error {
	q.fed = append(q.fed, rv(obj))
	return q.each("Add", func() error { return q.delta.Add(obj) }, func() error { return q.real.Add(obj) })
}

func (q *queues) update(obj interface{}) error {
	q.fed = append(q.fed, rv(obj))
	return q.each("Update", func() error { return q.delta.Update(obj) }, func() error { return q.real.Update(obj) })
}

func (q *queues) delete(obj interface{}) error {
	q.fed = append(q.fed, rv(obj))
	return q.each("Delete", func() error { return q.delta.Delete(obj) }, func() error { return q.real.Delete(obj) })
}

func (q *queues) replace(list []interface{}, resourceVersion string) error {
	return q.each("Replace", func() error { return q.delta.Replace(list, resourceVersion) },
		func() error { return q.real.Replace(list, resourceVersion) })
}

func (q *queues) resync() error {
	return q.each("Resync", q.delta.Resync, q.real.Resync)
}

// drain pops both queues until they are empty, applies what comes out to
// each consumer's cache, and prints the two Pop sequences side by side.
func (q *queues) drain() error {
	left, gaps, err := q.drainDelta()
	if err != nil {
		return err
	}
	right, pops, err := q.drainReal()
	if err != nil {
		return err
	}
	q.deltaPops, q.realPops = len(left), pops
	// Padded by columns, not by bytes or runes: the header may be Chinese.
	q.tl.Note(sayTableRow, lang.Pad(q.tl.Sprintf(sayDeltaPop), 48), sayRealPop)
	q.tl.Note(sayTableRule, strings.Repeat("─", 49), strings.Repeat("─", 40))
	for i := range max(len(left), len(right)) {
		q.tl.Note(sayTableRow, lang.Pad(at(left, i), 48), at(right, i))
	}
	if gaps {
		q.tl.Note(sayGap)
	}
	q.fed = nil
	return nil
}

func at(rows []string, i int) string {
	if i < len(rows) {
		return rows[i]
	}
	return ""
}

func (q *queues) drainDelta() (rows []string, gaps bool, err error) {
	applied := map[string]bool{}
	for {
		var row string
		_, err := q.delta.Pop(func(obj interface{}, initial bool) error {
			deltas := obj.(deltafifo.Deltas)
			var parts []string
			for _, d := range deltas {
				parts = append(parts, describeDelta(d))
				applied[rv(d.Object)] = true
				q.deltaCache.apply(d)
			}
			row = fmt.Sprintf("%-6s %s", shortName(deltas.Newest().Object), strings.Join(parts, " "))
			if initial {
				row += " (initial)"
			}
			return nil
		})
		if errors.Is(err, deltafifo.ErrFIFOClosed) {
			return rows, gaps, nil
		}
		if err != nil {
			return nil, false, err
		}
		if gap := q.firstGap(applied); gap != "" {
			row = fmt.Sprintf("%-37s (gap: %s)", row, gap)
			gaps = true
		}
		rows = append(rows, row)
	}
}

// firstGap returns the oldest resourceVersion fed since the last drain that
// the consumer has not applied although it applied a newer one.
func (q *queues) firstGap(applied map[string]bool) string {
	newest := -1
	for i, v := range q.fed {
		if applied[v] {
			newest = i
		}
	}
	for _, v := range q.fed[:newest+1] {
		if !applied[v] {
			return v
		}
	}
	return ""
}

func (q *queues) drainReal() (rows []string, pops int, err error) {
	for ; ; pops++ {
		_, err := q.real.Pop(func(obj interface{}, initial bool) error {
			d := obj.(deltafifo.Deltas)[0]
			row := describeDelta(d)
			if name := shortName(d.Object); name != "" {
				row = fmt.Sprintf("%-6s %s", name, row)
			}
			if initial {
				row += " (initial)"
			}
			rows = append(rows, row)
			consumer, err := q.realCache.applyAtomic(d, q.tl.Language())
			rows = append(rows, consumer...)
			return err
		})
		if errors.Is(err, deltafifo.ErrFIFOClosed) {
			return rows, pops, nil
		}
		if err != nil {
			return nil, 0, err
		}
	}
}

// apply files one delta in the cache, as the informer does.
func (c cache) apply(d deltafifo.Delta) {
	key, _ := deltafifo.DeletionHandlingMetaNamespaceKeyFunc(d.Object)
	if d.Type == deltafifo.Deleted {
		delete(c, key)
		return
	}
	c[key] = d.Object
}

// applyAtomic handles what only a RealFIFO hands out, as client-go's
// processDeltas does (controller.go), and returns lines saying what the
// consumer did. For a ReplacedAll it is the consumer that finds the
// deletions: ReconcileReplacement against its own cache. The lines are in
// language l.
func (c cache) applyAtomic(d deltafifo.Delta, l string) ([]string, error) {
	switch info := d.Object.(type) {
	case deltafifo.ReplacedAllInfo:
		var lines []string
		err := deltafifo.ReconcileReplacement(nil, c, info.Objects, deltafifo.DeletionHandlingMetaNamespaceKeyFunc,
			func(t deltafifo.DeletedFinalStateUnknown) error {
				lines = append(lines, sayConsumerGone.Sprintf(l, shortName(t.Obj), rv(t.Obj)))
				return nil
			},
			func(interface{}) error { return nil })
		clear(c)
		for _, obj := range info.Objects {
			c.apply(deltafifo.Delta{Type: deltafifo.Replaced, Object: obj})
		}
		return append(lines, sayConsumerReplaced.In(l)), err
	case deltafifo.SyncAllInfo:
		return []string{sayConsumerSync.Sprintf(l, c.String())}, nil
	case deltafifo.BookmarkInfo:
		return nil, nil
	}
	c.apply(d)
	return nil, nil
}

// describeDelta renders a delta as "Updated@12", "Deleted(tombstone)@10",
// "ReplacedAll@20 [web-3 web-4]" or "SyncAll".
func describeDelta(d deltafifo.Delta) string {
	switch o := d.Object.(type) {
	case deltafifo.DeletedFinalStateUnknown:
		return fmt.Sprintf("%s(tombstone)@%s", d.Type, rv(o.Obj))
	case deltafifo.ReplacedAllInfo:
		names := make([]string, len(o.Objects))
		for i, obj := range o.Objects {
			names[i] = shortName(obj)
		}
		return fmt.Sprintf("%s@%s [%s]", d.Type, o.ResourceVersion, strings.Join(names, " "))
	case deltafifo.SyncAllInfo:
		return string(d.Type)
	case deltafifo.BookmarkInfo:
		return string(d.Type) + "@" + o.ResourceVersion
	}
	return string(d.Type) + "@" + rv(d.Object)
}

// shortName is an object's name without its namespace (every object of the
// demo lives in one namespace), or "" for what has no metadata.
func shortName(obj interface{}) string {
	if t, ok := obj.(deltafifo.DeletedFinalStateUnknown); ok {
		_, name, _ := deltafifo.SplitMetaNamespaceKey(t.Key)
		return name
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	return m.GetName()
}

func rv(obj interface{}) string {
	if t, ok := obj.(deltafifo.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return "?"
	}
	return m.GetResourceVersion()
}
