// Not a mirror of client-go: the demo's ReflectorStore (the interface of
// tools/cache/reflector.go), which prints every call it receives.

package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"

	reflector "informer-from-scratch/02-reflector"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

// storeCall is one call the reflector made on the store.
type storeCall struct {
	Op  string // Add, Update, Delete, Replace, Resync, Bookmark
	Key string // namespace/name, for Add, Update and Delete
	RV  string
	At  time.Time
}

// printStore is the reflector's store in this demo: it prints every call it
// receives on the timeline and keeps namespace/name → resourceVersion, so
// the demo can show what the store holds.
type printStore struct {
	tl    *timeline.Timeline
	calls *history[storeCall]
	// quiet stops printing Add/Update/Delete rows (a real cluster can be
	// busy); Replace, Resync and Bookmark are always printed.
	quiet bool

	mu    sync.Mutex
	items map[string]string
	// added and removed are the keys the last Replace brought in and
	// dropped: the changes no event announced.
	added, removed []string
}

var (
	_ reflector.ReflectorStore         = &printStore{}
	_ reflector.ReflectorBookmarkStore = &printStore{}
)

func newPrintStore(tl *timeline.Timeline) *printStore {
	return &printStore{tl: tl, calls: newHistory[storeCall](), items: map[string]string{}}
}

func keyOf(obj any) (key, rv string, err error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", "", fmt.Errorf("store: %T has no metadata: %w", obj, err)
	}
	return m.GetNamespace() + "/" + m.GetName(), m.GetResourceVersion(), nil
}

// record prints a call's row (on a real cluster, only those of the whole
// store), and keeps it. The row's object is key, or words when key is ""
// (a count: "3 objects").
func (s *printStore) record(op, key string, objects lang.Text, rv, detail string, why ...lang.Text) {
	if !s.quiet || op == "Replace" || op == "Resync" || op == "Bookmark" {
		if key == "" {
			s.tl.EventAbout(nil, "store", op, objects, detail, why...)
		} else {
			s.tl.Event("store", op, key, detail, why...)
		}
	}
	s.calls.add(storeCall{Op: op, Key: key, RV: rv, At: time.Now()})
}

func (s *printStore) Add(obj any) error    { return s.set("Add", obj) }
func (s *printStore) Update(obj any) error { return s.set("Update", obj) }

func (s *printStore) set(op string, obj any) error {
	key, rv, err := keyOf(obj)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.items[key] = rv
	s.mu.Unlock()
	s.record(op, key, lang.Text{}, rv, "rv="+rv)
	return nil
}

func (s *printStore) Delete(obj any) error {
	key, rv, err := keyOf(obj)
	if err != nil {
		return err
	}
	s.mu.Lock()
	delete(s.items, key)
	s.mu.Unlock()
	s.record("Delete", key, lang.Text{}, rv, "rv="+rv)
	return nil
}

// Replace swaps the whole content. It prints what appeared and what
// disappeared compared to before: the changes the reflector did not see as
// events.
func (s *printStore) Replace(list []any, rv string) error {
	items := map[string]string{}
	for _, obj := range list {
		key, itemRV, err := keyOf(obj)
		if err != nil {
			return err
		}
		items[key] = itemRV
	}
	s.mu.Lock()
	before := s.items
	s.items = items
	s.added, s.removed = changedKeys(before, items)
	s.mu.Unlock()
	s.record("Replace", "", sayObjects.Format(len(items)), rv, "rv="+rv, diffSummary(before, items)...)
	return nil
}

func (s *printStore) Resync() error {
	s.mu.Lock()
	n := len(s.items)
	s.mu.Unlock()
	s.record("Resync", "", sayObjects.Format(n), "", "", sayResyncRow)
	return nil
}

func (s *printStore) Bookmark(rv string) error {
	s.record("Bookmark", "-", lang.Text{}, rv, "rv="+rv)
	return nil
}

// bookmarks returns the resourceVersions of the Bookmark calls so far.
func (s *printStore) bookmarks() []string {
	s.calls.mu.Lock()
	defer s.calls.mu.Unlock()
	var rvs []string
	for _, c := range s.calls.items {
		if c.Op == "Bookmark" {
			rvs = append(rvs, c.RV)
		}
	}
	return rvs
}

// content lists what the store holds, sorted.
func (s *printStore) content() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for k, rv := range s.items {
		out = append(out, fmt.Sprintf("%s@%s", k, rv))
	}
	sort.Strings(out)
	return out
}

// lastReplaced is what the last Replace brought in and dropped.
func (s *printStore) lastReplaced() (added, removed []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.added, s.removed
}

// changedKeys are the keys in after and not before, and the other way
// round, sorted.
func changedKeys(before, after map[string]string) (added, removed []string) {
	for k := range after {
		if _, ok := before[k]; !ok {
			added = append(added, k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			removed = append(removed, k)
		}
	}
	sort.Strings(added)
	sort.Strings(removed)
	return added, removed
}

// diffSummary says which keys a Replace added or removed: nothing for the
// first Replace.
func diffSummary(before, after map[string]string) []lang.Text {
	if len(before) == 0 {
		return nil
	}
	added, removed := changedKeys(before, after)
	var parts []lang.Text
	if len(added) > 0 {
		parts = append(parts, sayNewKeys.Format(short(added)))
	}
	if len(removed) > 0 {
		parts = append(parts, sayGoneKeys.Format(short(removed)))
	}
	if len(parts) == 0 {
		return []lang.Text{saySameKeys}
	}
	return parts
}

// short is keys as a list, the first five of them and how many more.
func short(keys []string) lang.Text {
	if len(keys) > 5 {
		return sayAndMore.Format(strings.Join(keys[:5], ", "), len(keys)-5)
	}
	return sayKeys.Format(strings.Join(keys, ", "))
}
