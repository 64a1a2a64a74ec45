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
	Title: sayTitle,
}

func main() { demo.Main(options, run) }

func run(env *demo.Env) error {
	tl := env.Timeline
	if !env.Writes {
		tl.Step(sayNeedsWritesTitle, sayNeedsWritesWhy)
		return nil
	}
	ns, err := env.Namespace("stage03")
	if err != nil {
		return err
	}
	s := &script{env: env, ns: ns, q: newQueues(tl)}
	s.lw = listwatch.NewFilteredListWatchFromClient(env.Client.CoreV1().RESTClient(), "configmaps", ns,
		func(o *metav1.ListOptions) { o.LabelSelector = labelKey + "=" + labelValue })
	defer s.stopWatch(sayDemoEnds)

	for _, step := range []func() error{s.initialList, s.burst, s.relistAfterMissedDelete, s.resync, s.conclude} {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func (s *script) initialList() error {
	s.env.Timeline.Step(sayInitialTitle, sayInitialWhy)
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
	s.env.Timeline.Note(saySynced,
		s.q.delta.HasSynced(), s.q.deltaPops, s.q.real.HasSynced(), s.q.realPops)
	return nil
}

func (s *script) burst() error {
	s.env.Timeline.Step(sayBurstTitle, sayBurstWhy)
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
		{func() error { return s.remove("web-2", sayWatchOpen) }, watch.Deleted, "web-2"},
		{func() error { return s.update("web-3", "2") }, watch.Modified, "web-3"},
	} {
		if err := s.change(c.do, c.want, c.name); err != nil {
			return err
		}
	}
	return s.q.drain()
}

func (s *script) relistAfterMissedDelete() error {
	s.env.Timeline.Step(sayTombstoneTitle, sayTombstoneWhy)
	s.stopWatch(sayConnectionDrops)
	if err := s.remove("web-1", sayNobodyWatching); err != nil {
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
	s.env.Timeline.Step(sayResyncTitle, sayResyncWhy)
	if err := s.watchFrom(s.listRV); err != nil {
		return err
	}
	if err := s.change(func() error { return s.update("web-3", "3") }, watch.Modified, "web-3"); err != nil {
		return err
	}
	s.env.Timeline.EventAbout(nil, "informer", "RESYNC", sayBothQueues, "Resync()")
	if err := s.q.resync(); err != nil {
		return err
	}
	if err := s.q.drain(); err != nil {
		return err
	}
	s.env.Timeline.Note(saySkipped)
	return nil
}

func (s *script) conclude() error {
	tl := s.env.Timeline
	tl.Step(sayWhyRealFIFOTitle)
	same := saySame
	if s.q.deltaCache.String() != s.q.realCache.String() {
		same = sayDifferent
	}
	tl.Note(sayWhyRealFIFO, same, s.q.realCache)
	return nil
}
