package reflector_test

// What the scripted tests record: every request, store call and reported
// error of one reflector, in order, with its virtual time.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	reflector "informer-from-scratch/02-reflector"
)

// entry is one thing a reflector did: a request it sent (with its options),
// a call it made on its store, or an error it reported.
type entry struct {
	// At is the virtual time since the start. With the jittered backoff it
	// is checked against the backoff's range, then cleared.
	At   time.Duration
	Call string
	Opts *metav1.ListOptions
	Arg  string
}

func (e entry) String() string {
	s := fmt.Sprintf("%8v %-11s", e.At, e.Call)
	if o := e.Opts; o != nil {
		s += fmt.Sprintf(" rv=%q", o.ResourceVersion)
		if o.ResourceVersionMatch != "" {
			s += " match=" + string(o.ResourceVersionMatch)
		}
		if o.Limit != 0 {
			s += fmt.Sprintf(" limit=%d", o.Limit)
		}
		if o.Continue != "" {
			s += " continue=" + o.Continue
		}
		if o.AllowWatchBookmarks {
			s += " allowWatchBookmarks"
		}
		if o.SendInitialEvents != nil {
			s += fmt.Sprintf(" sendInitialEvents=%v", *o.SendInitialEvents)
		}
	}
	return s + " " + e.Arg
}

// diffLog compares two logs line by line, as logString prints them, so that
// a difference reads like the logs printed below it: "-" lines only
// client-go's reflector did, "+" lines only ours did, with two lines of
// context. It returns "" if every line agrees.
func diffLog(want, got []entry) string {
	a, b := lines(want), lines(got)
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:]; the logs are short.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []string // each line with its mark: ' ', '-' or '+'
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, "  "+a[i])
			i, j = i+1, j+1
		case j == len(b) || (i < len(a) && lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, "- "+a[i])
			i++
		default:
			ops = append(ops, "+ "+b[j])
			j++
		}
	}
	const context = 2
	var out strings.Builder
	changed := false
	for k, op := range ops {
		near := false
		for d := -context; d <= context; d++ {
			if k+d >= 0 && k+d < len(ops) && ops[k+d][0] != ' ' {
				near = true
			}
		}
		switch {
		case op[0] != ' ':
			changed = true
			out.WriteString(op + "\n")
		case near:
			out.WriteString(op + "\n")
		case k == 0 || ops[k-1][0] != ' ' || isNear(ops, k-1, context):
			out.WriteString("  ...\n")
		}
	}
	if !changed {
		return ""
	}
	return out.String()
}

// isNear reports whether ops[k] is within context lines of a change.
func isNear(ops []string, k, context int) bool {
	for d := -context; d <= context; d++ {
		if k+d >= 0 && k+d < len(ops) && ops[k+d][0] != ' ' {
			return true
		}
	}
	return false
}

// diffEntries is diffLog, or, should the lines agree, cmp.Diff of the
// entries in full.
func diffEntries(want, got []entry) string {
	if d := diffLog(want, got); d != "" {
		return d
	}
	return cmp.Diff(want, got)
}

func lines(log []entry) []string {
	out := make([]string, len(log))
	for i, e := range log {
		out[i] = e.String()
	}
	return out
}

// recorder collects entries from every goroutine of one reflector.
type recorder struct {
	mu      sync.Mutex
	start   time.Time
	closed  bool
	entries []entry
}

func newRecorder() *recorder { return &recorder{start: time.Now()} }

func (r *recorder) add(e entry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	e.At = time.Since(r.start)
	r.entries = append(r.entries, e)
}

// close stops recording: what a reflector does while it is being stopped is
// not part of the comparison.
func (r *recorder) close() []entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	return slices.Clone(r.entries)
}

// recStore records every call and keeps the content, so tests can compare
// both what was called and what the store ends up holding.
type recStore struct {
	rec         *recorder
	mu          sync.Mutex
	items       map[string]string // key → resourceVersion
	failReplace int
	failResync  int
	resyncs     int
}

func newRecStore(sc scenario, rec *recorder) *recStore {
	return &recStore{rec: rec, items: map[string]string{}, failReplace: sc.failReplace, failResync: sc.failResyncAt}
}

func describe(obj any) (key, rv string) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("<%T without metadata>", obj), ""
	}
	key = m.GetName()
	if m.GetNamespace() != "" {
		key = m.GetNamespace() + "/" + key
	}
	rv = m.GetResourceVersion()
	if n := m.GetAnnotations()[transformedAnnotation]; n != "" {
		rv += " transformed×" + n
	}
	return key, rv
}

func (s *recStore) call(name string, obj any, apply func(key, rv string)) error {
	key, rv := describe(obj)
	s.rec.add(entry{Call: name, Arg: key + "@" + rv})
	if strings.HasPrefix(key, "ns/fail-") {
		return fmt.Errorf("store refuses %s", key)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	apply(key, rv)
	return nil
}

func (s *recStore) Add(obj any) error {
	return s.call("Add", obj, func(k, rv string) { s.items[k] = rv })
}

func (s *recStore) Update(obj any) error {
	return s.call("Update", obj, func(k, rv string) { s.items[k] = rv })
}

func (s *recStore) Delete(obj any) error {
	return s.call("Delete", obj, func(k, _ string) { delete(s.items, k) })
}

// Replace records the items sorted: a WatchList reflector hands them over
// in map order.
func (s *recStore) Replace(list []any, rv string) error {
	var items []string
	for _, obj := range list {
		k, v := describe(obj)
		items = append(items, k+"@"+v)
	}
	slices.Sort(items)
	s.rec.add(entry{Call: "Replace", Arg: fmt.Sprintf("%v rv=%s", items, rv)})
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failReplace > 0 {
		s.failReplace--
		return fmt.Errorf("store refuses Replace")
	}
	s.items = map[string]string{}
	for _, obj := range list {
		k, v := describe(obj)
		s.items[k] = v
	}
	return nil
}

func (s *recStore) Resync() error {
	s.rec.add(entry{Call: "Resync"})
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resyncs++
	if s.resyncs == s.failResync {
		return fmt.Errorf("store refuses Resync #%d", s.resyncs)
	}
	return nil
}

func (s *recStore) content() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return copyMap(s.items)
}

func copyMap(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// transformedAnnotation counts how many times recStore.transform saw an
// object; describe shows it, so the log says which objects reached the
// store transformed, and how often.
const transformedAnnotation = "test/transformed"

// transform is the TransformFunc of a transformingStore. It records the
// call, and returns a copy with one more transform counted and, like a real
// transform, without managedFields. Objects named fail-transform-* fail.
func (s *recStore) transform(obj any) (any, error) {
	key, rv := describe(obj)
	s.rec.add(entry{Call: "Transform", Arg: key + "@" + rv})
	if strings.HasPrefix(key, "ns/fail-transform-") {
		return nil, fmt.Errorf("transform refuses %s", key)
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	pod = pod.DeepCopy()
	n, _ := strconv.Atoi(pod.Annotations[transformedAnnotation])
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations[transformedAnnotation] = strconv.Itoa(n + 1)
	pod.ManagedFields = nil
	return pod, nil
}

// A transformingStore for each side: the TransformFunc types differ
// (client-go's is a defined type, ours an alias), so one value cannot be
// both.
type clientGoTransformingRecStore struct{ *recStore }

func (s clientGoTransformingRecStore) Transformer() cache.TransformFunc { return s.transform }

type ourTransformingRecStore struct{ *recStore }

func (s ourTransformingRecStore) Transformer() reflector.TransformFunc { return s.transform }

type bookmarkRecStore struct{ *recStore }

func (s bookmarkRecStore) Bookmark(rv string) error {
	s.rec.add(entry{Call: "Bookmark", Arg: rv})
	if rv == "99" {
		return fmt.Errorf("store refuses bookmark 99")
	}
	return nil
}

type rvUpdaterRecStore struct{ *recStore }

func (s rvUpdaterRecStore) UpdateResourceVersion(rv string) {
	s.rec.add(entry{Call: "UpdateResourceVersion", Arg: rv})
}

// storeFor wraps s as the scenario asks, for one side; every value
// satisfies both packages' ReflectorStore (and Bookmark/ResourceVersionUpdater
// interfaces), and a transformingStore the side's TransformingStore.
func storeFor(sd side, sc scenario, s *recStore) interface {
	reflector.ReflectorStore
	cache.ReflectorStore
} {
	switch sc.store {
	case bookmarkStore:
		return bookmarkRecStore{s}
	case rvUpdaterStore:
		return rvUpdaterRecStore{s}
	case transformingStore:
		if sd == clientGo {
			return clientGoTransformingRecStore{s}
		}
		return ourTransformingRecStore{s}
	}
	return s
}
