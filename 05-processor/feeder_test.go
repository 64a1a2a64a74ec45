package processor

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
)

// feeder stands in for stage 06's informer: just enough of
// sharedIndexInformer to drive our processor the way client-go's informer
// drives its own. It keeps a map as the cache, hands the processor the
// initial list (isInInitialList=true), then one notification per change, and
// runs the reflector's resync tick (ShouldResync, then a sync update per
// cached object). AddEventHandler repeats AddEventHandlerWithOptions: the
// resync arithmetic, and for a handler added while running, the replay of the
// cache under blockDeltas.
type feeder struct {
	clock         clock.PassiveClock
	p             *SharedProcessor
	defaultResync time.Duration

	startedLock bubbleMutex
	started     bool
	checkPeriod time.Duration

	// blockDeltas serializes Distribute with the late-join replay, as in
	// client-go.
	blockDeltas bubbleMutex
	store       map[string]*corev1.Pod
	lastRV      int

	synced *doneChan
}

// bubbleMutex is the feeder's mutex: a channel of one slot, because a
// goroutine waiting on a channel in a testing/synctest bubble is durably
// blocked and one waiting on a sync.Mutex is not. So when a listener stops
// taking notifications (a pop that never receives: the lab's stub, or a bug)
// and every goroutine ends up waiting, synctest reports the deadlock at once,
// in the test that caused it, instead of go test's timeout firing a minute
// later. Make it with newBubbleMutex inside the bubble.
type bubbleMutex chan struct{}

func newBubbleMutex() bubbleMutex { return make(bubbleMutex, 1) }
func (m bubbleMutex) Lock()       { m <- struct{}{} }
func (m bubbleMutex) Unlock()     { <-m }

// doneChan is a DoneChecker over a channel.
type doneChan struct {
	name string
	ch   chan struct{}
}

func (d *doneChan) Name() string          { return d.name }
func (d *doneChan) Done() <-chan struct{} { return d.ch }

func newFeeder(defaultResync time.Duration, opts ProcessorOptions) *feeder {
	clk := clock.RealClock{} // inside a synctest bubble, this is fake time
	return &feeder{
		clock:         clk,
		p:             NewSharedProcessor(clk, opts),
		defaultResync: defaultResync,
		checkPeriod:   defaultResync,
		startedLock:   newBubbleMutex(),
		blockDeltas:   newBubbleMutex(),
		store:         map[string]*corev1.Pod{},
		synced:        &doneChan{name: "feeder", ch: make(chan struct{})},
	}
}

// AddEventHandler mirrors sharedIndexInformer.AddEventHandlerWithOptions;
// resync nil means the informer's default.
func (f *feeder) AddEventHandler(handler ResourceEventHandler, resync *time.Duration) (ResourceEventHandlerRegistration, error) {
	f.startedLock.Lock()
	defer f.startedLock.Unlock()

	requested := f.defaultResync
	if resync != nil {
		requested = *resync
	}
	period, check, err := HandlerResyncPeriod(requested, f.checkPeriod, f.started)
	if err != nil {
		return nil, err
	}
	if check != f.checkPeriod {
		f.checkPeriod = check
		f.p.ResyncCheckPeriodChanged(check)
	}
	listener, err := NewProcessListener(handler, period, DetermineResyncPeriod(period, f.checkPeriod), f.clock.Now(), InitialBufferSize, f.synced)
	if err != nil {
		return nil, err
	}
	if !f.started {
		reg, _, err := f.p.AddListener(listener)
		return reg, err
	}
	f.blockDeltas.Lock()
	defer f.blockDeltas.Unlock()
	reg, err := f.p.AddLateListener(listener)
	if err != nil {
		return nil, err
	}
	for _, pod := range f.sortedStore() {
		listener.Add(AddNotification{NewObj: pod, IsInInitialList: true})
	}
	f.p.StartWatchSynced(listener)
	return reg, nil
}

func (f *feeder) RemoveEventHandler(reg ResourceEventHandlerRegistration) error {
	f.startedLock.Lock()
	defer f.startedLock.Unlock()
	f.blockDeltas.Lock()
	defer f.blockDeltas.Unlock()
	return f.p.RemoveListener(reg)
}

// seed puts an object in the cache before the run, as the source's initial
// list will; it takes the next resourceVersion like FakeControllerSource.
func (f *feeder) seed(pod *corev1.Pod) {
	f.lastRV++
	pod.ResourceVersion = strconv.Itoa(f.lastRV)
	f.store[pod.Name] = pod
}

// Run lists, then ticks resyncs until ctx ends, then stops the processor.
func (f *feeder) Run(ctx context.Context) {
	f.startedLock.Lock()
	f.started = true
	check := f.checkPeriod
	f.startedLock.Unlock()

	processorCtx, stopProcessor := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Go(func() { f.p.Run(processorCtx) })
	defer wg.Wait()
	defer stopProcessor()

	f.blockDeltas.Lock()
	for _, pod := range f.sortedStore() {
		f.p.Distribute(AddNotification{NewObj: pod, IsInInitialList: true}, false)
	}
	f.blockDeltas.Unlock()
	close(f.synced.ch)

	if check == 0 {
		<-ctx.Done()
		return
	}
	timer := time.NewTimer(check)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
		f.blockDeltas.Lock()
		if f.p.ShouldResync() {
			for _, pod := range f.sortedStore() {
				f.p.Distribute(UpdateNotification{OldObj: pod, NewObj: pod}, true)
			}
		}
		f.blockDeltas.Unlock()
		timer.Reset(check)
	}
}

// apply is one change at the source, already through the watch: the cache
// is updated and the notification distributed.
func (f *feeder) apply(op string, pod *corev1.Pod) {
	f.blockDeltas.Lock()
	defer f.blockDeltas.Unlock()
	f.lastRV++
	pod.ResourceVersion = strconv.Itoa(f.lastRV)
	old, exists := f.store[pod.Name]
	switch {
	case op == "delete":
		delete(f.store, pod.Name)
		f.p.Distribute(DeleteNotification{OldObj: pod}, false)
	case exists:
		f.store[pod.Name] = pod
		f.p.Distribute(UpdateNotification{OldObj: old, NewObj: pod}, false)
	default:
		f.store[pod.Name] = pod
		f.p.Distribute(AddNotification{NewObj: pod}, false)
	}
}

func (f *feeder) sortedStore() []*corev1.Pod {
	names := make([]string, 0, len(f.store))
	for name := range f.store {
		names = append(names, name)
	}
	slices.Sort(names)
	pods := make([]*corev1.Pod, len(names))
	for i, name := range names {
		pods[i] = f.store[name]
	}
	return pods
}

func newPod(name, app string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{"app": app}}}
}

// relist is a relist that finds every cached object unchanged, as
// client-go's processReplacedAllInfo handles it: an update from the cached
// object to the listed copy, which sharedIndexInformer.OnUpdate distributes
// as a sync notification because the resourceVersions are equal.
func (f *feeder) relist() {
	f.blockDeltas.Lock()
	defer f.blockDeltas.Unlock()
	for _, pod := range f.sortedStore() {
		listed := pod.DeepCopy()
		f.p.Distribute(UpdateNotification{OldObj: pod, NewObj: listed}, true)
		f.store[pod.Name] = listed
	}
}
