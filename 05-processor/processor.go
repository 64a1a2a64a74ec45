// Mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go: sharedProcessor,
// addListener, removeListener, distribute, run, shouldResync,
// resyncCheckPeriodChanged. client-go's getListener, which only its tests
// call, is left out; AddLateListener is ours (see its comment).

package processor

import (
	"context"
	"errors"
	"fmt"
	"sync"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/clock"
)

// ProcessorOptions configure a SharedProcessor. The zero value behaves like
// client-go.
type ProcessorOptions struct {
	// OnHandlerPanic, when set, makes every listener recover a panicking
	// handler, report it here (LogAndContinue logs it), skip the notification
	// and go on. DIFFERENCE from client-go: there a handler's panic crashes
	// the process unless the whole process sets utilruntime.ReallyCrash =
	// false, and even then the listener pauses a second after each panic and
	// a panic on an initial-list item leaves HasSynced false for ever.
	// Leave it nil to get client-go's behaviour.
	OnHandlerPanic func(HandlerPanic)
}

// SharedProcessor fans notifications out to its listeners, one per registered
// handler. There are two kinds of distribution:
//
//   - ordinary notifications (adds, updates, deletes) go to every listener;
//   - sync notifications (a resync replaying the cache) go only to the
//     listeners whose resync was found due by the last ShouldResync. The map
//     value remembers that answer per listener.
//
// Distribute never waits for a handler: each listener buffers without bound.
// It does wait, once, for Run to have started the listeners, so nothing is
// sent to a listener whose goroutines do not exist yet.
type SharedProcessor struct {
	listenersStarted bool
	// stopped is set when Run returns: a stopped processor never restarts.
	stopped       bool
	listenersLock sync.RWMutex
	// listenersRCond wakes a Distribute that arrived before Run. Its Locker
	// is the read side of listenersLock: Wait must hold a read lock.
	listenersRCond *sync.Cond
	// listeners maps each listener to "is it due for the resync in progress".
	listeners map[*ProcessorListener]bool
	clock     clock.PassiveClock
	wg        wait.Group

	onHandlerPanic func(HandlerPanic)
}

// NewSharedProcessor returns a processor that reads the time from clk (only
// Now is needed: resync due dates); tests pass a fake clock.
func NewSharedProcessor(clk clock.PassiveClock, opts ProcessorOptions) *SharedProcessor {
	p := &SharedProcessor{clock: clk, onHandlerPanic: opts.OnHandlerPanic}
	p.listenersRCond = sync.NewCond(p.listenersLock.RLocker())
	return p
}

// AddListener registers a listener and returns it as its registration, and
// whether the processor was already running. If it was, the listener's run and
// pop goroutines start now, but not its watchSynced: the caller must first
// Add the synthetic initial list (so HasSynced counts it), then call
// StartWatchSynced. If not, Run starts all three. A caller that hands the
// listener a list of its own whether the processor runs or not (an informer
// that is running) uses AddLateListener instead.
//
// It refuses, with an error and no registration, a listener it would never
// run: one already registered here or before (see takeOwnership), or any
// listener once the processor has stopped. client-go's addListener cannot
// fail; it registers the first and panics later, and registers the second
// for ever unstarted.
func (p *SharedProcessor) AddListener(listener *ProcessorListener) (ResourceEventHandlerRegistration, bool, error) {
	return p.addListener(listener, false)
}

// AddLateListener is AddListener for a listener that joins a running source:
// the caller Adds it an initial list of its own (an informer replays its
// cache to a handler added while it runs), then calls StartWatchSynced. Until
// then the listener does not watch its upstream's HasSynced, even if Run
// starts the listener meanwhile.
//
// DIFFERENCE from client-go, which has only addListener: when its informer
// runs but its processor's goroutine has not started the listeners yet,
// addListener reports "not started", the informer does not start
// watchSynced, and run starts it in the middle of the replay. If the
// informer had synced already (it has, when no handler made it wait for the
// processor), the listener then learns that its upstream has synced while
// the rest of the replay is not counted: once the first replayed objects
// are handled the count is zero, and HasSynced turns true for good before
// the handler has seen the cache.
func (p *SharedProcessor) AddLateListener(listener *ProcessorListener) (ResourceEventHandlerRegistration, error) {
	handle, _, err := p.addListener(listener, true)
	return handle, err
}

// addListener registers listener; late holds its watchSynced back until
// StartWatchSynced.
func (p *SharedProcessor) addListener(listener *ProcessorListener, late bool) (ResourceEventHandlerRegistration, bool, error) {
	p.listenersLock.Lock()
	defer p.listenersLock.Unlock()

	if _, exists := p.listeners[listener]; exists {
		// Registered twice: starting its goroutines twice would deliver
		// each notification to two competing run loops.
		return nil, false, fmt.Errorf("processor: AddListener: handler %s is already registered with this processor", listener.handlerName)
	}
	if err := p.takeOwnership(listener); err != nil {
		return nil, false, err
	}
	if p.listeners == nil {
		p.listeners = make(map[*ProcessorListener]bool)
	}
	if p.onHandlerPanic != nil && listener.onPanic == nil {
		listener.onPanic = p.onHandlerPanic
	}
	// A new listener takes part in the next sync distribution, as in client-go.
	p.listeners[listener] = true
	listener.awaitingInitialList = late

	if p.listenersStarted {
		p.wg.Start(listener.run)
		p.wg.Start(listener.pop)
	}
	return listener, p.listenersStarted, nil
}

// takeOwnership makes p the listener's one and only processor, for good, or
// returns why it cannot. A listener serves one registration: its channels are
// closed when it is removed or its processor stops, so adding it again (here
// or to another processor) would send on, or close, a closed channel.
// client-go panics then; we report the mistake. The caller holds
// listenersLock.
func (p *SharedProcessor) takeOwnership(listener *ProcessorListener) error {
	if !listener.owner.CompareAndSwap(nil, p) {
		return fmt.Errorf("processor: AddListener: handler %s was already registered (and since removed, or with another processor); create a new listener for it", listener.handlerName)
	}
	if p.stopped {
		// client-go would register it and never start it, after which
		// every Distribute waits for ever; its informer refuses new
		// handlers once stopped, so this only matters to direct callers.
		close(listener.runFinished)
		return fmt.Errorf("processor: AddListener after the processor stopped: handler %s not added", listener.handlerName)
	}
	return nil
}

// StartWatchSynced lets listener watch its upstream's HasSynced, once the
// caller has Added it the initial list: the goroutine starts now if the
// processor runs, or at Run. Call it after AddLateListener, or after
// AddListener reported the processor was running. It does nothing for a
// listener that is no longer registered, or that watches already.
func (p *SharedProcessor) StartWatchSynced(listener *ProcessorListener) {
	p.listenersLock.Lock()
	defer p.listenersLock.Unlock()
	if _, registered := p.listeners[listener]; !registered {
		return // removed, or the processor stopped: pop is done or never ran
	}
	listener.awaitingInitialList = false
	if p.listenersStarted {
		p.startWatchSynced(listener)
	}
}

// startWatchSynced starts listener's watchSynced, once. The caller holds
// listenersLock.
func (p *SharedProcessor) startWatchSynced(listener *ProcessorListener) {
	if listener.watchingSynced || listener.awaitingInitialList {
		return
	}
	listener.watchingSynced = true
	p.wg.Start(listener.watchSynced)
}

// RemoveListener unregisters a handler. It stops queueing to it at once but
// does not wait: the call in progress finishes, notifications still buffered
// may or may not be delivered (pop stops as soon as it sees addCh closed), and
// ShutdownChan tells when the handler is done. Removing an unknown or
// already-removed registration is a no-op, as in client-go; a registration
// that is not one of ours is an error.
func (p *SharedProcessor) RemoveListener(handle ResourceEventHandlerRegistration) error {
	p.listenersLock.Lock()
	defer p.listenersLock.Unlock()

	listener, ok := handle.(*ProcessorListener)
	if !ok || listener == nil {
		return fmt.Errorf("processor: RemoveListener: %T is not a registration returned by AddListener", handle)
	}
	if _, exists := p.listeners[listener]; !exists {
		return nil
	}
	delete(p.listeners, listener)

	if p.listenersStarted {
		close(listener.addCh) // pop returns, then run
	} else {
		// Never started: nothing will close runFinished otherwise.
		close(listener.runFinished)
	}
	return nil
}

// Distribute hands a notification to every listener, or, when sync is true,
// only to the listeners the last ShouldResync found due. The caller
// serializes calls (the informer holds its blockDeltas lock), which is what
// makes every listener see the same order.
func (p *SharedProcessor) Distribute(obj Notification, sync bool) {
	if obj == nil {
		// Delivering it would only reach run's "unrecognized" branch.
		utilruntime.HandleError(errors.New("processor: Distribute was given a nil Notification; dropped"))
		return
	}
	p.listenersLock.RLock()
	defer p.listenersLock.RUnlock()

	// Wait for Run to start the listeners: until then nobody reads addCh. If
	// the processor stops, listeners is cleared and the loop ends too.
	for !p.listenersStarted && len(p.listeners) > 0 {
		p.listenersRCond.Wait()
	}

	for listener, isSyncing := range p.listeners {
		switch {
		case !sync:
			listener.Add(obj)
		case isSyncing:
			listener.Add(obj)
		default:
			// A sync notification for a listener whose resync is not due.
		}
	}
}

// Run starts every registered listener (watchSynced, run, pop; a late
// listener's watchSynced only once its caller has called StartWatchSynced), lets
// Distribute through, and on ctx's end stops them all and waits for their
// goroutines. A stopped processor drops its listeners: they cannot restart.
func (p *SharedProcessor) Run(ctx context.Context) {
	func() {
		p.listenersLock.Lock()
		defer p.listenersLock.Unlock()
		for listener := range p.listeners {
			p.startWatchSynced(listener) // not yet for a late one (AddLateListener)
			p.wg.Start(listener.run)
			p.wg.Start(listener.pop)
		}
		p.listenersStarted = true
		// Broadcast, not client-go's Signal: Signal wakes one waiting
		// Distribute, which is enough when the informer serializes them,
		// but would leave a second concurrent caller blocked for ever.
		p.listenersRCond.Broadcast()
	}()
	<-ctx.Done()

	p.listenersLock.Lock()
	defer p.listenersLock.Unlock()
	for listener := range p.listeners {
		close(listener.addCh) // pop returns, and closes nextCh for run
	}
	p.listeners = nil
	p.listenersStarted = false
	p.stopped = true
	// Wake any Distribute still waiting for the start.
	p.listenersRCond.Broadcast()

	p.wg.Wait()
}
