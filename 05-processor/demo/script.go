package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"

	listwatch "informer-from-scratch/01-listwatch"
	processor "informer-from-scratch/05-processor"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/timeline"
)

const (
	slowDelay    = 400 * time.Millisecond
	resyncPeriod = 5 * time.Second
)

// script holds what the steps share.
type script struct {
	env *demo.Env
	tl  *timeline.Timeline
	ns  string
	// lw is what the stand-in lists and watches: nil for the cluster's
	// pods in ns (its test's is scripted).
	lw *listwatch.ListWatch

	inf       *standIn
	handlers  []*handler // fast, slow, resync
	listeners []*processor.ProcessorListener
	cancel    context.CancelFunc
	runDone   chan error
	stopOnce  sync.Once
}

func (s *script) setScene() error {
	if !s.env.Writes {
		s.ns = "kube-system"
		s.tl.Step(sayReadOnlyTitle, sayReadOnlyWhy)
		return nil
	}
	s.tl.Step(saySceneTitle, saySceneWhy)
	var err error
	if s.ns, err = s.env.Namespace("stage05"); err != nil {
		return err
	}
	for i := 1; i <= 3; i++ {
		if err := s.createPod(fmt.Sprintf("web-%d", i)); err != nil {
			return err
		}
	}
	return nil
}

func (s *script) createPod(name string) error {
	_, err := s.env.Client.CoreV1().Pods(s.ns).Create(s.env.Ctx, demo.Pod(s.ns, name, map[string]string{"app": "web"}), metav1.CreateOptions{})
	return err
}

// slowDelay is the slow handler's time per call: shorter on a real cluster,
// whose kube-system may hold many pods for it to get through.
func (s *script) slowDelay() time.Duration {
	if !s.env.Writes {
		return 50 * time.Millisecond
	}
	return slowDelay
}

func (s *script) registerAndStart() error {
	s.tl.Step(sayRegisterTitle, sayRegisterWhy)
	lw := s.lw
	if lw == nil {
		lw = listwatch.NewFilteredListWatchFromClient(s.env.Client.CoreV1().RESTClient(), "pods", s.ns, func(*metav1.ListOptions) {})
	}
	s.inf = newStandIn(lw, s.tl, time.Minute)
	for _, h := range []struct {
		name   string
		delay  time.Duration
		resync time.Duration
	}{{"fast", 0, 0}, {"slow", s.slowDelay(), 0}, {"resync", 0, resyncPeriod}} {
		hd := &handler{name: h.name, delay: h.delay, tl: s.tl}
		l, err := s.inf.addEventHandler(hd, h.resync)
		if err != nil {
			return err
		}
		s.handlers, s.listeners = append(s.handlers, hd), append(s.listeners, l)
	}
	s.tl.Note(sayPeriods,
		s.listeners[0].ResyncPeriod(), s.listeners[1].ResyncPeriod(), s.listeners[2].ResyncPeriod(), s.inf.checkPeriod)

	ctx, cancel := context.WithCancel(s.env.Ctx)
	s.cancel, s.runDone = cancel, make(chan error, 1)
	go func() {
		err := s.inf.run(ctx)
		cancel() // if run ended on its own (a failed LIST), stop waiting below
		s.runDone <- err
	}()

	// Each registration's HasSynced: the source has synced AND this handler
	// has returned from OnAdd for every initial-list item.
	var wg sync.WaitGroup
	for i, l := range s.listeners {
		wg.Go(func() {
			select {
			case <-l.HasSyncedChecker().Done():
				s.tl.Event(s.handlers[i].name, "SYNCED", "HasSynced() = true", "", sayEveryInitialAdd)
			case <-ctx.Done():
			}
		})
	}
	wg.Wait()
	if err := s.env.Ctx.Err(); err != nil {
		return err
	}
	if ctx.Err() != nil {
		// The stand-in ended before every handler synced: say why.
		s.cancel = nil // nothing left for stop to stop
		err := <-s.runDone
		if err == nil {
			err = errors.New("its watch ended")
		}
		return fmt.Errorf("the stand-in informer stopped before the handlers synced: %w", err)
	}
	return nil
}

func (s *script) burst() error {
	s.tl.Step(sayBurstTitle, sayBurstWhy)
	gaugeCtx, stopGauge := context.WithCancel(s.env.Ctx)
	var wg sync.WaitGroup
	wg.Go(func() { s.gauge(gaugeCtx) })
	defer func() { stopGauge(); wg.Wait() }()

	if s.env.Writes {
		pods := s.env.Client.CoreV1().Pods(s.ns)
		for _, name := range []string{"web-4", "web-5"} {
			if err := s.createPod(name); err != nil {
				return err
			}
		}
		for _, name := range []string{"web-1", "web-2", "web-3"} {
			if _, err := pods.Patch(s.env.Ctx, name, "application/merge-patch+json",
				[]byte(`{"metadata":{"labels":{"tier":"gold"}}}`), metav1.PatchOptions{}); err != nil {
				return err
			}
		}
	} else {
		select { // a Ctrl-C need not wait the five seconds out
		case <-time.After(5 * time.Second):
		case <-s.env.Ctx.Done():
		}
	}
	return s.waitDrained(20 * time.Second)
}

// gauge prints the depth of each listener's ring whenever it changes.
func (s *script) gauge(ctx context.Context) {
	t := time.NewTicker(150 * time.Millisecond)
	defer t.Stop()
	last := ""
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		now := fmt.Sprintf("fast=%d slow=%d resync=%d", s.listeners[0].PendingNotifications(),
			s.listeners[1].PendingNotifications(), s.listeners[2].PendingNotifications())
		if now != last {
			s.tl.Event("ring", "DEPTH", now, "", saySlowCapacity.Format(s.listeners[1].BufferCapacity()))
			last = now
		}
	}
}

// waitDrained waits until no ring holds anything and the slow handler has been
// idle for longer than one of its calls.
func (s *script) waitDrained(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	lastCalls, quietSince := s.handlers[1].calls.Load(), time.Now()
	for time.Now().Before(deadline) {
		if err := s.env.Ctx.Err(); err != nil {
			return err
		}
		time.Sleep(50 * time.Millisecond)
		if c := s.handlers[1].calls.Load(); c != lastCalls {
			lastCalls, quietSince = c, time.Now()
			continue
		}
		if s.listeners[1].PendingNotifications() == 0 && time.Since(quietSince) > s.slowDelay()+200*time.Millisecond {
			return nil
		}
	}
	return fmt.Errorf("the slow handler did not catch up within %s", timeout)
}

func (s *script) resync() error {
	s.tl.Step(sayResyncTitle, sayResyncWhy)
	before := s.handlers[2].calls.Load()
	deadline := time.Now().Add(resyncPeriod + time.Second)
	for s.handlers[2].calls.Load() == before {
		if time.Now().After(deadline) {
			return fmt.Errorf("no resync within %s", resyncPeriod+time.Second)
		}
		if err := s.env.Ctx.Err(); err != nil {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // let the replay finish printing
	return nil
}

// stop ends the processor: each listener's addCh is closed, pop returns and
// closes nextCh, run returns after the call in progress.
func (s *script) stop() {
	s.stopOnce.Do(func() {
		if s.cancel == nil {
			return
		}
		s.tl.Step(sayStopTitle, sayStopWhy)
		s.cancel()
		if err := <-s.runDone; err != nil {
			s.tl.Note(sayStandInEnded, err)
		}
		for i, l := range s.listeners {
			<-l.ShutdownChan()
			s.tl.Event(s.handlers[i].name, "STOPPED", "ShutdownChan", "", sayClosedAfter.Format(s.handlers[i].calls.Load()))
		}
	})
}

// bufferCost fills one listener's ring with 100,000 notifications while its
// handler is stuck, then lets it drain: the ring's array does not shrink.
func (s *script) bufferCost() error {
	const n = 100_000
	s.tl.Step(sayCostTitle, sayCostWhy.Format(n))
	p := processor.NewSharedProcessor(clock.RealClock{}, processor.ProcessorOptions{})
	gate := make(chan struct{})
	var handled sync.WaitGroup
	handled.Add(n)
	stuck := processor.ResourceEventHandlerFuncs{AddFunc: func(any) {
		<-gate
		handled.Done()
	}}
	synced := &syncedChecker{ch: make(chan struct{})}
	close(synced.ch)
	l, err := processor.NewProcessListener(stuck, 0, 0, time.Now(), processor.InitialBufferSize, synced)
	if err != nil {
		return err
	}
	if _, _, err := p.AddListener(l); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(s.env.Ctx)
	var wg sync.WaitGroup
	wg.Go(func() { p.Run(ctx) })
	defer func() { cancel(); wg.Wait() }()

	start := time.Now()
	for i := range n {
		p.Distribute(processor.AddNotification{NewObj: i}, false)
	}
	for l.PendingNotifications() != n-2 {
		time.Sleep(time.Millisecond)
	}
	s.tl.EventAbout(nil, "ring", "DEPTH", sayPending.Format(l.PendingNotifications()), "",
		sayCapacity.Format(l.BufferCapacity(), doublings(l.BufferCapacity()), time.Since(start).Round(time.Millisecond)))
	close(gate)
	handled.Wait()
	s.tl.EventAbout(nil, "ring", "DRAINED", sayPending.Format(0), "",
		sayStillCapacity.Format(l.BufferCapacity(), l.BufferCapacity()*16/1024))
	s.tl.Note(sayStalls)
	return nil
}

func doublings(c int64) int {
	d := 0
	for c > processor.InitialBufferSize {
		c /= 2
		d++
	}
	return d
}
