// Not a mirror of client-go: the demo's "what breaks without it" switches
// (--break, informer.Breaks), the audit handler's own view of the pods, in
// which a lost deletion shows, and the step with a stalled handler.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/06-sharedinformer/observe"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/lang"
)

// breakFlag is --break: the name of one informer.Breaks switch, or "help".
var breakFlag string

// breakHelpAsked reports whether the arguments ask for --break=help, which
// the demo answers before it starts a playground.
func breakHelpAsked(args []string) bool { return demo.FlagAsks(args, "break", "help") }

// printBreaks lists the switches, and how to run each, in language l.
func printBreaks(w io.Writer, l string) {
	fmt.Fprintln(w, sayBreaksIntro.In(l))
	for _, b := range informer.AllBreaks {
		what := b.What // a switch not yet said in both languages: a test fails
		if t, ok := sayBreakWhat[b.Name]; ok {
			what = t.In(l)
		}
		fmt.Fprintf(w, "  make run-stage 6 ARGS=--break=%-18s %s\n", b.Name, what)
	}
	fmt.Fprintln(w, sayBreaksOutro.In(l))
}

// view is what the audit handler built from its own calls, key → rv: the
// state a controller keeps beside the cache (an IP per pod, a metric per
// pod). It is right only if every deletion reaches the handler.
type view struct {
	mu   sync.Mutex
	pods map[string]string
	// returned counts the calls the handler has finished: the trail sees a
	// call as it begins (LayerHandler), the view only once it returns.
	returned int
}

func newView() *view { return &view{pods: map[string]string{}} }

// handler keeps the view up to date; it does nothing else.
func (v *view) handler() informer.ResourceEventHandlerFuncs {
	set := func(obj any) {
		v.mu.Lock()
		defer v.mu.Unlock()
		v.returned++
		if pod, ok := obj.(*corev1.Pod); ok {
			v.pods[pod.Name] = pod.ResourceVersion
		}
	}
	return informer.ResourceEventHandlerFuncs{
		AddFunc:    set,
		UpdateFunc: func(_, newObj any) { set(newObj) },
		DeleteFunc: func(obj any) {
			if d, ok := obj.(informer.DeletedFinalStateUnknown); ok {
				obj = d.Obj // a tombstone holds the object as the cache last saw it
			}
			v.mu.Lock()
			defer v.mu.Unlock()
			v.returned++
			if pod, ok := obj.(*corev1.Pod); ok {
				delete(v.pods, pod.Name)
			}
		},
	}
}

// has reports whether the view holds a pod of that name.
func (v *view) has(name string) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	_, ok := v.pods[name]
	return ok
}

// calls is how many calls the handler has returned from.
func (v *view) calls() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.returned
}

// names lists the view as the cache's note does: name@rv, sorted.
func (v *view) names() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	var names []string
	for _, name := range slices.Sorted(maps.Keys(v.pods)) {
		names = append(names, name+"@"+v.pods[name])
	}
	return names
}

// showView prints the audit handler's view beside the cache's, and names
// the ghosts: pods the handler still holds that the cache has let go.
func (s *script) showView(cache []string) {
	if !s.env.Writes {
		return // read-only: the cache note is a count, and the steps that lose a pod are skipped
	}
	// A step waits for audit's calls on the trail, which sees each as it
	// begins: let the last of them return before reading the view.
	begun := s.trail.calls("audit")
	poll(s.env.Ctx, 5*time.Second, func() bool { return s.audit.calls() >= begun })
	got := s.audit.names()
	if slices.Equal(got, cache) {
		s.tl.Note(saySameView)
		return
	}
	var ghosts []string
	for _, n := range got {
		if !slices.Contains(cache, n) {
			ghosts = append(ghosts, n)
		}
	}
	s.tl.Note(sayGhosts, got, ghosts)
}

// missedDeleteWithoutTombstones ends missedDelete under --break=tombstones:
// no handler will hear of web-3, so it waits for what comes after: web-5's
// add at every handler, and web-3 gone from the cache (a RealFIFO's relist
// drops it before any handler call, a DeltaFIFO's after the listed pods).
func (s *script) missedDeleteWithoutTombstones(mark int) error {
	adds := 0
	if err := s.trail.waitFor(s.env.Ctx, mark, "web-5's add at every handler", func(o observe.Observation) bool {
		if step(observe.LayerHandler, "OnAdd", s.ns+"/web-5")(o) {
			adds++
		}
		return adds == 3
	}); err != nil {
		return err
	}
	if err := s.trail.waitFor(s.env.Ctx, mark, "web-3 gone from the cache", func(observe.Observation) bool {
		_, exists, err := s.informer.GetIndexer().GetByKey(s.ns + "/web-3")
		return err == nil && !exists
	}); err != nil {
		return err
	}
	s.showView(s.showCache())
	s.tl.Note(sayNoTombstone)
	return nil
}

// stalledHandler adds a handler that stops on the next pod created, creates
// four pods while it is stuck, and shows who else waits for it.
func (s *script) stalledHandler() error {
	blocking := s.breaks.BlockingListeners
	why := []lang.Text{sayStallWhy}
	if blocking {
		why = append(why, sayStallBreak)
	}
	s.tl.Step(sayStallTitle, why...)
	release := make(chan struct{})
	var once sync.Once
	unblock := func() { once.Do(func() { close(release) }) }
	defer unblock() // an error below must not leave slow stuck: Stop waits for it
	reg, err := s.informer.AddEventHandlerWithOptions(informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if pod, ok := obj.(*corev1.Pod); ok && pod.Name == "burst-1" {
				s.tl.Event("handler", "STALLS", s.ns+"/burst-1", "slow", sayStuck)
				<-release
			}
		},
	}, informer.HandlerOptions{Name: "slow"})
	if err != nil {
		return err
	}
	if !s.waitSynced("slow", reg.HasSyncedChecker()) {
		return fmt.Errorf("the slow handler did not sync within 30s")
	}

	mark := s.trail.mark()
	const burst = 4
	for i := 1; i <= burst; i++ {
		if err := s.create(fmt.Sprintf("burst-%d", i)); err != nil {
			return err
		}
	}
	heard := handlerCall("audit", "OnAdd", s.ns+"/burst-4")
	if !blocking {
		if err := s.trail.waitFor(s.env.Ctx, mark, "burst-4's add at audit", heard); err != nil {
			return err
		}
		// Where slow's notifications are: one in its stuck OnAdd, the
		// ring's, and the one its listener's pop holds in hand, offered to
		// run (stage 05's ProcessorListener): the rest.
		ring := settledPending(s.env.Ctx, reg, burst-2)
		s.tl.Note(sayHeardAll, len(s.trail.addsSince(mark, "audit")), ring, 1, burst-1-int(ring))
	} else {
		// Without the rings audit never hears of burst-4 while slow is
		// stuck; with them it took milliseconds. Five seconds make the point.
		ctx, cancel := context.WithTimeout(s.env.Ctx, 5*time.Second)
		defer cancel()
		err := s.trail.waitFor(ctx, mark, "burst-4's add at audit", heard)
		if err == nil || s.env.Ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("--break=blocking-listener: audit was to wait for slow, and: %v", err)
		}
		s.tl.Event("demo", "WAITED", "5s", "", sayDistributorWaits)
		s.tl.Note(sayHeardOf, s.trail.addsSince(mark, "audit"))
	}
	s.showCache()

	mark = s.trail.mark()
	s.tl.Event("demo", "RELEASE", "slow", "", sayReleased)
	unblock()
	if err := s.trail.waitFor(s.env.Ctx, mark, "burst-4's add at slow", handlerCall("slow", "OnAdd", s.ns+"/burst-4")); err != nil {
		return err
	}
	// audit may have had it long ago: ask its view, not the trail (and
	// poll it: its call may return after the trail's last row).
	if !poll(s.env.Ctx, 30*time.Second, func() bool { return s.audit.has("burst-4") }) {
		return fmt.Errorf("waited 30s for burst-4 in audit's view")
	}
	s.tl.Note(sayCaughtUp)
	s.showView(s.showCache())
	return nil
}

// handlerCall matches a handler's call on key.
func handlerCall(handler, op, key string) func(observe.Observation) bool {
	return func(o observe.Observation) bool {
		return o.Layer == observe.LayerHandler && o.Handler == handler && o.Op == op && o.Key == key
	}
}

// settledPending is pending(reg) once it reaches want, or after 5s if it
// does not. Audit hearing of burst-4 does not mean slow's listener has it:
// the processor hands a pod to its listeners in map order, and pop counts
// one in its ring only after Add has returned. The count the step shows is
// the one once every pod has reached slow's listener: burst-1 in its
// OnAdd, burst-2 in pop's hand, burst-3 and burst-4 in the ring (want 2).
// A ring that loses one never gets there, and shows what it has.
func settledPending(ctx context.Context, reg informer.ResourceEventHandlerRegistration, want int64) int64 {
	poll(ctx, 5*time.Second, func() bool { return pending(reg) == want })
	return pending(reg)
}

// poll checks done every millisecond until it holds, for at most within;
// it reports whether it did. For states no observation announces.
func poll(ctx context.Context, within time.Duration, done func() bool) bool {
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for !done() {
		select {
		case <-ctx.Done():
			return done()
		case <-tick.C:
		}
	}
	return true
}

// pending is how many notifications wait in a registration's ring.
func pending(reg informer.ResourceEventHandlerRegistration) int64 {
	if p, ok := reg.(interface{ PendingNotifications() int64 }); ok {
		return p.PendingNotifications()
	}
	return -1
}

// addsSince lists the keys handler was called OnAdd for since a mark.
func (t *trail) addsSince(since int, handler string) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var keys []string
	for _, o := range t.seen[since:] {
		if handlerCall(handler, "OnAdd", o.Key)(o) {
			keys = append(keys, o.Key)
		}
	}
	return keys
}
