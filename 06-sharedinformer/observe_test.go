package informer_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	fcache "k8s.io/client-go/tools/cache/testing"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/06-sharedinformer/observe"
)

// The Observer hook is ours (client-go has metrics and logs instead), so
// there is nothing to compare it with; these tests check what it promises:
// every step of an object, layer after layer, in the order the informer
// takes them, and no change at all to what handlers see.

// observations collects an informer's observations.
type observations struct {
	mu   sync.Mutex
	list []observe.Observation
}

func (o *observations) observe(obs observe.Observation) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.list = append(o.list, obs)
}

// path renders the steps of one object at one resourceVersion (or, with
// key "", the steps about no one object), as "layer op [handler] detail".
// Handlers run concurrently, so their steps are sorted among themselves.
func (o *observations) path(key, rv string) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	var steps, handlers []string
	for _, obs := range o.list {
		if obs.Key != key || (rv != "" && obs.ResourceVersion != rv) {
			continue
		}
		fields := []string{string(obs.Layer), obs.Op, obs.Handler, obs.Detail}
		if obs.InitialList {
			fields = append(fields, "initial")
		}
		if obs.Sync {
			fields = append(fields, "sync")
		}
		s := strings.Join(slices.DeleteFunc(fields, func(f string) bool { return f == "" }), " ")
		if obs.Layer == observe.LayerHandler {
			handlers = append(handlers, s)
			continue
		}
		steps = append(steps, s)
	}
	slices.Sort(handlers)
	return append(steps, handlers...)
}

func TestObserverFollowsOneObjectThroughEveryLayer(t *testing.T) {
	for _, kind := range []informer.QueueKind{informer.QueueRealFIFO, informer.QueueDeltaFIFO} {
		t.Run(kind.String(), func(t *testing.T) {
			obs := &observations{}
			synctest.Test(t, func(t *testing.T) {
				source := fcache.NewFakeControllerSource()
				source.Add(newPod("a", "web")) // rv 1
				source.Add(newPod("b", "web")) // rv 2
				inf := informer.NewSharedIndexInformerWithOptions(sortedSource{source}, &corev1.Pod{}, informer.SharedIndexInformerOptions{
					Queue: kind,
					Seams: observe.Seams(obs.observe),
				})
				for _, name := range []string{"first", "second"} {
					if _, err := inf.AddEventHandlerWithOptions(informer.ResourceEventHandlerFuncs{}, informer.HandlerOptions{Name: name}); err != nil {
						t.Fatal(err)
					}
				}
				ctx, cancel := context.WithCancel(context.Background())
				var wg sync.WaitGroup
				wg.Go(func() { inf.RunWithContext(ctx) })
				synctest.Wait()
				source.Modify(newPod("a", "db")) // rv 3
				synctest.Wait()
				if _, err := inf.AddEventHandlerWithOptions(informer.ResourceEventHandlerFuncs{}, informer.HandlerOptions{Name: "late"}); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				source.DeleteDropWatch(newPod("b", "web")) // rv 4, unseen
				source.ResetWatch()
				time.Sleep(5 * time.Second)
				synctest.Wait()
				cancel()
				wg.Wait()
				source.Shutdown()
			})

			// Every step of a at rv 1 (the initial list), a at rv 3 (an
			// update, replayed to the late handler, found unchanged by the
			// relist) and b at rv 2 (listed, replayed, deleted unseen).
			want := map[informer.QueueKind]map[string][]string{
				informer.QueueRealFIFO: {
					// The whole list is one ReplacedAll item and one cache
					// Replace: no per-object queue or indexer step.
					"ns/a@1": {"processor add initial",
						"handler OnAdd first initial", "handler OnAdd second initial"},
					"ns/a@3": {"reflector Update", "queue Updated", "indexer Update", "processor update from rv 1",
						"processor replay late initial", "processor update from rv 3 sync",
						"handler OnAdd late initial", "handler OnUpdate first from rv 1", "handler OnUpdate first from rv 3 sync",
						"handler OnUpdate late from rv 3 sync", "handler OnUpdate second from rv 1", "handler OnUpdate second from rv 3 sync"},
					// The consumer finds b missing from the relist.
					"ns/b@2": {"processor add initial", "processor replay late initial", "processor delete tombstone",
						"handler OnAdd first initial", "handler OnAdd late initial", "handler OnAdd second initial",
						"handler OnDelete first tombstone", "handler OnDelete late tombstone", "handler OnDelete second tombstone"},
				},
				informer.QueueDeltaFIFO: {
					// A list is one Replaced delta per object.
					"ns/a@1": {"queue Replaced initial", "indexer Add", "processor add initial",
						"handler OnAdd first initial", "handler OnAdd second initial"},
					"ns/a@3": {"reflector Update", "queue Updated", "indexer Update", "processor update from rv 1",
						"processor replay late initial", "queue Replaced", "indexer Update", "processor update from rv 3 sync",
						"handler OnAdd late initial", "handler OnUpdate first from rv 1", "handler OnUpdate first from rv 3 sync",
						"handler OnUpdate late from rv 3 sync", "handler OnUpdate second from rv 1", "handler OnUpdate second from rv 3 sync"},
					// The queue makes the tombstone from the cache.
					"ns/b@2": {"queue Replaced initial", "indexer Add", "processor add initial", "processor replay late initial",
						"queue Deleted tombstone", "indexer Delete tombstone", "processor delete tombstone",
						"handler OnAdd first initial", "handler OnAdd late initial", "handler OnAdd second initial",
						"handler OnDelete first tombstone", "handler OnDelete late tombstone", "handler OnDelete second tombstone"},
				},
			}
			for what, steps := range want[kind] {
				key, rv, _ := strings.Cut(what, "@")
				if diff := cmp.Diff(steps, obs.path(key, rv)); diff != "" {
					t.Errorf("%s (-want +got):\n%s", what, diff)
				}
			}
			// Steps about the lists: the initial one and the relist.
			lists := map[informer.QueueKind][]string{
				informer.QueueRealFIFO: {
					"reflector Replace 2 objects", "queue ReplacedAll 2 objects initial", "indexer Replace 2 objects",
					"reflector Replace 1 objects", "queue ReplacedAll 1 objects", "indexer Replace 1 objects",
				},
				informer.QueueDeltaFIFO: {"reflector Replace 2 objects", "reflector Replace 1 objects"},
			}
			if diff := cmp.Diff(lists[kind], obs.path("", "")[:len(lists[kind])]); diff != "" {
				t.Errorf("the lists (-want +got):\n%s", diff)
			}
		})
	}
}

// onAddNamed is a handler function with a name of its own: a listener names
// a ResourceEventHandlerFuncs by its functions.
func onAddNamed(obj any) {
	if obj.(*corev1.Pod).Name == "boom" {
		panic("handler bug: boom")
	}
}

// TestWatchedHandlerKeepsItsName: a listener names its handler in its
// HasSynced checker (what WaitFor reports while it waits) and in the
// HandlerPanic of a recovered panic. Watched through observe's seams, the
// handler is called through a wrapper, and must keep the name it has
// unwatched.
func TestWatchedHandlerKeepsItsName(t *testing.T) {
	names := func(seams informer.Seams) (checker, panicked string) {
		synctest.Test(t, func(t *testing.T) {
			source := fcache.NewFakeControllerSource()
			defer source.Shutdown()
			source.Add(newPod("boom", "web"))
			panics := make(chan informer.HandlerPanic, 1)
			inf := informer.NewSharedIndexInformerWithOptions(source, &corev1.Pod{}, informer.SharedIndexInformerOptions{
				Seams:          seams,
				OnHandlerPanic: func(p informer.HandlerPanic) { panics <- p },
			})
			reg, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{AddFunc: onAddNamed})
			if err != nil {
				t.Fatal(err)
			}
			checker = reg.HasSyncedChecker().Name()
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Go(func() { inf.RunWithContext(ctx) })
			panicked = (<-panics).Handler
			cancel()
			wg.Wait()
		})
		return checker, panicked
	}
	checker, panicked := names(informer.Seams{})
	if !strings.Contains(checker, "onAddNamed") || !strings.Contains(panicked, "onAddNamed") {
		t.Fatalf("unwatched, the handler is named %q (HasSynced) and %q (HandlerPanic): want its function's name", checker, panicked)
	}
	watchedChecker, watchedPanicked := names(observe.Seams(func(observe.Observation) {}))
	if watchedChecker != checker {
		t.Errorf("watched, the registration's HasSynced checker is named %q, unwatched %q", watchedChecker, checker)
	}
	if watchedPanicked != panicked {
		t.Errorf("watched, a panic names the handler %q, unwatched %q", watchedPanicked, panicked)
	}
}
