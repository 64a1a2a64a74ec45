// A stand-in for the informer around the processor, loosely following
// k8s.io/client-go v0.37.2 tools/cache/shared_informer.go
// (AddEventHandlerWithOptions, OnAdd/OnUpdate/OnDelete) and the resync timer
// of tools/cache/reflector.go (startResync). Stage 06 builds the real one.

package main

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/clock"

	listwatch "informer-from-scratch/01-listwatch"
	processor "informer-from-scratch/05-processor"
	"informer-from-scratch/internal/timeline"
)

// standIn plays the informer around the processor until stage 06 exists: it
// LISTs and WATCHes pods with stage 01's ListWatch, keeps the latest copy of
// each in a map (the cache), and turns what it sees into notifications:
// initial adds, then one add, update or delete per watch event, and on every
// resync tick a replay of the cache to the handlers whose resync is due. No
// reflector, no FIFO, no indexer: those are stages 02 to 04.
type standIn struct {
	lw *listwatch.ListWatch
	p  *processor.SharedProcessor
	tl *timeline.Timeline

	defaultResync time.Duration
	checkPeriod   time.Duration
	started       bool

	mu     sync.Mutex // the informer's blockDeltas: one notification at a time
	cache  map[string]metav1.Object
	synced *syncedChecker
}

// syncedChecker is the informer's own "has synced": closed after the initial
// list has been handed to the processor.
type syncedChecker struct{ ch chan struct{} }

func (s *syncedChecker) Name() string          { return "demo stand-in informer" }
func (s *syncedChecker) Done() <-chan struct{} { return s.ch }

func newStandIn(lw *listwatch.ListWatch, tl *timeline.Timeline, defaultResync time.Duration) *standIn {
	return &standIn{
		lw:            lw,
		p:             processor.NewSharedProcessor(clock.RealClock{}, processor.ProcessorOptions{}),
		tl:            tl,
		defaultResync: defaultResync,
		checkPeriod:   defaultResync,
		cache:         map[string]metav1.Object{},
		synced:        &syncedChecker{ch: make(chan struct{})},
	}
}

// addEventHandler is the registration half of
// sharedIndexInformer.AddEventHandlerWithResyncPeriod (before Run only: the
// demo registers everything up front).
func (s *standIn) addEventHandler(h processor.ResourceEventHandler, requested time.Duration) (*processor.ProcessorListener, error) {
	period, check, err := processor.HandlerResyncPeriod(requested, s.checkPeriod, s.started)
	if err != nil {
		return nil, err
	}
	if check != s.checkPeriod {
		s.checkPeriod = check
		s.p.ResyncCheckPeriodChanged(check)
	}
	l, err := processor.NewProcessListener(h, period, processor.DetermineResyncPeriod(period, check), time.Now(), processor.InitialBufferSize, s.synced)
	if err != nil {
		return nil, err
	}
	if _, _, err := s.p.AddListener(l); err != nil {
		return nil, err
	}
	return l, nil
}

// run lists, starts the processor, then watches and ticks resyncs until ctx
// ends. It returns once the processor has stopped.
func (s *standIn) run(ctx context.Context) error {
	s.started = true
	var wg sync.WaitGroup
	defer wg.Wait()
	// However run ends, the processor and the resync loop end with it: a
	// failed LIST must not leave them running (and wg.Wait waiting).
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wg.Go(func() { s.p.Run(ctx) })

	list, err := s.lw.ListWithContext(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("LIST: %w", err)
	}
	items, err := meta.ExtractList(list)
	if err != nil {
		return err
	}
	rv, _ := meta.NewAccessor().ResourceVersion(list)
	// Each informer row is printed before its notifications are handed
	// out: the handlers print as soon as they get one, on their own
	// goroutines. The row is where its resourceVersion enters the timeline.
	s.tl.EventAbout(timeline.Origin(rv), "informer", "LIST", sayPods.Format(len(items)), "rv="+rv, sayInitialAdds)
	s.mu.Lock()
	for _, item := range items {
		obj, _ := meta.Accessor(item)
		s.cache[key(obj)] = obj
		s.p.Distribute(processor.AddNotification{NewObj: obj, IsInInitialList: true}, false)
	}
	s.mu.Unlock()
	close(s.synced.ch)

	w, err := s.lw.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: rv})
	if err != nil {
		return fmt.Errorf("WATCH: %w", err)
	}
	defer w.Stop()
	wg.Go(func() { s.resyncLoop(ctx) })
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.ResultChan():
			if !ok {
				return nil
			}
			s.handle(ev)
		}
	}
}

// handle turns one watch event into a cache change and a notification.
func (s *standIn) handle(ev watch.Event) {
	obj, err := meta.Accessor(ev.Object)
	if err != nil {
		s.tl.Event("informer", "SKIP", fmt.Sprintf("%T", ev.Object), string(ev.Type), sayNoMetadata)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := key(obj)
	old, exists := s.cache[k]
	var n processor.Notification
	switch {
	case ev.Type == watch.Deleted:
		delete(s.cache, k)
		n = processor.DeleteNotification{OldObj: obj}
	case ev.Type != watch.Added && ev.Type != watch.Modified:
		return // bookmarks and errors: nothing for handlers
	case exists:
		s.cache[k] = obj
		n = processor.UpdateNotification{OldObj: old, NewObj: obj}
	default:
		s.cache[k] = obj
		n = processor.AddNotification{NewObj: obj}
	}
	rv := obj.GetResourceVersion()
	s.tl.EventWith(timeline.Origin(rv), "informer", string(ev.Type), k, "rv="+rv, sayDistributed)
	s.p.Distribute(n, false)
}

// resyncLoop is the reflector's resync timer: every check period, ask the
// processor who is due, and if anyone is, replay the cache as sync updates.
// Like the reflector, it starts a new timer after each check rather than
// using a ticker: a ticker would fire a hair before "one period after the
// last check", and a listener due exactly then would wait a whole extra
// period.
func (s *standIn) resyncLoop(ctx context.Context) {
	if s.checkPeriod == 0 {
		return
	}
	for {
		t := time.NewTimer(s.checkPeriod)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		s.mu.Lock()
		if s.p.ShouldResync() {
			keys := slices.Sorted(maps.Keys(s.cache))
			s.tl.EventAbout(nil, "informer", "RESYNC", sayPods.Format(len(keys)), "", sayResyncRow)
			for _, k := range keys {
				s.p.Distribute(processor.UpdateNotification{OldObj: s.cache[k], NewObj: s.cache[k]}, true)
			}
		}
		s.mu.Unlock()
	}
}

func key(obj metav1.Object) string { return obj.GetNamespace() + "/" + obj.GetName() }
