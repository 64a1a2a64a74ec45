package informer_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"
)

// The classic mode: the same scripted sources through a DeltaFIFO.
//
// client-go v0.37 can no longer build an informer on a DeltaFIFO (its
// InOrderInformers gate is locked on), so the oracle is what remains of the
// classic design in it: cache.New with a DeltaFIFO whose KnownObjects is the
// store, as informers were built before 1.33. Its Process is the one piece
// written here: processDeltas's rules for the delta types a DeltaFIFO emits
// (Sync, Replaced, Added, Updated → Update or Add; Deleted → Delete). So the
// reflector, the queue and the controller loop on that side are client-go's,
// and the ways ours may differ from them (coalescing, Replace's tombstones,
// Delete of an unknown object, Resync) are all on the tested side.
//
// Three of ours run each scenario: the unshared informer
// (NewInformerWithOptions, the handler called in line, as with cache.New),
// and the shared informer with the DeltaFIFO option, whose one handler must
// see what the unshared one does.

// classicSide is an informer with one handler, registered before the run.
type classicSide struct {
	build func(handler recorderHandler) (run func(context.Context), hasSynced func() bool, synced <-chan struct{}, store func() []any, rv func() string)

	handler   recorderHandler
	runFn     func(context.Context)
	hasSynced func() bool
	synced    <-chan struct{}
	store     func() []any
	rv        func() string
	ran       bool
}

// recorderHandler is the method set both libraries' handlers share.
type recorderHandler interface {
	OnAdd(obj any, isInInitialList bool)
	OnUpdate(oldObj, newObj any)
	OnDelete(obj any)
}

func (c *classicSide) addHandler(h handlerSpec, rec *recorder) (registration, error) {
	if c.handler != nil || c.ran {
		return registration{}, errors.New("an unshared informer has exactly one handler, given before it runs")
	}
	c.handler = rec
	c.runFn, c.hasSynced, c.synced, c.store, c.rv = c.build(rec)
	// The handler is called in line, so what the cache holds when it is
	// called is deterministic: the cache must already have the change.
	rec.cached = func(key string) string {
		if rv, ok := storeContent(c.store())[key]; ok {
			return rv
		}
		return "absent"
	}
	// The controller's HasSynced is the only one there is: the handler is
	// called in line, so it has seen what the queue has handed out.
	return registration{hasSynced: c.hasSynced, synced: c.synced, remove: func() error { return errors.New("cannot remove") }}, nil
}

func (c *classicSide) run(ctx context.Context) {
	c.ran = true
	c.runFn(ctx)
}
func (c *classicSide) hasSyncedInformer() bool         { return c.hasSynced() }
func (c *classicSide) cache() map[string]string        { return storeContent(c.store()) }
func (c *classicSide) lastSyncResourceVersion() string { return c.rv() }
func (c *classicSide) isStopped() bool                 { return c.ran }

// classicSideAdapter gives classicSide the side interface (hasSynced is the
// registration's there).
type classicSideAdapter struct{ *classicSide }

func (a classicSideAdapter) hasSynced() bool { return a.classicSide.hasSyncedInformer() }

// newClientGoClassic is cache.New on a DeltaFIFO, the way informers were
// built before RealFIFO.
func newClientGoClassic(lw cache.ListerWatcher, resync time.Duration, transform bool) side {
	return classicSideAdapter{&classicSide{build: func(h recorderHandler) (func(context.Context), func() bool, <-chan struct{}, func() []any, func() string) {
		store := cache.NewStore(cache.DeletionHandlingMetaNamespaceKeyFunc)
		opts := cache.DeltaFIFOOptions{KnownObjects: store, EmitDeltaTypeReplaced: true}
		if transform {
			opts.Transformer = dropManagedFields
		}
		fifo := cache.NewDeltaFIFOWithOptions(opts)
		ctrl := cache.New(&cache.Config{
			Queue:            fifo,
			ListerWatcher:    lw,
			ObjectType:       &corev1.Pod{},
			FullResyncPeriod: resync,
			Process:          classicProcess(store, h),
		})
		return ctrl.RunWithContext, ctrl.HasSynced, ctrl.HasSyncedChecker().Done(), store.List, ctrl.LastSyncResourceVersion
	}}}
}

// classicProcess applies a DeltaFIFO's Deltas as client-go v0.37's
// processDeltas does for the types a DeltaFIFO emits.
func classicProcess(store cache.Store, h recorderHandler) cache.ProcessFunc {
	return func(obj any, isInInitialList bool) error {
		for _, d := range obj.(cache.Deltas) {
			switch d.Type {
			case cache.Sync, cache.Replaced, cache.Added, cache.Updated:
				if old, exists, err := store.Get(d.Object); err == nil && exists {
					if err := store.Update(d.Object); err != nil {
						return err
					}
					h.OnUpdate(old, d.Object)
				} else {
					if err := store.Add(d.Object); err != nil {
						return err
					}
					h.OnAdd(d.Object, isInInitialList)
				}
			case cache.Deleted:
				if err := store.Delete(d.Object); err != nil {
					return err
				}
				h.OnDelete(d.Object)
			}
		}
		return nil
	}
}

// newOurClassicUnshared is NewInformerWithOptions with the DeltaFIFO option.
func newOurClassicUnshared(lw informer.ListerWatcher, resync time.Duration, transform bool) side {
	return classicSideAdapter{&classicSide{build: func(h recorderHandler) (func(context.Context), func() bool, <-chan struct{}, func() []any, func() string) {
		opts := informer.InformerOptions{
			ListerWatcher: lw,
			ObjectType:    &corev1.Pod{},
			Handler:       h,
			ResyncPeriod:  resync,
			Queue:         informer.QueueDeltaFIFO,
		}
		if transform {
			opts.Transform = dropManagedFields
		}
		store, ctrl := informer.NewInformerWithOptions(opts)
		return ctrl.RunWithContext, ctrl.HasSynced, ctrl.HasSyncedChecker().Done(), store.List, ctrl.LastSyncResourceVersion
	}}}
}

var classicScenarios = []scenario{
	{
		name:     "watch events, one at a time",
		initial:  []op{{do: "add", name: "a", app: "web"}, {do: "add", name: "b", app: "web"}},
		handlers: []handlerSpec{{name: "only"}},
		ops: []op{
			{at: 100 * time.Millisecond, do: "modify", name: "a", app: "web"},
			{at: 200 * time.Millisecond, do: "add", name: "c", app: "web"},
			{at: 300 * time.Millisecond, do: "delete", name: "b", app: "web"},
		},
		stopAt: 2 * time.Second,
		timed:  true,
	},
	{
		// A DeltaFIFO's Replace queues the listed objects first and the
		// tombstones after them; a RealFIFO's consumer reports the
		// deletions first, after replacing the cache.
		name:     "a relist that missed a delete, a change and an add",
		initial:  []op{{do: "add", name: "a", app: "web"}, {do: "add", name: "b", app: "web"}, {do: "add", name: "c", app: "web"}},
		handlers: []handlerSpec{{name: "only"}},
		ops: []op{
			{at: 1 * time.Second, do: "deleteDropWatch", name: "a", app: "web"},
			{at: 1 * time.Second, do: "modifyDropWatch", name: "c", app: "db"},
			{at: 1 * time.Second, do: "addDropWatch", name: "d", app: "web"},
			{at: 1 * time.Second, do: "resetWatch"},
			{at: 5 * time.Second, do: "modify", name: "b", app: "db"},
		},
		stopAt: 7 * time.Second,
	},
	{
		name:     "resync: a Sync for every cached object",
		resync:   time.Second,
		initial:  []op{{do: "add", name: "a", app: "web"}, {do: "add", name: "b", app: "web"}},
		handlers: []handlerSpec{{name: "only"}},
		ops:      []op{{at: 1500 * time.Millisecond, do: "modify", name: "a", app: "web"}},
		stopAt:   3500 * time.Millisecond,
		timed:    true,
	},
	{
		// The relist lands between 1.8s and 2.6s (backoff jitter), well
		// clear of the resync ticks at 5s.
		name:      "transform: once per object, never again on a Sync or a tombstone",
		resync:    5 * time.Second,
		transform: true,
		initial:   []op{{do: "add", name: "a", app: "web"}, {do: "add", name: "b", app: "web"}},
		handlers:  []handlerSpec{{name: "only"}},
		ops: []op{
			{at: 1 * time.Second, do: "deleteDropWatch", name: "b", app: "web"},
			{at: 1 * time.Second, do: "resetWatch"},
		},
		stopAt: 5500 * time.Millisecond,
	},
}

func TestClassicModeMatchesClientGoDeltaFIFOController(t *testing.T) {
	for _, sc := range classicScenarios {
		t.Run(sc.name, func(t *testing.T) {
			var theirs, unshared, shared outcome
			synctest.Test(t, func(t *testing.T) {
				theirs = play(t, sc, func(lw sortedSource) side { return newClientGoClassic(lw, sc.resync, sc.transform) })
			})
			synctest.Test(t, func(t *testing.T) {
				unshared = play(t, sc, func(lw sortedSource) side { return newOurClassicUnshared(lw, sc.resync, sc.transform) })
			})
			synctest.Test(t, func(t *testing.T) {
				shared = play(t, sc, func(lw sortedSource) side {
					return newOurShared(lw, sc.resync, sc.transform, informer.QueueDeltaFIFO, nil, nil)
				})
			})
			// The shared informer has a processor: it refuses handlers after
			// the stop where the unshared one has none to refuse. The rest
			// must be the same.
			shared.AddAfterStop = unshared.AddAfterStop
			if diff := cmp.Diff(theirs, unshared, cmpOutcomeOpts...); diff != "" {
				t.Errorf("NewInformerWithOptions on a DeltaFIFO differs from client-go's cache.New on one (-client-go +ours):\n%s", diff)
			}
			// The shared informer's handler runs on its own goroutine, so
			// what the cache holds when it is called is not defined: that
			// part of each call is compared only for the unshared ones.
			if diff := cmp.Diff(withoutCacheReads(theirs), shared, cmpOutcomeOpts...); diff != "" {
				t.Errorf("the shared informer on a DeltaFIFO differs from client-go's cache.New on one (-client-go +ours):\n%s", diff)
			}
			logOutcome(t, shared)
		})
	}
}

// newClientGoUnshared is client-go's NewInformerWithOptions, which in v0.37
// queues through a RealFIFO with atomic events.
func newClientGoUnshared(lw cache.ListerWatcher, resync time.Duration, transform bool) side {
	return classicSideAdapter{&classicSide{build: func(h recorderHandler) (func(context.Context), func() bool, <-chan struct{}, func() []any, func() string) {
		opts := cache.InformerOptions{ListerWatcher: lw, ObjectType: &corev1.Pod{}, Handler: h, ResyncPeriod: resync}
		if transform {
			opts.Transform = dropManagedFields
		}
		store, ctrl := cache.NewInformerWithOptions(opts)
		return ctrl.RunWithContext, ctrl.HasSynced, ctrl.HasSyncedChecker().Done(), store.List, ctrl.LastSyncResourceVersion
	}}}
}

// newOurUnshared is our NewInformerWithOptions with the default queue.
func newOurUnshared(lw informer.ListerWatcher, resync time.Duration, transform bool) side {
	return classicSideAdapter{&classicSide{build: func(h recorderHandler) (func(context.Context), func() bool, <-chan struct{}, func() []any, func() string) {
		opts := informer.InformerOptions{ListerWatcher: lw, ObjectType: &corev1.Pod{}, Handler: h, ResyncPeriod: resync}
		if transform {
			opts.Transform = dropManagedFields
		}
		store, ctrl := informer.NewInformerWithOptions(opts)
		return ctrl.RunWithContext, ctrl.HasSynced, ctrl.HasSyncedChecker().Done(), store.List, ctrl.LastSyncResourceVersion
	}}}
}

// TestUnsharedInformerMatchesClientGo runs the same single-handler
// scenarios through both libraries' NewInformerWithOptions with their
// default queue (RealFIFO): the handler is called in line by processLoop, so
// each call also records what the cache held at that moment, which shows
// that every write, a relist's Replace included, comes before the call.
func TestUnsharedInformerMatchesClientGo(t *testing.T) {
	for _, sc := range classicScenarios {
		t.Run(sc.name, func(t *testing.T) {
			var theirs, ours outcome
			synctest.Test(t, func(t *testing.T) {
				theirs = play(t, sc, func(lw sortedSource) side { return newClientGoUnshared(lw, sc.resync, sc.transform) })
			})
			synctest.Test(t, func(t *testing.T) {
				ours = play(t, sc, func(lw sortedSource) side { return newOurUnshared(lw, sc.resync, sc.transform) })
			})
			if diff := cmp.Diff(theirs, ours, cmpOutcomeOpts...); diff != "" {
				t.Errorf("NewInformerWithOptions differs from client-go's (-client-go +ours):\n%s", diff)
			}
			logOutcome(t, ours)
		})
	}
}

// withoutCacheReads drops what in-line handlers recorded of the cache.
func withoutCacheReads(o outcome) outcome {
	calls := map[string][]string{}
	for name, list := range o.Calls {
		for _, c := range list {
			before, _, _ := strings.Cut(c, " cache:")
			calls[name] = append(calls[name], before)
		}
	}
	o.Calls = calls
	return o
}
