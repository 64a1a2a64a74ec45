// Mirrors k8s.io/client-go v0.37.2 tools/cache/controller.go: Config,
// ShouldResyncFunc, ProcessFunc, Controller, controller, New, Run,
// RunWithContext, HasSynced, HasSyncedChecker, LastSyncResourceVersion,
// processLoop.

package informer

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/clock"

	reflector "informer-from-scratch/02-reflector"
	deltafifo "informer-from-scratch/03-deltafifo"
)

// Config is everything a controller needs: where objects come from (stage
// 01's ListerWatcher, read by a stage 02 Reflector), the queue they wait in
// (stage 03), and what to do with each popped item (Process).
type Config struct {
	// Queue sits between the reflector (which writes to it) and
	// processLoop (which pops from it): a RealFIFO or a DeltaFIFO.
	Queue

	// ListerWatcher lists and watches the objects.
	ListerWatcher

	// Process handles one popped item (a Deltas).
	Process ProcessFunc

	// ProcessBatch, if set and the queue has PopBatch (a RealFIFO does),
	// handles runs of items at once; each run holds at most one item per
	// object. client-go also requires its InOrderInformersBatchProcess gate,
	// on by default; we have no gates, so the choice is this field.
	ProcessBatch ProcessBatchFunc

	// ObjectType is an example of the objects to expect; the reflector
	// drops watch events of any other type.
	ObjectType runtime.Object

	// ObjectDescription names the type in the reflector's messages.
	ObjectDescription string

	// FullResyncPeriod is how often the reflector asks ShouldResync whether
	// to resync the queue; 0 never.
	FullResyncPeriod time.Duration

	// MinWatchTimeout raises the watch timeout's lower bound (5 minutes;
	// lower values are ignored).
	MinWatchTimeout time.Duration

	// ShouldResync is asked at every FullResyncPeriod; nil means always.
	ShouldResync ShouldResyncFunc

	// WatchErrorHandler, or else WatchErrorHandlerWithContext, hears every
	// error ListAndWatch returns; by default they are reported quietly
	// (stage 02's DefaultWatchErrorHandler).
	WatchErrorHandler            WatchErrorHandler
	WatchErrorHandlerWithContext WatchErrorHandlerWithContext

	// WatchListPageSize is the page size of the reflector's LISTs.
	WatchListPageSize int64

	// UseWatchList chooses WatchList streaming (nil or true) or LIST then
	// WATCH (false). Ours: client-go reads its WatchListClient feature gate.
	UseWatchList *bool
}

// ShouldResyncFunc tells the reflector whether to resync now; a shared
// informer passes its processor's ShouldResync, which asks every listener.
type ShouldResyncFunc func() bool

// ProcessFunc handles one item popped from the queue.
type ProcessFunc func(obj interface{}, isInInitialList bool) error

// Controller is the loop at the heart of every informer: a reflector filling
// a queue on one goroutine, and processLoop draining it on another.
type Controller interface {
	// RunWithContext runs the reflector and processLoop until ctx is
	// cancelled, then closes the queue and returns once both have stopped.
	// Call it once.
	RunWithContext(ctx context.Context)
	// Run is RunWithContext with a stop channel.
	Run(stopCh <-chan struct{})
	// HasSynced is the queue's: true once the first list has been popped
	// and processed.
	HasSynced() bool
	// HasSyncedChecker is HasSynced as a channel to wait on.
	HasSyncedChecker() DoneChecker
	// LastSyncResourceVersion is the reflector's, or "" before it runs.
	LastSyncResourceVersion() string
}

// controller implements Controller.
//
//	ListerWatcher ─▶ Reflector ─Add/Update/Delete/Replace/Resync─▶ Queue ─Pop─▶ processLoop ─▶ Process
//	  (stage 01)      (stage 02)                                  (stage 03)
//
// The reflector and processLoop run on two goroutines with the queue
// between them, so a slow Process never holds up the watch: the queue grows
// instead.
type controller struct {
	config Config
	clock  clock.Clock

	reflectorMutex sync.RWMutex
	reflector      *reflector.Reflector

	runMutex sync.Mutex
	ran      bool
	// setupErr is why the controller cannot run (an unknown queue kind).
	setupErr error
}

var _ Controller = &controller{}

// New returns a controller for the given Config; it does nothing until Run.
func New(c *Config) Controller {
	return &controller{config: *c, clock: clock.RealClock{}}
}

// Run is RunWithContext with a stop channel.
func (c *controller) Run(stopCh <-chan struct{}) {
	c.RunWithContext(wait.ContextForChannel(stopCh))
}

// RunWithContext starts the reflector on its own goroutine and runs
// processLoop on this one. When ctx ends, the queue is closed (which ends a
// Pop waiting for work), and RunWithContext returns once the reflector has
// stopped too. A panic in Process (an unshared informer calls its handler
// there) comes out of RunWithContext at once, as in client-go, and the
// reflector stops when ctx ends.
//
// client-go documents a second call as an error but does not check; ours
// reports it and returns, as it does for a Config missing its Queue,
// ListerWatcher or Process (client-go would panic on the nil).
func (c *controller) RunWithContext(ctx context.Context) {
	defer utilruntime.HandleCrashWithContext(ctx)
	if err := c.claimRun(); err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Controller not started")
		return
	}
	r, err := c.newReflector()
	if err != nil {
		utilruntime.HandleErrorWithContext(ctx, err, "Controller not started")
		return
	}
	c.reflectorMutex.Lock()
	c.reflector = r
	c.reflectorMutex.Unlock()

	var wg wait.Group
	wg.Start(func() {
		<-ctx.Done()
		c.config.Queue.Close() // wakes processLoop's Pop
	})
	wg.StartWithContext(ctx, r.RunWithContext)

	// processLoop returns only when the queue is closed; Until would
	// restart it after a second if ctx were still alive (it is not then).
	wait.UntilWithContext(ctx, c.processLoop, time.Second)
	// Not deferred: a panic must reach the caller now, not after a ctx
	// that the caller, busy recovering it, may never cancel.
	wg.Wait()
}

// claimRun lets exactly one RunWithContext through, with a complete Config.
func (c *controller) claimRun() error {
	c.runMutex.Lock()
	defer c.runMutex.Unlock()
	switch {
	case c.setupErr != nil:
		return c.setupErr
	case c.ran:
		return errors.New("informer: a controller runs only once; this one has run already")
	case c.config.Queue == nil:
		return errors.New("informer: Config.Queue is nil")
	case c.config.ListerWatcher == nil:
		return errors.New("informer: Config.ListerWatcher is nil")
	case c.config.Process == nil:
		return errors.New("informer: Config.Process is nil")
	}
	c.ran = true
	return nil
}

// newReflector builds the stage 02 reflector that writes into the queue.
func (c *controller) newReflector() (*reflector.Reflector, error) {
	r := reflector.NewReflectorWithOptions(c.config.ListerWatcher, c.config.ObjectType, c.config.Queue, reflector.ReflectorOptions{
		ResyncPeriod:    c.config.FullResyncPeriod,
		MinWatchTimeout: c.config.MinWatchTimeout,
		TypeDescription: c.config.ObjectDescription,
		Clock:           c.clock,
		UseWatchList:    c.config.UseWatchList,
	})
	r.ShouldResync = c.config.ShouldResync
	r.WatchListPageSize = c.config.WatchListPageSize
	switch {
	case c.config.WatchErrorHandler != nil:
		if err := r.SetWatchErrorHandler(c.config.WatchErrorHandler); err != nil {
			return nil, fmt.Errorf("informer: %w", err)
		}
	case c.config.WatchErrorHandlerWithContext != nil:
		if err := r.SetWatchErrorHandlerWithContext(c.config.WatchErrorHandlerWithContext); err != nil {
			return nil, fmt.Errorf("informer: %w", err)
		}
	}
	return r, nil
}

// HasSynced reports whether the queue has handed out its first list.
func (c *controller) HasSynced() bool {
	if c.config.Queue == nil {
		return false
	}
	return c.config.Queue.HasSynced()
}

// HasSyncedChecker is the queue's.
func (c *controller) HasSyncedChecker() DoneChecker {
	if c.config.Queue == nil {
		return neverDone{"a controller without a queue"}
	}
	return c.config.Queue.HasSyncedChecker()
}

// LastSyncResourceVersion is the reflector's, or "" before Run.
func (c *controller) LastSyncResourceVersion() string {
	c.reflectorMutex.RLock()
	defer c.reflectorMutex.RUnlock()
	if c.reflector == nil {
		return ""
	}
	return c.reflector.LastSyncResourceVersion()
}

// processLoop pops until the queue is closed: one item at a time through
// Process, or, when the queue offers PopBatch and ProcessBatch is set, runs
// of items through ProcessBatch. Pop blocks while the queue is empty, so the
// loop never spins.
//
// client-go drops any error from Process silently; ours reports it through
// utilruntime.HandleErrorWithContext. Either way the item is not retried:
// the queue has already let it go.
func (c *controller) processLoop(ctx context.Context) {
	batchQueue, useBatch := c.config.Queue.(deltafifo.QueueWithBatch)
	useBatch = useBatch && c.config.ProcessBatch != nil
	process := deltafifo.PopProcessFunc(c.config.Process)
	for ctx.Err() == nil {
		var err error
		if useBatch {
			err = batchQueue.PopBatch(c.config.ProcessBatch, process)
		} else {
			_, err = c.config.Queue.Pop(process)
		}
		if errors.Is(err, ErrFIFOClosed) {
			return
		}
		if err != nil {
			utilruntime.HandleErrorWithContext(ctx, err, "Failed to process an item popped from the queue")
		}
	}
}

// neverDone is a DoneChecker that never finishes.
type neverDone struct{ name string }

func (n neverDone) Name() string          { return n.name }
func (n neverDone) Done() <-chan struct{} { return nil }
