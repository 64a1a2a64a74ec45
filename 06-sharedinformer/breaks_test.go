package informer_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/06-sharedinformer/observe"
)

// The tests of the teaching switches (breaks.go): each scenario runs on
// client-go's informer, on ours, and on ours with one switch on. Ours must
// match client-go's (cmp.Diff), and the switch must make the failure the
// chapter describes appear, and only with the switch.

// gapSource is a scripted apiserver for one namespace of pods: List answers
// with what it holds now, and every Watch is a FakeWatcher the test feeds
// (Watches, in order of request). It says it does not speak WatchList, so
// both reflectors LIST, then WATCH.
type gapSource struct {
	mu      sync.Mutex
	rv      int
	pods    map[string]*corev1.Pod
	Watches chan *watch.FakeWatcher
}

func newGapSource(names ...string) *gapSource {
	s := &gapSource{pods: map[string]*corev1.Pod{}, Watches: make(chan *watch.FakeWatcher, 16)}
	for _, n := range names {
		s.add(n)
	}
	return s
}

// add creates a pod on the server, and returns it for a watch event.
func (s *gapSource) add(name string) *corev1.Pod {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rv++
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: strconv.Itoa(s.rv)}}
	s.pods[name] = p
	return p.DeepCopy()
}

// remove deletes a pod on the server, telling no watch.
func (s *gapSource) remove(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rv++
	delete(s.pods, name)
}

func (s *gapSource) IsWatchListSemanticsUnSupported() bool { return true }

func (s *gapSource) List(metav1.ListOptions) (runtime.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: strconv.Itoa(s.rv)}}
	for _, name := range slices.Sorted(maps.Keys(s.pods)) {
		list.Items = append(list.Items, *s.pods[name].DeepCopy())
	}
	return list, nil
}

func (s *gapSource) Watch(metav1.ListOptions) (watch.Interface, error) {
	w := watch.NewFake()
	s.Watches <- w
	return w, nil
}

func (s *gapSource) ListWithContext(_ context.Context, o metav1.ListOptions) (runtime.Object, error) {
	return s.List(o)
}

func (s *gapSource) WatchWithContext(_ context.Context, o metav1.ListOptions) (watch.Interface, error) {
	return s.Watch(o)
}

// funcs is a handler as three functions, for either library's Funcs type.
type funcs struct {
	add, del func(obj any)
}

// breakSide is one informer of a switch scenario.
type breakSide struct {
	name       string
	addHandler func(funcs) (hasSynced func() bool)
	run        func(ctx context.Context)
	cacheKeys  func() []string
}

func clientGoBreakSide(src *gapSource) breakSide {
	inf := cache.NewSharedIndexInformer(src, &corev1.Pod{}, 0, cache.Indexers{})
	return breakSide{
		name: "client-go",
		addHandler: func(f funcs) func() bool {
			reg, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: f.add, DeleteFunc: f.del})
			if err != nil {
				panic(err)
			}
			return reg.HasSynced
		},
		run:       inf.RunWithContext,
		cacheKeys: func() []string { return slices.Sorted(slices.Values(inf.GetStore().ListKeys())) },
	}
}

func ourBreakSide(src *gapSource, b informer.Breaks, name string) breakSide {
	return ourWatchedBreakSide(src, b, name, nil)
}

// ourWatchedBreakSide is ourBreakSide watched through observe's seams.
func ourWatchedBreakSide(src *gapSource, b informer.Breaks, name string, observer observe.Observer) breakSide {
	inf := informer.NewSharedIndexInformerWithOptions(src, &corev1.Pod{}, informer.SharedIndexInformerOptions{Breaks: b, Seams: observe.Seams(observer)})
	return breakSide{
		name: name,
		addHandler: func(f funcs) func() bool {
			reg, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{AddFunc: f.add, DeleteFunc: f.del})
			if err != nil {
				panic(err)
			}
			return reg.HasSynced
		},
		run:       inf.RunWithContext,
		cacheKeys: func() []string { return slices.Sorted(slices.Values(inf.GetStore().ListKeys())) },
	}
}

// view is what a handler built from its calls alone: the keys it was told
// exist, as a controller's own state would be.
type view struct {
	mu   sync.Mutex
	keys map[string]bool
}

func (v *view) funcs(onAdd func(key string)) funcs {
	v.keys = map[string]bool{}
	return funcs{
		add: func(obj any) {
			key, _ := cache.MetaNamespaceKeyFunc(obj)
			if onAdd != nil {
				onAdd(key) // may block: the stalled handler
			}
			v.mu.Lock()
			defer v.mu.Unlock()
			v.keys[key] = true
		},
		del: func(obj any) {
			if d, ok := obj.(informer.DeletedFinalStateUnknown); ok {
				obj = cache.DeletedFinalStateUnknown{Key: d.Key, Obj: d.Obj} // ours, as client-go's
			}
			key, _ := cache.DeletionHandlingMetaNamespaceKeyFunc(obj)
			v.mu.Lock()
			defer v.mu.Unlock()
			delete(v.keys, key)
		},
	}
}

func (v *view) sorted() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Sorted(maps.Keys(v.keys))
}

// missedDelete is the tombstone scenario on one side: three pods listed;
// the watch is lost while web-3 is deleted; the next watch ends in a 410, so
// the reflector lists again. It returns the cache and the handler's view.
func missedDelete(t *testing.T, newSide func(*gapSource) breakSide) (cacheKeys, handlerView []string) {
	synctest.Test(t, func(t *testing.T) {
		src := newGapSource("web-1", "web-2", "web-3")
		side := newSide(src)
		var v view
		synced := side.addHandler(v.funcs(nil))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go side.run(ctx)
		w := <-src.Watches
		synctest.Wait()
		if !synced() {
			t.Fatalf("%s: the handler did not sync", side.name)
		}

		src.remove("web-3")
		expired := apierrors.NewResourceExpired("too old resource version").ErrStatus
		w.Error(&expired)
		time.Sleep(time.Minute) // the reflector's backoff, on the bubble's clock
		<-src.Watches           // it lists again, then watches
		synctest.Wait()
		cacheKeys, handlerView = side.cacheKeys(), v.sorted()
	})
	return cacheKeys, handlerView
}

// TestNoTombstonesLeavesAGhostInTheHandlersView: after a relist that no
// longer lists web-3, client-go's handler hears of its deletion (a
// DeletedFinalStateUnknown) and so does ours; with Breaks.NoTombstones the
// cache loses web-3 and the handler's view keeps it.
func TestNoTombstonesLeavesAGhostInTheHandlersView(t *testing.T) {
	type outcome struct{ Cache, HandlerView []string }
	run := func(newSide func(*gapSource) breakSide) outcome {
		c, v := missedDelete(t, newSide)
		return outcome{c, v}
	}
	cg := run(clientGoBreakSide)
	ours := run(func(s *gapSource) breakSide { return ourBreakSide(s, informer.Breaks{}, "ours") })
	broken := run(func(s *gapSource) breakSide {
		return ourBreakSide(s, informer.Breaks{NoTombstones: true}, "ours, NoTombstones")
	})

	want := outcome{Cache: []string{"ns/web-1", "ns/web-2"}, HandlerView: []string{"ns/web-1", "ns/web-2"}}
	if diff := cmp.Diff(want, cg); diff != "" {
		t.Fatalf("client-go's informer did not do what the scenario assumes (-assumed +client-go):\n%s", diff)
	}
	if diff := cmp.Diff(cg, ours); diff != "" {
		t.Errorf("ours differs from client-go's with no switch on (-client-go +ours):\n%s", diff)
	}
	ghost := outcome{Cache: []string{"ns/web-1", "ns/web-2"}, HandlerView: []string{"ns/web-1", "ns/web-2", "ns/web-3"}}
	if diff := cmp.Diff(ghost, broken); diff != "" {
		t.Errorf("with NoTombstones (OnDelete drops each DeletedFinalStateUnknown it is given), want web-3 gone from the cache and a ghost in the handler's view (-want +ours, NoTombstones):\n%s", diff)
	}
}

// TestNoTombstonesShowsNoDeleteToAWatcher: watched through observe's seams,
// the switch acts before the watcher sees the informer hand the processor a
// notification, so the timeline shows web-3's deletion dropped where the
// handlers lose it: no processor delete, no OnDelete. Unwatched or watched,
// the informer does the same (the ghost stays).
func TestNoTombstonesShowsNoDeleteToAWatcher(t *testing.T) {
	for _, b := range []informer.Breaks{{}, {NoTombstones: true}} {
		obs := &observations{}
		_, handlerView := missedDelete(t, func(s *gapSource) breakSide {
			return ourWatchedBreakSide(s, b, "ours, watched", obs.observe)
		})
		var steps []string
		for _, step := range obs.path("ns/web-3", "") {
			if strings.HasPrefix(step, "processor delete") || strings.HasPrefix(step, "handler OnDelete") {
				steps = append(steps, step)
			}
		}
		want := []string{"processor delete tombstone", "handler OnDelete processor.ResourceEventHandlerFuncs tombstone"}
		wantView := []string{"ns/web-1", "ns/web-2"}
		if b.NoTombstones {
			want, wantView = nil, append(wantView, "ns/web-3")
		}
		if diff := cmp.Diff(want, steps); diff != "" {
			t.Errorf("%+v: the deletion of web-3 as the watcher saw it (-want +got):\n%s", b, diff)
		}
		if diff := cmp.Diff(wantView, handlerView); diff != "" {
			t.Errorf("%+v, watched: the handler's view (-want +got):\n%s", b, diff)
		}
	}
}

// stalled is the blocking-listener scenario on one side: two handlers, one
// of which (slow) stops on p-1's add until released; four pods are created
// meanwhile. It returns what the other handler (fast) and the cache hold
// while slow is stuck, and after it is released.
func stalled(t *testing.T, newSide func(*gapSource) breakSide) (stuck, released [2][]string) {
	synctest.Test(t, func(t *testing.T) {
		src := newGapSource()
		side := newSide(src)
		release := make(chan struct{})
		var slow, fast view
		side.addHandler(slow.funcs(func(key string) {
			if key == "ns/p-1" {
				<-release
			}
		}))
		side.addHandler(fast.funcs(nil))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go side.run(ctx)
		w := <-src.Watches
		synctest.Wait()

		// One at a time, as separate writes arrive: four events popped
		// together would be one batch, written to the cache before any
		// handler is called (processDeltasInBatch), in both libraries.
		for i := 1; i <= 4; i++ {
			w.Add(src.add(fmt.Sprintf("p-%d", i)))
			synctest.Wait()
		}
		stuck = [2][]string{fast.sorted(), side.cacheKeys()}
		close(release)
		synctest.Wait()
		released = [2][]string{fast.sorted(), side.cacheKeys()}
	})
	return stuck, released
}

// TestBlockingListenerStallsEveryHandlerAndTheCache: while one handler is
// stuck, client-go's other handler and its cache get all four pods, and so
// do ours; with Breaks.BlockingListeners neither gets p-4 until the stuck
// handler returns. Nothing is lost: once released, every side ends equal.
func TestBlockingListenerStallsEveryHandlerAndTheCache(t *testing.T) {
	all := []string{"ns/p-1", "ns/p-2", "ns/p-3", "ns/p-4"}
	cgStuck, cgReleased := stalled(t, clientGoBreakSide)
	ourStuck, ourReleased := stalled(t, func(s *gapSource) breakSide { return ourBreakSide(s, informer.Breaks{}, "ours") })
	brokenStuck, brokenReleased := stalled(t, func(s *gapSource) breakSide {
		return ourBreakSide(s, informer.Breaks{BlockingListeners: true}, "ours, BlockingListeners")
	})

	if diff := cmp.Diff([2][]string{all, all}, cgStuck); diff != "" {
		t.Fatalf("client-go's informer did not do what the scenario assumes: [fast handler, cache] while slow is stuck (-assumed +client-go):\n%s", diff)
	}
	if diff := cmp.Diff(cgStuck, ourStuck); diff != "" {
		t.Errorf("[fast handler, cache] while slow is stuck, no switch on (-client-go +ours):\n%s", diff)
	}
	for i, what := range []string{"the fast handler", "the cache"} {
		if slices.Contains(brokenStuck[i], "ns/p-4") {
			t.Errorf("with BlockingListeners, %s got p-4 while slow was stuck: %v", what, brokenStuck[i])
		}
	}
	if !slices.Contains(brokenStuck[1], "ns/p-3") {
		t.Errorf("with BlockingListeners, the cache should hold p-3 (written before the distributor blocked on it): %v", brokenStuck[1])
	}
	for _, got := range [][2][]string{cgReleased, ourReleased, brokenReleased} {
		if diff := cmp.Diff([2][]string{all, all}, got); diff != "" {
			t.Errorf("[fast handler, cache] once slow returned (-want +got):\n%s", diff)
		}
	}
}

// TestParseBreakKnowsEverySwitch: every listed switch parses, sets exactly
// one field, and an unknown name is an error that says where the list is.
func TestParseBreakKnowsEverySwitch(t *testing.T) {
	seen := map[informer.Breaks]string{}
	for _, b := range informer.AllBreaks {
		got, err := informer.ParseBreak(b.Name)
		if err != nil || got == (informer.Breaks{}) {
			t.Errorf("ParseBreak(%q) = %+v, %v: want one switch on", b.Name, got, err)
		}
		if other, dup := seen[got]; dup {
			t.Errorf("%q and %q set the same switches", b.Name, other)
		}
		seen[got] = b.Name
	}
	if got, err := informer.ParseBreak(""); err != nil || got != (informer.Breaks{}) {
		t.Errorf(`ParseBreak("") = %+v, %v: want nothing broken`, got, err)
	}
	if _, err := informer.ParseBreak("everything"); err == nil {
		t.Error(`ParseBreak("everything") gave no error`)
	}
}
