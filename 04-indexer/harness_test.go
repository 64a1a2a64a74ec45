package indexer_test

// The differential harness: the same operations applied to our Indexer and to
// client-go's, and a snapshot of everything each can be asked, compared after
// every step.

import (
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
)

// notAnObject has no metadata: key functions and MetaNamespaceIndexFunc
// must refuse it.
type notAnObject struct{ Name string }

// namedIndexFunc is one index function in both worlds. Most are the same
// function; the namespace index is each side's own MetaNamespaceIndexFunc.
type namedIndexFunc struct {
	name   string
	ours   indexer.IndexFunc
	theirs cache.IndexFunc
}

func same(name string, f func(obj interface{}) ([]string, error)) namedIndexFunc {
	return namedIndexFunc{name: name, ours: f, theirs: f}
}

func asPod(obj interface{}) (*corev1.Pod, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, fmt.Errorf("not a pod: %T", obj)
	}
	return pod, nil
}

// The index functions the differential tests install: single-valued,
// zero-valued (no app label), multi-valued with duplicates (users), and one
// that fails on poisoned pods.
var (
	namespaceIndex = namedIndexFunc{name: indexer.NamespaceIndex, ours: indexer.MetaNamespaceIndexFunc, theirs: cache.MetaNamespaceIndexFunc}
	byNode         = same("byNode", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		return []string{pod.Spec.NodeName}, nil
	})
	byApp = same("byApp", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		if app, ok := pod.Labels["app"]; ok {
			return []string{app}, nil
		}
		return nil, nil
	})
	byUser = same("byUser", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		return strings.Split(pod.Annotations["users"], ","), nil
	})
	byPoison = same("byPoison", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		if pod.Labels["poison"] == "true" {
			return nil, errors.New("poisoned pod")
		}
		return []string{"clean"}, nil
	})
	// Added later by AddIndexers.
	byTier = same("byTier", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		return []string{pod.Labels["tier"]}, nil
	})
	byLabel = same("byLabel", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		var pairs []string
		for k, v := range pod.Labels {
			pairs = append(pairs, k+"="+v)
		}
		return pairs, nil
	})
	byNodeStrict = same("byNodeStrict", func(obj interface{}) ([]string, error) {
		pod, err := asPod(obj)
		if err != nil {
			return nil, err
		}
		if pod.Spec.NodeName == "" {
			return nil, errors.New("pod is not on a node")
		}
		return []string{pod.Spec.NodeName}, nil
	})

	initialIndexFuncs = []namedIndexFunc{namespaceIndex, byNode, byApp, byUser, byPoison}
	// laterIndexFuncs are what AddIndexers picks from; byNode and the
	// namespace index conflict with the initial ones.
	laterIndexFuncs = []namedIndexFunc{byTier, byLabel, byNodeStrict, byNode, namespaceIndex}
)

func oursIndexers(fs ...namedIndexFunc) indexer.Indexers {
	out := indexer.Indexers{}
	for _, f := range fs {
		out[f.name] = f.ours
	}
	return out
}

func theirsIndexers(fs ...namedIndexFunc) cache.Indexers {
	out := cache.Indexers{}
	for _, f := range fs {
		out[f.name] = f.theirs
	}
	return out
}

func newOurs(fs ...namedIndexFunc) indexer.Indexer {
	return indexer.NewIndexer(deltafifo.DeletionHandlingMetaNamespaceKeyFunc, oursIndexers(fs...))
}

func newTheirs(fs ...namedIndexFunc) cache.Indexer {
	return cache.NewIndexer(cache.DeletionHandlingMetaNamespaceKeyFunc, theirsIndexers(fs...))
}

// --- operations ---------------------------------------------------------

type opKind string

const (
	opAdd             opKind = "Add"
	opUpdate          opKind = "Update"
	opDelete          opKind = "Delete"
	opDeleteKey       opKind = "Delete(ExplicitKey)"
	opDeleteTombstone opKind = "Delete(DeletedFinalStateUnknown)"
	opReplace         opKind = "Replace"
	opBookmark        opKind = "Bookmark"
	opAddIndexers     opKind = "AddIndexers"
	opTransaction     opKind = "Transaction"
	opResync          opKind = "Resync"
)

type txn struct {
	typ string // "Add", "Update", "Delete"
	obj interface{}
}

// op is one call on the store, described independently of either side.
type op struct {
	kind     opKind
	obj      interface{}   // Add, Update, Delete; the tombstone's object
	key      string        // ExplicitKey and tombstone deletes
	list     []interface{} // Replace
	rv       string        // Replace, Bookmark
	indexers []namedIndexFunc
	txns     []txn
}

func (o op) String() string {
	switch o.kind {
	case opAdd, opUpdate, opDelete:
		return fmt.Sprintf("%s(%s)", o.kind, describe(o.obj))
	case opDeleteKey, opDeleteTombstone:
		return fmt.Sprintf("%s %q", o.kind, o.key)
	case opReplace:
		var parts []string
		for _, obj := range o.list {
			parts = append(parts, describe(obj))
		}
		return fmt.Sprintf("Replace([%s], %q)", strings.Join(parts, ", "), o.rv)
	case opBookmark:
		return fmt.Sprintf("Bookmark(%q)", o.rv)
	case opAddIndexers:
		var names []string
		for _, f := range o.indexers {
			names = append(names, f.name)
		}
		return fmt.Sprintf("AddIndexers(%v)", names)
	case opTransaction:
		var parts []string
		for _, t := range o.txns {
			parts = append(parts, t.typ+" "+describe(t.obj))
		}
		return fmt.Sprintf("Transaction(%s)", strings.Join(parts, "; "))
	}
	return string(o.kind)
}

func describe(obj interface{}) string {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return fmt.Sprintf("%#v", obj)
	}
	return fmt.Sprintf("%s/%s rv=%s node=%q labels=%v users=%q", pod.Namespace, pod.Name,
		pod.ResourceVersion, pod.Spec.NodeName, pod.Labels, pod.Annotations["users"])
}

// applyOurs runs o on ours and describes the result ("" for success).
func applyOurs(s indexer.Indexer, o op) string {
	switch o.kind {
	case opAdd:
		return errString(s.Add(o.obj))
	case opUpdate:
		return errString(s.Update(o.obj))
	case opDelete:
		return errString(s.Delete(o.obj))
	case opDeleteKey:
		return errString(s.Delete(deltafifo.ExplicitKey(o.key)))
	case opDeleteTombstone:
		return errString(s.Delete(deltafifo.DeletedFinalStateUnknown{Key: o.key, Obj: o.obj}))
	case opReplace:
		return errString(s.Replace(slices.Clone(o.list), o.rv))
	case opBookmark:
		s.Bookmark(o.rv)
		return ""
	case opAddIndexers:
		return errString(s.AddIndexers(oursIndexers(o.indexers...)))
	case opTransaction:
		txns := make([]indexer.Transaction, len(o.txns))
		for i, t := range o.txns {
			txns[i] = indexer.Transaction{Object: t.obj, Type: indexer.TransactionType(t.typ)}
		}
		txnErr := s.(indexer.TransactionStore).Transaction(txns...)
		if txnErr == nil {
			return ""
		}
		return describeTxnErr(txnErr.SuccessfulIndices, txnErr.TotalTransactions, txnErr.Errors, txnErr.Error())
	case opResync:
		return errString(s.Resync())
	}
	panic("unknown op " + o.kind)
}

// applyTheirs runs o on client-go's indexer. panicked is set, with the
// panic's message, when client-go panicked.
func applyTheirs(s cache.Indexer, o op) (result string, panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			result, panicked = fmt.Sprint(r), true
		}
	}()
	switch o.kind {
	case opAdd:
		return errString(s.Add(o.obj)), false
	case opUpdate:
		return errString(s.Update(o.obj)), false
	case opDelete:
		return errString(s.Delete(o.obj)), false
	case opDeleteKey:
		return errString(s.Delete(cache.ExplicitKey(o.key))), false
	case opDeleteTombstone:
		return errString(s.Delete(cache.DeletedFinalStateUnknown{Key: o.key, Obj: o.obj})), false
	case opReplace:
		return errString(s.Replace(slices.Clone(o.list), o.rv)), false
	case opBookmark:
		s.Bookmark(o.rv)
		return "", false
	case opAddIndexers:
		return errString(s.AddIndexers(theirsIndexers(o.indexers...))), false
	case opTransaction:
		txns := make([]cache.Transaction, len(o.txns))
		for i, t := range o.txns {
			txns[i] = cache.Transaction{Object: t.obj, Type: cache.TransactionType(t.typ)}
		}
		txnErr := s.(cache.TransactionStore).Transaction(txns...)
		if txnErr == nil {
			return "", false
		}
		return describeTxnErr(txnErr.SuccessfulIndices, txnErr.TotalTransactions, txnErr.Errors, txnErr.Error()), false
	case opResync:
		return errString(s.Resync()), false
	}
	panic("unknown op " + o.kind)
}

func describeTxnErr(ok []int, total int, errs []error, msg string) string {
	var s []string
	for _, err := range errs {
		s = append(s, err.Error())
	}
	return fmt.Sprintf("TransactionError{SuccessfulIndices: %#v, Total: %d, Errors: %q, Error(): %q}", ok, total, s, msg)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

var indexFailure = regexp.MustCompile(`^unable to calculate an index entry for key "(.*)" on index "(.*)": (.*)$`)

// sameIndexFailure compares client-go's panic with our error. When the op
// indexes many objects (Replace, AddIndexers) and several fail, which one is
// met first depends on map order, on both sides. Then both must be index
// failures, and ours must name a key and index that really fail, with that
// cause: the object is looked up in the Replace list, or in our store (which
// a failed AddIndexers leaves unchanged).
func sameIndexFailure(o op, ours indexer.Indexer, theirsMsg, oursMsg string) bool {
	if theirsMsg == oursMsg {
		return true
	}
	if o.kind != opReplace && o.kind != opAddIndexers {
		return false
	}
	t, u := indexFailure.FindStringSubmatch(theirsMsg), indexFailure.FindStringSubmatch(oursMsg)
	if t == nil || u == nil {
		return false
	}
	key, indexName, cause := u[1], u[2], u[3]
	var obj interface{}
	if o.kind == opReplace {
		for _, item := range o.list {
			if k, err := cache.MetaNamespaceKeyFunc(item); err == nil && k == key {
				obj = item // the last one with this key wins, as in the store
			}
		}
	} else {
		obj, _, _ = ours.GetByKey(key)
	}
	for _, f := range append(slices.Clone(initialIndexFuncs), laterIndexFuncs...) {
		if f.name == indexName && obj != nil {
			_, err := f.theirs(obj)
			return err != nil && err.Error() == cause
		}
	}
	return false
}

// --- generation ---------------------------------------------------------

// chooser is where the randomness comes from: a seeded PRNG in make test,
// the fuzzer's bytes under go test -fuzz.
type chooser interface {
	intn(n int) int
	exhausted() bool
}

type randChooser struct{ r *rand.Rand }

func (c randChooser) intn(n int) int  { return c.r.IntN(n) }
func (c randChooser) exhausted() bool { return false }

type byteChooser struct {
	data []byte
	done bool
}

func (c *byteChooser) intn(n int) int {
	if len(c.data) == 0 {
		c.done = true
		return 0
	}
	b := c.data[0]
	c.data = c.data[1:]
	return int(b) % n
}

func (c *byteChooser) exhausted() bool { return c.done }

func pick[T any](c chooser, from ...T) T { return from[c.intn(len(from))] }

var (
	namespaces = []string{"ns-a", "ns-b", ""} // "" keys by name alone
	podNames   = []string{"p0", "p1", "p2", "p3", "p4"}
	nodes      = []string{"", "node-1", "node-2", "node-3"}
	users      = []string{"", "ann", "ann,bob", "bob,bob", "cy,ann,dee"}
)

// generator makes operations; rv is a resourceVersion that only grows.
type generator struct {
	c  chooser
	rv int
}

func (g *generator) nextRV() string {
	g.rv++
	return strconv.Itoa(g.rv)
}

// pod makes a random pod from a small universe of keys, so operations
// collide. poisonable pods are poisoned one time in twelve.
func (g *generator) pod(poisonable bool) *corev1.Pod {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace:       pick(g.c, namespaces...),
		Name:            pick(g.c, podNames...),
		ResourceVersion: g.nextRV(),
		Labels:          map[string]string{},
	}}
	if app := pick(g.c, "", "web", "db"); app != "" {
		pod.Labels["app"] = app
	}
	if tier := pick(g.c, "", "front", "back"); tier != "" {
		pod.Labels["tier"] = tier
	}
	if u := pick(g.c, users...); u != "" {
		pod.Annotations = map[string]string{"users": u}
	}
	pod.Spec.NodeName = pick(g.c, nodes...)
	if poisonable && g.c.intn(12) == 0 {
		pod.Labels["poison"] = "true"
		// On a node, so that only byPoison fails: the failure is then the
		// same whichever order each side runs its index functions in.
		pod.Spec.NodeName = "node-1"
	}
	return pod
}

func (g *generator) key() string {
	ns, name := pick(g.c, namespaces...), pick(g.c, podNames...)
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

func (g *generator) op() op {
	switch g.c.intn(16) {
	case 0, 1, 2, 3:
		return op{kind: opAdd, obj: g.pod(true)}
	case 4, 5, 6:
		return op{kind: opUpdate, obj: g.pod(true)}
	case 7, 8:
		return op{kind: opDelete, obj: g.pod(false)}
	case 9:
		return op{kind: opDeleteKey, key: g.key()}
	case 10:
		return op{kind: opDeleteTombstone, key: g.key(), obj: g.pod(false)}
	case 11:
		// An object without metadata: a KeyError on both sides.
		return op{kind: pick(g.c, opAdd, opUpdate, opDelete), obj: notAnObject{Name: "x"}}
	case 12:
		o := op{kind: opReplace}
		for range g.c.intn(8) {
			if g.c.intn(20) == 0 {
				o.list = append(o.list, notAnObject{Name: "in-a-list"})
				continue
			}
			o.list = append(o.list, g.pod(true))
		}
		o.rv = g.nextRV()
		return o
	case 13:
		if g.c.intn(2) == 0 {
			return op{kind: opResync}
		}
		return op{kind: opBookmark, rv: g.nextRV()}
	case 14:
		o := op{kind: opAddIndexers}
		for range 1 + g.c.intn(2) {
			f := pick(g.c, laterIndexFuncs...)
			if !slices.ContainsFunc(o.indexers, func(x namedIndexFunc) bool { return x.name == f.name }) {
				o.indexers = append(o.indexers, f)
			}
		}
		return o
	default:
		o := op{kind: opTransaction}
		for range 1 + g.c.intn(4) {
			typ := pick(g.c, "Add", "Update", "Delete")
			var obj interface{} = g.pod(false)
			if g.c.intn(10) == 0 {
				obj = notAnObject{Name: "in-a-txn"}
			}
			o.txns = append(o.txns, txn{typ: typ, obj: obj})
		}
		return o
	}
}

// --- snapshots ----------------------------------------------------------

// view is what both indexers answer with the same method set.
type view interface {
	List() []interface{}
	ListKeys() []string
	Get(obj interface{}) (interface{}, bool, error)
	GetByKey(key string) (interface{}, bool, error)
	Index(indexName string, obj interface{}) ([]interface{}, error)
	IndexKeys(indexName, indexedValue string) ([]string, error)
	ByIndex(indexName, indexedValue string) ([]interface{}, error)
	ListIndexFuncValues(indexName string) []string
	LastStoreSyncResourceVersion() string
}

type getResult struct {
	Item   string
	Exists bool
	Err    string
}

type listResult struct {
	Items []string // items as identity(), sorted
	Err   string
}

type keysResult struct {
	Keys []string
	Err  string
}

type indexState struct {
	Values    []string // ListIndexFuncValues, sorted
	ByIndex   map[string]listResult
	IndexKeys map[string]keysResult // already sorted by both sides
}

// state is everything a caller can observe.
type state struct {
	List         []string // items as identity(), sorted
	ListKeys     []string
	Gets         map[string]getResult
	GetNoMeta    getResult
	IndexerNames []string
	Indices      map[string]indexState
	Probes       map[string]listResult // Index(name, probe)
	Unknown      []string              // answers for an index that does not exist
	RV           string
}

// probes are objects passed to Index: a plain pod, a poisoned one, and one
// without metadata.
var probes = map[string]interface{}{
	"pod": &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns-a", Labels: map[string]string{"app": "web", "tier": "front"},
			Annotations: map[string]string{"users": "ann,bob"}},
		Spec: corev1.PodSpec{NodeName: "node-1"},
	},
	"poisoned": &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns-b", Labels: map[string]string{"poison": "true"}}},
	"no-meta":  notAnObject{Name: "probe"},
}

func allKeys() []string {
	var keys []string
	for _, ns := range namespaces {
		for _, name := range podNames {
			if ns == "" {
				keys = append(keys, name)
			} else {
				keys = append(keys, ns+"/"+name)
			}
		}
	}
	return keys
}

// identities describes items, sorted. Both sides are handed the very same
// objects, so the pointer says "this exact object", not just "an equal one".
func identities(items []interface{}) []string {
	if items == nil {
		return nil
	}
	out := make([]string, len(items))
	for i, item := range items {
		out[i] = identity(item)
	}
	slices.Sort(out)
	return out
}

func identity(obj interface{}) string {
	pod, ok := obj.(*corev1.Pod)
	if !ok || pod == nil {
		return fmt.Sprintf("%#v", obj)
	}
	key, _ := cache.MetaNamespaceKeyFunc(pod)
	return fmt.Sprintf("%s rv=%s %p", key, pod.ResourceVersion, pod)
}

func sortedCopy(s []string) []string {
	if s == nil {
		return nil
	}
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

// snapshot asks v everything, querying each index for the given values.
func snapshot(v view, names []string, values map[string][]string) state {
	st := state{
		List:         identities(v.List()),
		ListKeys:     sortedCopy(v.ListKeys()),
		Gets:         map[string]getResult{},
		IndexerNames: names,
		Indices:      map[string]indexState{},
		Probes:       map[string]listResult{},
		RV:           v.LastStoreSyncResourceVersion(),
	}
	for _, key := range allKeys() {
		item, exists, err := v.GetByKey(key)
		st.Gets[key] = getResult{identity(item), exists, errString(err)}
	}
	item, exists, err := v.Get(notAnObject{Name: "get"})
	st.GetNoMeta = getResult{identity(item), exists, errString(err)}
	for _, name := range names {
		is := indexState{
			Values:    sortedCopy(v.ListIndexFuncValues(name)),
			ByIndex:   map[string]listResult{},
			IndexKeys: map[string]keysResult{},
		}
		for _, value := range values[name] {
			items, err := v.ByIndex(name, value)
			is.ByIndex[value] = listResult{identities(items), errString(err)}
			keys, err := v.IndexKeys(name, value)
			is.IndexKeys[value] = keysResult{keys, errString(err)}
		}
		st.Indices[name] = is
		for probeName, probe := range probes {
			items, err := v.Index(name, probe)
			st.Probes[name+"/"+probeName] = listResult{identities(items), errString(err)}
		}
	}
	items, err := v.ByIndex("no-such-index", "x")
	keys, err2 := v.IndexKeys("no-such-index", "x")
	items3, err3 := v.Index("no-such-index", probes["pod"])
	st.Unknown = []string{fmt.Sprintf("%#v %v", items, err), fmt.Sprintf("%#v %v", keys, err2),
		fmt.Sprintf("%#v %v", items3, err3), fmt.Sprintf("%#v", v.ListIndexFuncValues("no-such-index"))}
	return st
}

// compareStates snapshots both sides, asking each index for every value
// either side holds plus two that no object has, and reports the diff.
func compareStates(t *testing.T, ours indexer.Indexer, theirs cache.Indexer, context string) {
	t.Helper()
	oursNames := slices.Sorted(maps.Keys(ours.GetIndexers()))
	theirsNames := slices.Sorted(maps.Keys(theirs.GetIndexers()))
	values := map[string][]string{}
	for _, name := range append(slices.Clone(oursNames), theirsNames...) {
		vs := append(ours.ListIndexFuncValues(name), theirs.ListIndexFuncValues(name)...)
		vs = append(vs, "", "no-such-value")
		slices.Sort(vs)
		values[name] = slices.Compact(vs)
	}
	want := snapshot(theirs, theirsNames, values)
	got := snapshot(ours, oursNames, values)
	// reflect.DeepEqual first: cmp.Diff is the slow part of these tests, and
	// only its report is needed, when they differ.
	if reflect.DeepEqual(want, got) {
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%s: the indexers disagree (-client-go +ours):\n%s", context, diff)
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x04)) }
