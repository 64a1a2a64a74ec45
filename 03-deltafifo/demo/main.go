// Command demo is stage 03's demo: the same ConfigMap events, from a real
// LIST and WATCH, go into a DeltaFIFO and a RealFIFO, and what each one's Pop
// hands out is printed side by side: coalesced Deltas per key against events
// in order, a relist that turns a missed deletion into a tombstone, and a
// resync. Run it with `make run-stage 3`.
package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	listwatch "informer-from-scratch/01-listwatch"
	"informer-from-scratch/internal/demo"
)

var options = demo.Options{
	Stage: 3,
	Title: "DeltaFIFO and RealFIFO: the same events through both queues",
}

func main() { demo.Main(options, run) }

func run(env *demo.Env) error {
	tl := env.Timeline
	if !env.Writes {
		tl.Step("This demo needs to change ConfigMaps",
			"It creates, updates and deletes a few ConfigMaps to have events to queue.",
			"On a real cluster a demo only reads, so it stops here: run it on the playground (make run-stage 3).")
		return nil
	}
	ns, err := env.Namespace("stage03")
	if err != nil {
		return err
	}
	s := &script{env: env, ns: ns, q: newQueues(tl)}
	s.lw = listwatch.NewFilteredListWatchFromClient(env.Client.CoreV1().RESTClient(), "configmaps", ns,
		func(o *metav1.ListOptions) { o.LabelSelector = labelKey + "=" + labelValue })
	defer s.stopWatch("the demo ends")

	for _, step := range []func() error{s.initialList, s.burst, s.relistAfterMissedDelete, s.resync, s.conclude} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func (s *script) initialList() error {
	s.env.Timeline.Step("The initial list",
		"A Reflector starts with a LIST and hands it to its queue's Replace. The DeltaFIFO queues one",
		"Replaced delta per object; the RealFIFO (AtomicEvents) one ReplacedAll item for the whole list.")
	for _, name := range []string{"web-1", "web-2"} {
		if err := s.create(name); err != nil {
			return err
		}
	}
	if err := s.relist(); err != nil {
		return err
	}
	if err := s.q.drain(); err != nil {
		return err
	}
	s.env.Timeline.Note("HasSynced: DeltaFIFO=%v after %d Pops, RealFIFO=%v after %d: the first list has been delivered.",
		s.q.delta.HasSynced(), s.q.deltaPops, s.q.real.HasSynced(), s.q.realPops)
	return nil
}

func (s *script) burst() error {
	s.env.Timeline.Step("Watch events while the consumer is busy",
		"Five changes arrive before anyone pops. The DeltaFIFO files each under its object's key, and a",
		"key keeps the place where its FIRST pending change arrived; the RealFIFO keeps one item per event.")
	if err := s.watchFrom(s.listRV); err != nil {
		return err
	}
	for _, c := range []struct {
		do   func() error
		want watch.EventType
		name string
	}{
		{func() error { return s.update("web-1", "2") }, watch.Modified, "web-1"},
		{func() error { return s.create("web-3") }, watch.Added, "web-3"},
		{func() error { return s.update("web-1", "3") }, watch.Modified, "web-1"},
		{func() error { return s.remove("web-2", "(the watch is open)") }, watch.Deleted, "web-2"},
		{func() error { return s.update("web-3", "2") }, watch.Modified, "web-3"},
	} {
		if err := s.change(c.do, c.want, c.name); err != nil {
			return err
		}
	}
	return s.q.drain()
}

func (s *script) relistAfterMissedDelete() error {
	s.env.Timeline.Step("A relist after the watch broke: tombstones",
		"While no watch is open, web-1 is deleted. The next LIST simply lacks it. The DeltaFIFO compares",
		"the list with what its consumer knows (KnownObjects) and queues a DeletedFinalStateUnknown;",
		"the RealFIFO queues the list as one item, and its consumer finds the deletion itself.")
	s.stopWatch("the connection drops")
	if err := s.remove("web-1", "(nobody is watching)"); err != nil {
		return err
	}
	if err := s.create("web-4"); err != nil {
		return err
	}
	s.q.fed = nil // nothing was watched: these changes reach the queues only through the list
	if err := s.relist(); err != nil {
		return err
	}
	return s.q.drain()
}

func (s *script) resync() error {
	s.env.Timeline.Step("A periodic resync",
		"Resync hands the objects the consumer already has back to it, so handlers can re-check them;",
		"nothing is read from the server. A pending change to web-3 is still queued when it runs.")
	if err := s.watchFrom(s.listRV); err != nil {
		return err
	}
	if err := s.change(func() error { return s.update("web-3", "3") }, watch.Modified, "web-3"); err != nil {
		return err
	}
	s.env.Timeline.Event("informer", "RESYNC", "both queues", "Resync()")
	if err := s.q.resync(); err != nil {
		return err
	}
	if err := s.q.drain(); err != nil {
		return err
	}
	s.env.Timeline.Note("The DeltaFIFO skipped web-3: its queued update is newer than the cached copy a Sync would carry.")
	return nil
}

func (s *script) conclude() error {
	tl := s.env.Timeline
	tl.Step("Why client-go moved to RealFIFO")
	same := "the same"
	if s.q.deltaCache.String() != s.q.realCache.String() {
		same = "DIFFERENT"
	}
	tl.Note("Both consumers end with %s cache (%s), but only the RealFIFO's went", same, s.q.realCache)
	tl.Note("through the states the server went through, one resourceVersion after another. With a DeltaFIFO a")
	tl.Note("handler that lists the cache can see web-1 changed while web-3, created before that change, is missing.")
	tl.Note("In client-go v0.37 every informer uses a RealFIFO (InOrderInformers is GA) with AtomicEvents:")
	tl.Note("a relist replaces the cache in one step, and the informer, not the queue, works out the tombstones.")
	return nil
}
