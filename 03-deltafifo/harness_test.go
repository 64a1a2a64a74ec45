package deltafifo

// The harness every differential test runs on: one scenario (a list of ops)
// is applied to our queue and to client-go's, each behind the same small
// adapter, and what each produced is written down in a neutral form (strings
// such as "Added a@1") so that cmp.Diff can compare them across packages.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
)

// reported counts the errors either queue reported through
// utilruntime.HandleError (client-go's through HandleErrorWithLogger, which
// calls the same handlers): runOps records how many each op reported.
var reported atomic.Int64

func TestMain(m *testing.M) {
	// Both queues report a known object they cannot read through
	// HandleError, and the scenarios provoke that on purpose. This handler
	// counts the reports, in place of the default ones, which log and sleep
	// 1ms per error (a crude rate limit).
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{
		func(context.Context, error, string, ...interface{}) { reported.Add(1) },
	}
	// client-go's DeltaFIFO logs, at Info level, a known key that is gone
	// by the time it is read; ours leaves logging out.
	klog.SetLogger(logr.Discard())
	os.Exit(m.Run())
}

// ---- objects ---------------------------------------------------------------

const testNamespace = "ns"

// objKind is what a spec stands for.
type objKind int

const (
	podObj       objKind = iota // a pod ns/<name> at resourceVersion rv
	explicitKey                 // ExplicitKey("ns/<name>")
	tombstoneObj                // DeletedFinalStateUnknown{"ns/<name>", pod}
	badObj                      // something without metadata: no key
)

// spec is an object both sides can build their own copy of: our queue and
// client-go's must never share a pointer, or a transformer on one side
// could change what the other sees.
type spec struct {
	kind objKind
	name string
	rv   int
}

func pod(name string, rv int) spec { return spec{kind: podObj, name: name, rv: rv} }

func newPod(name string, rv int) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace: testNamespace, Name: name, ResourceVersion: strconv.Itoa(rv),
	}}
}

// noMeta has no ObjectMeta, so no key function can key it.
type noMeta struct{ Name string }

func (s spec) ours() interface{} {
	switch s.kind {
	case explicitKey:
		return ExplicitKey(testNamespace + "/" + s.name)
	case tombstoneObj:
		return DeletedFinalStateUnknown{Key: testNamespace + "/" + s.name, Obj: newPod(s.name, s.rv)}
	case badObj:
		return noMeta{s.name}
	}
	return newPod(s.name, s.rv)
}

func (s spec) clientGo() interface{} {
	switch s.kind {
	case explicitKey:
		return cache.ExplicitKey(testNamespace + "/" + s.name)
	case tombstoneObj:
		return cache.DeletedFinalStateUnknown{Key: testNamespace + "/" + s.name, Obj: newPod(s.name, s.rv)}
	case badObj:
		return noMeta{s.name}
	}
	return newPod(s.name, s.rv)
}

// transformedLabel counts how many times testTransformer ran on an object.
const transformedLabel = "transformed"

// testTransformer marks each pod it sees (on a copy) so a test can tell
// whether, and how often, an object went through it; it refuses pod "e".
func testTransformer(obj interface{}) (interface{}, error) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	if p.Name == "e" {
		return nil, errors.New("transformer refuses pod e")
	}
	p = p.DeepCopy()
	if p.Labels == nil {
		p.Labels = map[string]string{}
	}
	p.Labels[transformedLabel] += "+t"
	return p, nil
}

// describe renders whatever a queue hands out, from either package, in one
// neutral notation: "a@1" (pod ns/a at rv 1, "+t" once per transform),
// "key(ns/a)", "tombstone(ns/a, a@1)", "all@7[a@1 b@2]", "bookmark@7",
// "syncall", "nil". Anything else is printed with its type, so a type
// mix-up between the packages shows in a diff.
func describe(obj interface{}) string {
	switch o := obj.(type) {
	case nil:
		return "nil"
	case *corev1.Pod:
		s := o.Name + "@" + o.ResourceVersion
		if o.Namespace != testNamespace {
			s = o.Namespace + "/" + s
		}
		return s + o.Labels[transformedLabel]
	case ExplicitKey:
		return "key(" + string(o) + ")"
	case cache.ExplicitKey:
		return "key(" + string(o) + ")"
	case DeletedFinalStateUnknown:
		return "tombstone(" + o.Key + ", " + describe(o.Obj) + ")"
	case cache.DeletedFinalStateUnknown:
		return "tombstone(" + o.Key + ", " + describe(o.Obj) + ")"
	case ReplacedAllInfo:
		return "all@" + o.ResourceVersion + describeList(o.Objects)
	case cache.ReplacedAllInfo:
		return "all@" + o.ResourceVersion + describeList(o.Objects)
	case BookmarkInfo:
		return "bookmark@" + o.ResourceVersion
	case cache.BookmarkInfo:
		return "bookmark@" + o.ResourceVersion
	case SyncAllInfo, cache.SyncAllInfo:
		return "syncall"
	case noMeta:
		return "bad(" + o.Name + ")"
	case Deltas:
		return describeDeltas(o)
	case cache.Deltas:
		return describeDeltas(fromClientGo(o))
	}
	return fmt.Sprintf("%T(%v)", obj, obj)
}

func describeList(objs []interface{}) string {
	parts := make([]string, len(objs))
	for i, o := range objs {
		parts[i] = describe(o)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func describeDeltas(ds []Delta) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = string(d.Type) + " " + describe(d.Object)
	}
	return strings.Join(parts, ", ")
}

// fromClientGo converts client-go deltas to ours, keeping the objects.
func fromClientGo(ds []cache.Delta) Deltas {
	out := make(Deltas, len(ds))
	for i, d := range ds {
		out[i] = Delta{Type: DeltaType(d.Type), Object: d.Object}
	}
	return out
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// ---- the consumer's store ---------------------------------------------------

// knownStore is the KnownObjects both queues consult: client-go's own
// cache.Store, keyed by the side's DeletionHandlingMetaNamespaceKeyFunc, with
// ListKeys sorted (cache.Store lists in map order, and both queues act in
// ListKeys order, so an unsorted list would make the two sides differ by
// chance). Its ghost key, when on, is one ListKeys lists and GetByKey cannot
// give back, as with a store that changed between the two calls, or failed.
type knownStore struct {
	cache.Store
	ghost ghostMode
}

// ghostMode is what the store says of its ghost key, ns/ghost.
type ghostMode int

const (
	ghostOff    ghostMode = iota // not listed
	ghostGone                    // GetByKey: nil, does not exist
	ghostStale                   // GetByKey: a stale ghost@0, does not exist
	ghostBroken                  // GetByKey: a stale ghost@0, exists, and an error
)

func (g ghostMode) String() string {
	return [...]string{"off", "gone", "stale", "broken"}[g]
}

const ghostKey = testNamespace + "/ghost"

// errStoreBroken is the error the ghost key's lookup fails with.
var errStoreBroken = errors.New("known objects store is broken")

func (s *knownStore) ListKeys() []string {
	keys := s.Store.ListKeys()
	if s.ghost != ghostOff {
		keys = append(keys, ghostKey)
	}
	slices.Sort(keys)
	return keys
}

// GetByKey answers for the ghost key as its mode says. The modes that hand
// back an object with their "no" see whether a queue trusts exists and err
// over the object: client-go's tombstone then holds no object.
func (s *knownStore) GetByKey(key string) (interface{}, bool, error) {
	if key == ghostKey {
		switch s.ghost {
		case ghostGone:
			return nil, false, nil
		case ghostStale:
			return newPod("ghost", 0), false, nil
		case ghostBroken:
			return newPod("ghost", 0), true, errStoreBroken
		}
	}
	return s.Store.GetByKey(key)
}

// apply does to the store what the informer's processDeltas does with
// popped deltas (controller.go), minus the handlers.
func (s *knownStore) apply(ds Deltas) error {
	for _, d := range ds {
		switch d.Type {
		case Sync, Replaced, Added, Updated:
			if err := s.Store.Add(d.Object); err != nil {
				return err
			}
		case Deleted:
			if err := s.Store.Delete(d.Object); err != nil {
				return err
			}
		}
	}
	return nil
}

// ---- the adapter -------------------------------------------------------------

// queueUnderTest is one queue, ours or client-go's, behind functions that
// speak in specs and neutral strings.
type queueUnderTest struct {
	build    func(spec) interface{}
	add      func(interface{}) error
	update   func(interface{}) error
	del      func(interface{}) error
	replace  func([]interface{}, string) error
	resync   func() error
	bookmark func(string) error // nil: the queue has no Bookmark
	pop      func(process func(interface{}, bool) error) (interface{}, error)
	// popBatch hands processBatch the batch already as our Deltas.
	popBatch  func(processBatch func(Deltas, bool) error, processSingle func(interface{}, bool) error) error
	close     func()
	hasSynced func() bool
	done      func() <-chan struct{}
	length    func() int
	known     *knownStore // nil without KnownObjects
	// asDeltas turns what Pop handed out into our Deltas.
	asDeltas func(interface{}) (Deltas, bool)
}

func oursAsDeltas(obj interface{}) (Deltas, bool) {
	d, ok := obj.(Deltas)
	return d, ok
}

func clientGoAsDeltas(obj interface{}) (Deltas, bool) {
	d, ok := obj.(cache.Deltas)
	return fromClientGo(d), ok
}

// unexportedLen reads the length of an unexported slice field of one of
// client-go's queues. Tests need to know whether a Pop would block, and
// client-go's queues no longer export a length; the tests are sequential,
// so reading without the lock is safe.
func unexportedLen(q interface{}, field string) int {
	return reflect.ValueOf(q).Elem().FieldByName(field).Len()
}

func newKnown(keyFunc cache.KeyFunc) *knownStore {
	return &knownStore{Store: cache.NewStore(keyFunc)}
}

// ---- configurations ------------------------------------------------------------

// fifoConfig is the options of one scenario, for either queue.
type fifoConfig struct {
	transformer      bool
	startWithReplace bool
	// DeltaFIFO only
	noKnownObjects bool
	emitReplaced   bool
	// RealFIFO only
	atomic   bool
	bookmark bool
	unlock   bool
}

func (c fifoConfig) String() string {
	return fmt.Sprintf("%+v", struct{ Transformer, StartWithReplace, NoKnownObjects, EmitReplaced, Atomic, Bookmark, Unlock bool }{
		c.transformer, c.startWithReplace, c.noKnownObjects, c.emitReplaced, c.atomic, c.bookmark, c.unlock})
}

func oursDeltaFIFO(c fifoConfig) *queueUnderTest {
	opts := DeltaFIFOOptions{EmitDeltaTypeReplaced: c.emitReplaced}
	q := &queueUnderTest{build: spec.ours, asDeltas: oursAsDeltas}
	if !c.noKnownObjects {
		q.known = newKnown(cache.KeyFunc(DeletionHandlingMetaNamespaceKeyFunc))
		opts.KnownObjects = q.known
	}
	if c.transformer {
		opts.Transformer = testTransformer
	}
	f := NewDeltaFIFOWithOptions(opts)
	q.add, q.update, q.del, q.replace, q.resync = f.Add, f.Update, f.Delete, f.Replace, f.Resync
	q.pop = func(p func(interface{}, bool) error) (interface{}, error) { return f.Pop(p) }
	q.close, q.hasSynced = f.Close, f.HasSynced
	q.done = func() <-chan struct{} { return f.HasSyncedChecker().Done() }
	q.length = func() int { return len(f.queue) }
	return q
}

func clientGoDeltaFIFO(c fifoConfig) *queueUnderTest {
	opts := cache.DeltaFIFOOptions{EmitDeltaTypeReplaced: c.emitReplaced}
	q := &queueUnderTest{build: spec.clientGo, asDeltas: clientGoAsDeltas}
	if !c.noKnownObjects {
		q.known = newKnown(cache.DeletionHandlingMetaNamespaceKeyFunc)
		opts.KnownObjects = q.known
	}
	if c.transformer {
		opts.Transformer = testTransformer
	}
	f := cache.NewDeltaFIFOWithOptions(opts)
	q.add, q.update, q.del, q.replace, q.resync = f.Add, f.Update, f.Delete, f.Replace, f.Resync
	q.pop = func(p func(interface{}, bool) error) (interface{}, error) { return f.Pop(p) }
	q.close, q.hasSynced = f.Close, f.HasSynced
	q.done = func() <-chan struct{} { return f.HasSyncedChecker().Done() }
	q.length = func() int { return unexportedLen(f, "queue") }
	return q
}

func oursRealFIFO(c fifoConfig) *queueUnderTest {
	opts := RealFIFOOptions{AtomicEvents: c.atomic, EmitDeltaTypeBookmark: c.bookmark, UnlockWhileProcessing: c.unlock}
	q := &queueUnderTest{build: spec.ours, asDeltas: oursAsDeltas}
	if !c.atomic {
		q.known = newKnown(cache.KeyFunc(DeletionHandlingMetaNamespaceKeyFunc))
		opts.KnownObjects = q.known
	}
	if c.transformer {
		opts.Transformer = testTransformer
	}
	f := NewRealFIFOWithOptions(opts)
	q.add, q.update, q.del, q.replace, q.resync, q.bookmark = f.Add, f.Update, f.Delete, f.Replace, f.Resync, f.Bookmark
	q.pop = func(p func(interface{}, bool) error) (interface{}, error) { return f.Pop(p) }
	q.popBatch = func(batch func(Deltas, bool) error, single func(interface{}, bool) error) error {
		return f.PopBatch(func(ds []Delta, initial bool) error { return batch(ds, initial) }, single)
	}
	q.close, q.hasSynced = f.Close, f.HasSynced
	q.done = func() <-chan struct{} { return f.HasSyncedChecker().Done() }
	q.length = func() int { return len(f.items) }
	return q
}

func clientGoRealFIFO(c fifoConfig) *queueUnderTest {
	opts := cache.RealFIFOOptions{AtomicEvents: c.atomic, EmitDeltaTypeBookmark: c.bookmark, UnlockWhileProcessing: c.unlock}
	q := &queueUnderTest{build: spec.clientGo, asDeltas: clientGoAsDeltas}
	if !c.atomic {
		q.known = newKnown(cache.DeletionHandlingMetaNamespaceKeyFunc)
		opts.KnownObjects = q.known
	}
	if c.transformer {
		opts.Transformer = testTransformer
	}
	f := cache.NewRealFIFOWithOptions(opts)
	q.add, q.update, q.del, q.replace, q.resync, q.bookmark = f.Add, f.Update, f.Delete, f.Replace, f.Resync, f.Bookmark
	q.pop = func(p func(interface{}, bool) error) (interface{}, error) { return f.Pop(p) }
	q.popBatch = func(batch func(Deltas, bool) error, single func(interface{}, bool) error) error {
		return f.PopBatch(func(ds []cache.Delta, initial bool) error { return batch(fromClientGo(ds), initial) }, single)
	}
	q.close, q.hasSynced = f.Close, f.HasSynced
	q.done = func() <-chan struct{} { return f.HasSyncedChecker().Done() }
	q.length = func() int { return unexportedLen(f, "items") }
	return q
}
