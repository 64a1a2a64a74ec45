package informer_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	"k8s.io/client-go/tools/cache"
	fcache "k8s.io/client-go/tools/cache/testing"
	"k8s.io/utils/ptr"

	informer "informer-from-scratch/06-sharedinformer"
)

// The handler matrix of docs/{en,zh}/handler-matrix.md, played on four
// informers: client-go's as v0.37.2 runs it (a RealFIFO with atomic
// events), client-go's with the AtomicFIFO gate off, ours on its RealFIFO
// and ours on the classic DeltaFIFO. Each row of the page is one step of
// the script below, and matrixWant is the page's table, call for call.
//
// The informer resyncs every 30s. Its handlers:
//   - "with resync": AddEventHandler, so the informer's 30s;
//   - "without resync": AddTypedEventHandler with ResyncPeriod 0, typed so
//     that the table shows what DeletedObject[T] holds;
//   - "late": added once the informer has synced, with ResyncPeriod 0, and
//     removed after its row.

// matrixRows are the steps, in order.
var matrixRows = []string{
	"initial list",
	"handler added late",
	"watch events: add d, update a, delete b",
	"relist before the first resync check: a unchanged, c changed, d gone, e new",
	"first periodic resync",
	"relist after that check: a and e unchanged, c changed",
}

// matrixWant is what each handler receives at each step. Within a step the
// calls are listed in the order client-go's RealFIFO delivers them;
// matrixOrdered says where that order is part of the claim.
var matrixWant = map[string]map[string][]string{
	"initial list": {
		"with resync":    {"OnAdd(a@1, isInInitialList=true)", "OnAdd(b@2, isInInitialList=true)", "OnAdd(c@3, isInInitialList=true)"},
		"without resync": {"OnAdd(a@1, isInInitialList=true)", "OnAdd(b@2, isInInitialList=true)", "OnAdd(c@3, isInInitialList=true)"},
	},
	"handler added late": {
		"late": {"OnAdd(a@1, isInInitialList=true)", "OnAdd(b@2, isInInitialList=true)", "OnAdd(c@3, isInInitialList=true)"},
	},
	"watch events: add d, update a, delete b": {
		"with resync":    {"OnAdd(d@4, isInInitialList=false)", "OnUpdate(a@1, a@5)", "OnDelete(b@6)"},
		"without resync": {"OnAdd(d@4, isInInitialList=false)", "OnUpdate(a@1, a@5)", "OnDelete(DeletedObject{OptionalObj: b@6})"},
	},
	"relist before the first resync check: a unchanged, c changed, d gone, e new": {
		"with resync":    {"OnDelete(DeletedFinalStateUnknown{Key: ns/d, Obj: d@4})", "OnUpdate(a@5, a@5)", "OnUpdate(c@3, c@7)", "OnAdd(e@9, isInInitialList=false)"},
		"without resync": {"OnDelete(DeletedObject{OptionalObj: d@4, FinalStateUnknown: ns/d})", "OnUpdate(a@5, a@5)", "OnUpdate(c@3, c@7)", "OnAdd(e@9, isInInitialList=false)"},
	},
	"first periodic resync": {
		"with resync": {"OnUpdate(a@5, a@5)", "OnUpdate(c@7, c@7)", "OnUpdate(e@9, e@9)"},
	},
	"relist after that check: a and e unchanged, c changed": {
		"with resync":    {"OnUpdate(a@5, a@5)", "OnUpdate(c@7, c@10)", "OnUpdate(e@9, e@9)"},
		"without resync": {"OnUpdate(c@7, c@10)"},
	},
}

// matrixOrdered: the rows whose order is part of the claim: watch events in
// the server's order; a relist's deletions first, then the listed objects in
// the list's order (the DeltaFIFO: deletions last, see deletionsLast). A
// late handler's adds and a resync come from the cache, in map order.
var matrixOrdered = map[string]bool{
	"initial list": true,
	"watch events: add d, update a, delete b":                                     true,
	"relist before the first resync check: a unchanged, c changed, d gone, e new": true,
	"relist after that check: a and e unchanged, c changed":                       true,
}

func TestHandlerMatrix(t *testing.T) {
	for _, side := range []struct {
		name string
		// deltaFIFO: the relist's order differs (see matrixOrdered).
		deltaFIFO bool
		atomicOff bool
		newSide   func(lw *matrixSource) matrixInformer
	}{
		{name: "client-go", newSide: newClientGoMatrix},
		{name: "client-go with AtomicFIFO off", atomicOff: true, newSide: newClientGoMatrix},
		{name: "ours, RealFIFO", newSide: func(lw *matrixSource) matrixInformer { return newOurMatrix(lw, informer.QueueRealFIFO) }},
		{name: "ours, DeltaFIFO", deltaFIFO: true, newSide: func(lw *matrixSource) matrixInformer { return newOurMatrix(lw, informer.QueueDeltaFIFO) }},
	} {
		t.Run(side.name, func(t *testing.T) {
			if side.atomicOff {
				clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.AtomicFIFO, false)
				if clientfeatures.FeatureGates().Enabled(clientfeatures.AtomicFIFO) {
					t.Fatal("the AtomicFIFO gate is still on")
				}
			}
			got := playMatrix(t, side.newSide)
			for _, row := range matrixRows {
				want := matrixWant[row]
				have := got[row]
				switch {
				case !matrixOrdered[row]:
					want, have = sortedCalls(want), sortedCalls(have)
				case side.deltaFIFO:
					want = deletionsLast(want)
				}
				if have == nil {
					have = map[string][]string{}
				}
				if diff := cmp.Diff(want, have); diff != "" {
					t.Errorf("%s, step %q: the handlers' calls differ from the page's table (-page +%s):\n%s", side.name, row, side.name, diff)
				}
			}
		})
	}
}

// playMatrix runs the script on one informer, inside a synctest bubble (the
// reflector's backoff and the resync timer run on fake time), and returns
// each step's calls, handler by handler.
func playMatrix(t *testing.T, newSide func(lw *matrixSource) matrixInformer) map[string]map[string][]string {
	got := map[string]map[string][]string{}
	synctest.Test(t, func(t *testing.T) {
		src := fcache.NewFakeControllerSource()
		for _, name := range []string{"a", "b", "c"} {
			src.Add(matrixPod(name))
		}
		lw := newMatrixSource(src)
		inf := newSide(lw)
		recs := map[string]*matrixRecorder{"with resync": {}, "without resync": {}, "late": {}}
		if _, err := inf.add(recs["with resync"], nil, false); err != nil {
			t.Fatal(err)
		}
		if _, err := inf.add(recs["without resync"], ptr.To(time.Duration(0)), true); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { inf.run(ctx) })

		steps := 0
		step := func() {
			time.Sleep(time.Second)
			synctest.Wait()
			row := matrixRows[steps]
			steps++
			got[row] = map[string][]string{}
			for name, rec := range recs {
				if calls := rec.take(); len(calls) > 0 {
					got[row][name] = calls
				}
			}
		}
		relist := func() {
			lw.expire.Store(true)
			src.ResetWatch() // the watch ends; the next one meets a 410
			time.Sleep(4 * time.Second)
		}

		step() // initial list

		remove, err := inf.add(recs["late"], ptr.To(time.Duration(0)), false)
		if err != nil {
			t.Fatal(err)
		}
		step() // handler added late
		if err := remove(); err != nil {
			t.Fatal(err)
		}

		src.Add(matrixPod("d"))
		src.Modify(matrixPod("a"))
		src.Delete(matrixPod("b"))
		step() // watch events

		src.ModifyDropWatch(matrixPod("c"))
		src.DeleteDropWatch(matrixPod("d"))
		src.AddDropWatch(matrixPod("e"))
		relist()
		step() // relist before the first resync check

		time.Sleep(30 * time.Second)
		step() // the first periodic resync

		src.ModifyDropWatch(matrixPod("c"))
		relist()
		step() // relist after that check

		cancel()
		wg.Wait()
		src.Shutdown()
	})
	return got
}

func matrixPod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}}
}

// deletionsLast is a relist's calls as the DeltaFIFO delivers them: its
// Replace queues the listed objects first, then a tombstone for each key
// the cache holds that the list lacks.
func deletionsLast(byHandler map[string][]string) map[string][]string {
	out := map[string][]string{}
	for name, calls := range byHandler {
		var deletes, others []string
		for _, c := range calls {
			if strings.Contains(c, "FinalStateUnknown") { // a tombstone, typed or not
				deletes = append(deletes, c)
			} else {
				others = append(others, c)
			}
		}
		out[name] = append(others, deletes...)
	}
	return out
}

// sortedCalls sorts each handler's calls, for the rows whose order is not
// part of the claim.
func sortedCalls(byHandler map[string][]string) map[string][]string {
	out := map[string][]string{}
	for name, calls := range byHandler {
		out[name] = slices.Sorted(slices.Values(calls))
	}
	return out
}

// matrixSource is the FakeControllerSource as a ListerWatcher of both
// libraries: sortedSource's lists in key order (as etcd does), and, once
// expire is set, 410 Expired for the next watch, which makes the reflector
// relist. It cannot stream, and says so, as client-go's fake clientsets do.
type matrixSource struct {
	sortedSource
	expire atomic.Bool
}

func newMatrixSource(src *fcache.FakeControllerSource) *matrixSource {
	return &matrixSource{sortedSource: sortedSource{lw: src}}
}

func (s *matrixSource) Watch(options metav1.ListOptions) (watch.Interface, error) {
	if s.expire.CompareAndSwap(true, false) {
		return nil, apierrors.NewResourceExpired("the test expired it")
	}
	return s.sortedSource.Watch(options)
}

func (s *matrixSource) IsWatchListSemanticsUnSupported() bool { return true }

// matrixRecorder writes each call as the page's table does: an object as
// name@resourceVersion.
type matrixRecorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *matrixRecorder) record(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, fmt.Sprintf(format, args...))
}

func (r *matrixRecorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	calls := r.calls
	r.calls = nil
	return calls
}

func (r *matrixRecorder) OnAdd(obj any, isInInitialList bool) {
	r.record("OnAdd(%s, isInInitialList=%v)", matrixName(obj), isInInitialList)
}

func (r *matrixRecorder) OnUpdate(oldObj, newObj any) {
	r.record("OnUpdate(%s, %s)", matrixName(oldObj), matrixName(newObj))
}

func (r *matrixRecorder) OnDelete(obj any) {
	switch tomb := obj.(type) {
	case cache.DeletedFinalStateUnknown:
		r.record("OnDelete(DeletedFinalStateUnknown{Key: %s, Obj: %s})", tomb.Key, matrixName(tomb.Obj))
	case informer.DeletedFinalStateUnknown:
		r.record("OnDelete(DeletedFinalStateUnknown{Key: %s, Obj: %s})", tomb.Key, matrixName(tomb.Obj))
	default:
		r.record("OnDelete(%s)", matrixName(obj))
	}
}

// deleted records a typed OnDelete: what DeletedObject[T] holds.
func (r *matrixRecorder) deleted(obj *corev1.Pod, tombstoneKey *string) {
	if tombstoneKey == nil {
		r.record("OnDelete(DeletedObject{OptionalObj: %s})", matrixName(obj))
		return
	}
	r.record("OnDelete(DeletedObject{OptionalObj: %s, FinalStateUnknown: %s})", matrixName(obj), *tombstoneKey)
}

// matrixName is name@resourceVersion, or <nil>.
func matrixName(obj any) string {
	if p, ok := obj.(*corev1.Pod); obj == nil || (ok && p == nil) {
		return "<nil>"
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return fmt.Sprintf("<%T>", obj)
	}
	return m.GetName() + "@" + m.GetResourceVersion()
}

// matrixInformer is one informer under the script.
type matrixInformer interface {
	// add registers rec, typed or not, with the informer's resync period
	// (nil) or the one given; remove unregisters it.
	add(rec *matrixRecorder, resync *time.Duration, typed bool) (remove func() error, err error)
	run(ctx context.Context)
}

type clientGoMatrix struct{ inf cache.SharedIndexInformer }

func newClientGoMatrix(lw *matrixSource) matrixInformer {
	return clientGoMatrix{cache.NewSharedIndexInformer(lw, &corev1.Pod{}, 30*time.Second, cache.Indexers{})}
}

func (c clientGoMatrix) add(rec *matrixRecorder, resync *time.Duration, typed bool) (func() error, error) {
	var reg cache.ResourceEventHandlerRegistration
	var err error
	switch {
	case typed:
		handler := cache.TypedResourceEventHandlerDetailedFuncs[*corev1.Pod]{
			AddFunc:    func(p *corev1.Pod, initial bool) { rec.OnAdd(p, initial) },
			UpdateFunc: func(o, n *corev1.Pod) { rec.OnUpdate(o, n) },
			DeleteFunc: func(d cache.DeletedObject[*corev1.Pod]) {
				var key *string
				if d.FinalStateUnknown != nil {
					key = ptr.To(d.GetKey())
				}
				rec.deleted(d.OptionalObj, key)
			},
		}
		reg, err = cache.NewTypedSharedIndexInformer[*corev1.Pod](c.inf).AddTypedEventHandler(handler, cache.HandlerOptions{ResyncPeriod: resync})
	case resync == nil:
		reg, err = c.inf.AddEventHandler(rec)
	default:
		reg, err = c.inf.AddEventHandlerWithResyncPeriod(rec, *resync)
	}
	if err != nil {
		return nil, err
	}
	return func() error { return c.inf.RemoveEventHandler(reg) }, nil
}

func (c clientGoMatrix) run(ctx context.Context) { c.inf.RunWithContext(ctx) }

type ourMatrix struct{ inf informer.SharedIndexInformer }

func newOurMatrix(lw *matrixSource, kind informer.QueueKind) matrixInformer {
	return ourMatrix{informer.NewSharedIndexInformerWithOptions(lw, &corev1.Pod{}, informer.SharedIndexInformerOptions{
		ResyncPeriod: 30 * time.Second,
		Indexers:     informer.Indexers{},
		Queue:        kind,
	})}
}

func (o ourMatrix) add(rec *matrixRecorder, resync *time.Duration, typed bool) (func() error, error) {
	var reg informer.ResourceEventHandlerRegistration
	var err error
	switch {
	case typed:
		handler := informer.TypedResourceEventHandlerDetailedFuncs[*corev1.Pod]{
			AddFunc:    func(p *corev1.Pod, initial bool) { rec.OnAdd(p, initial) },
			UpdateFunc: func(o, n *corev1.Pod) { rec.OnUpdate(o, n) },
			DeleteFunc: func(d informer.DeletedObject[*corev1.Pod]) {
				var key *string
				if d.FinalStateUnknown != nil {
					key = ptr.To(d.GetKey())
				}
				rec.deleted(d.OptionalObj, key)
			},
		}
		reg, err = informer.NewTypedSharedIndexInformer[*corev1.Pod](o.inf).AddTypedEventHandler(handler, informer.HandlerOptions{ResyncPeriod: resync})
	case resync == nil:
		reg, err = o.inf.AddEventHandler(rec)
	default:
		reg, err = o.inf.AddEventHandlerWithResyncPeriod(rec, *resync)
	}
	if err != nil {
		return nil, err
	}
	return func() error { return o.inf.RemoveEventHandler(reg) }, nil
}

func (o ourMatrix) run(ctx context.Context) { o.inf.RunWithContext(ctx) }
