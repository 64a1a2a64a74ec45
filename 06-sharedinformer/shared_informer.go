// Mirrors k8s.io/client-go v0.37.2 tools/cache/shared_informer.go:
// SharedInformer, SharedIndexInformer, HandlerOptions,
// SharedIndexInformerOptions, NewSharedInformer, NewSharedIndexInformer,
// NewSharedIndexInformerWithOptions, sharedIndexInformer, SetWatchErrorHandler,
// SetWatchErrorHandlerWithContext, SetTransform, GetStore, GetIndexer,
// AddIndexers.

package informer

import (
	"context"
	"errors"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/clock"

	indexer "informer-from-scratch/04-indexer"
	processor "informer-from-scratch/05-processor"
)

// SharedInformer keeps a local cache of one resource in step with the
// apiserver and tells any number of handlers about every change.
//
// What a user may rely on, as in client-go:
//   - the cache is eventually consistent with the server: the states it
//     holds for one object are a subsequence of the object's states on the
//     server, in order (there is no promise across objects);
//   - a handler hears of a change after the cache holds it; calls to one
//     handler are sequential, and in order for one object;
//   - a handler added after Run first gets an add for every object in the
//     cache at that moment (isInInitialList=true), then every later change,
//     with nothing missed or repeated in between;
//   - a deletion arrives with the last known state, or, when it was only
//     noticed at a relist, as a DeletedFinalStateUnknown tombstone;
//   - handlers must not modify what they receive (it is the cache's own
//     copy) and must return promptly (each has an unbounded backlog).
type SharedInformer interface {
	// AddEventHandler registers handler with the informer's default
	// resync period.
	AddEventHandler(handler ResourceEventHandler) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithResyncPeriod registers handler asking for resyncs
	// every resyncPeriod (0: none). The period it gets may be longer; see
	// stage 05's HandlerResyncPeriod.
	AddEventHandlerWithResyncPeriod(handler ResourceEventHandler, resyncPeriod time.Duration) (ResourceEventHandlerRegistration, error)
	// AddEventHandlerWithOptions is AddEventHandler with its options.
	AddEventHandlerWithOptions(handler ResourceEventHandler, options HandlerOptions) (ResourceEventHandlerRegistration, error)
	// RemoveEventHandler stops delivery to a registration. It does not
	// wait for the call in progress; ShutDownEventHandler does.
	RemoveEventHandler(handle ResourceEventHandlerRegistration) error
	// GetStore returns the cache.
	GetStore() Store
	// Run is RunWithContext with a stop channel.
	Run(stopCh <-chan struct{})
	// RunWithContext runs the informer until ctx ends, and returns once
	// every goroutine it started has stopped. An informer runs once.
	RunWithContext(ctx context.Context)
	// HasSynced reports whether the cache holds the first complete list.
	// It says nothing about any handler: ask a registration for that.
	HasSynced() bool
	// HasSyncedChecker is HasSynced as a channel to wait on.
	HasSyncedChecker() DoneChecker
	// LastSyncResourceVersion is the reflector's latest resourceVersion.
	LastSyncResourceVersion() string
	// SetWatchErrorHandler sets the handler for the reflector's errors;
	// before Run only.
	SetWatchErrorHandler(handler WatchErrorHandler) error
	// SetWatchErrorHandlerWithContext is SetWatchErrorHandler with a context.
	SetWatchErrorHandlerWithContext(handler WatchErrorHandlerWithContext) error
	// SetTransform sets the function that rewrites each object before it
	// is queued and cached (to drop managedFields, say); before Run only.
	SetTransform(handler TransformFunc) error
	// IsStopped reports whether the informer has stopped: then no handler
	// can be added, and it never runs again.
	IsStopped() bool
}

// SharedIndexInformer is a SharedInformer whose cache has indexes.
type SharedIndexInformer interface {
	SharedInformer
	// AddIndexers adds indexes to the cache, also while it runs (the
	// existing objects are indexed at once); not after the informer stopped.
	AddIndexers(indexers Indexers) error
	// GetIndexer returns the cache with its indexes.
	GetIndexer() Indexer
}

// HandlerOptions are the optional settings of one handler.
type HandlerOptions struct {
	// ResyncPeriod asks for resyncs this often; nil means the informer's
	// default, 0 none.
	ResyncPeriod *time.Duration
	// Name names the handler to a watcher (Seams.Handler and Seams.Replay).
	// Ours: client-go's HandlerOptions has a Logger instead, and we do not
	// log.
	Name string
}

// SharedIndexInformerOptions configure NewSharedIndexInformerWithOptions.
// The first three are client-go's; the others are ours, and their zero
// values give client-go's behaviour.
type SharedIndexInformerOptions struct {
	// ResyncPeriod is the default resync period of handlers, and the
	// informer's resync check period until a handler asks for less.
	ResyncPeriod time.Duration
	// Indexers are the cache's indexes.
	Indexers Indexers
	// ObjectDescription names the type in the reflector's messages.
	ObjectDescription string

	// Queue chooses the queue: RealFIFO (the zero value, what client-go
	// v0.37 uses) or the classic DeltaFIFO.
	Queue QueueKind
	// UseWatchList chooses WatchList streaming (nil or true) or LIST then
	// WATCH (false), as stage 02's ReflectorOptions.UseWatchList.
	UseWatchList *bool
	// Clock drives the resync timers and handlers' resync due dates; nil
	// is the real clock. client-go sets its informer's clock only in its
	// own tests.
	Clock clock.Clock
	// OnHandlerPanic, when set, recovers a handler's panic and reports it
	// here instead of crashing the process (stage 05's
	// ProcessorOptions.OnHandlerPanic). client-go has no such option.
	OnHandlerPanic func(HandlerPanic)

	// How the stage is shown, and nothing else: the demo's timeline and
	// live view, its --break, the chaos report. Skip these on a first
	// reading; the zero values watch nothing and break nothing.

	// Seams, when set, let a watcher wrap the informer's parts as they are
	// assembled (seams.go; 06-sharedinformer/observe fills them).
	Seams Seams
	// Breaks are teaching switches, each taking away one mechanism the
	// chapter says an informer needs (breaks.go).
	Breaks Breaks
}

// sharedIndexInformer implements SharedIndexInformer: a controller (the
// reflector, the queue and processLoop) that applies what it pops to the
// cache and distributes notifications to the processor's listeners.
type sharedIndexInformer struct {
	indexer    Indexer                    // stage 04: the cache
	controller Controller                 // the reflector (02) and the queue (03), built by Run
	processor  *processor.SharedProcessor // stage 05: one listener per handler

	// store and notifier are the cache and the informer itself as
	// processDeltas gets them: through the seams (a watcher's wrappers, a
	// teaching switch), if any.
	store    Store
	notifier ResourceEventHandler

	// synced is closed when the controller has synced: the informer's
	// HasSynced, and the upstream every listener's HasSynced waits for.
	synced chan struct{}

	listerWatcher     ListerWatcher
	objectType        runtime.Object
	objectDescription string
	queueKind         QueueKind
	useWatchList      *bool

	// resyncCheckPeriod is how often the reflector asks whether a resync is
	// due; it may only drop (to a handler's period) before Run.
	resyncCheckPeriod time.Duration
	// defaultEventHandlerResyncPeriod is what AddEventHandler asks for.
	defaultEventHandlerResyncPeriod time.Duration
	clock                           clock.Clock

	// startedLock guards started, stopped, the settings Run reads, and the
	// controller field.
	startedLock      sync.Mutex
	started, stopped bool

	// blockDeltas keeps processing and the replay to a late handler apart:
	// a handler added while the informer runs gets the cache as it was
	// between two processed items, then every later notification.
	blockDeltas sync.Mutex

	watchErrorHandler WatchErrorHandlerWithContext
	transform         TransformFunc
	keyFunc           KeyFunc

	// seams are a watcher's wrappers and the teaching switches, called at
	// the seams (seams.go); the zero value installs nothing.
	seams informerSeams
}

var _ SharedIndexInformer = &sharedIndexInformer{}

// NewSharedInformer returns a shared informer without indexes.
func NewSharedInformer(lw ListerWatcher, exampleObject runtime.Object, defaultEventHandlerResyncPeriod time.Duration) SharedInformer {
	return NewSharedIndexInformer(lw, exampleObject, defaultEventHandlerResyncPeriod, Indexers{})
}

// NewSharedIndexInformer returns a shared informer with the given indexes.
func NewSharedIndexInformer(lw ListerWatcher, exampleObject runtime.Object, defaultEventHandlerResyncPeriod time.Duration, indexers Indexers) SharedIndexInformer {
	return NewSharedIndexInformerWithOptions(lw, exampleObject, SharedIndexInformerOptions{
		ResyncPeriod: defaultEventHandlerResyncPeriod,
		Indexers:     indexers,
	})
}

// NewSharedIndexInformerWithOptions returns a shared informer for the
// objects lw lists and watches, which look like exampleObject. Nothing runs
// until Run.
func NewSharedIndexInformerWithOptions(lw ListerWatcher, exampleObject runtime.Object, options SharedIndexInformerOptions) SharedIndexInformer {
	clk := options.Clock
	if clk == nil {
		clk = clock.RealClock{}
	}
	s := &sharedIndexInformer{
		indexer:                         indexer.NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, options.Indexers),
		processor:                       processor.NewSharedProcessor(clk, processor.ProcessorOptions{OnHandlerPanic: options.OnHandlerPanic}),
		synced:                          make(chan struct{}),
		listerWatcher:                   lw,
		objectType:                      exampleObject,
		objectDescription:               options.ObjectDescription,
		queueKind:                       options.Queue,
		useWatchList:                    options.UseWatchList,
		seams:                           informerSeams{options.Seams, options.Breaks},
		resyncCheckPeriod:               options.ResyncPeriod,
		defaultEventHandlerResyncPeriod: options.ResyncPeriod,
		clock:                           clk,
		keyFunc:                         DeletionHandlingMetaNamespaceKeyFunc,
	}
	s.store, s.notifier = s.seams.store(s.indexer), s.seams.notifier(s)
	return s
}

// errAlreadyStarted is client-go's answer to a setter called after Run.
var errAlreadyStarted = errors.New("informer has already started")

// SetWatchErrorHandler sets the reflector's error handler; before Run only.
// A nil handler restores the default (client-go would call the nil
// function, and crash, on the first error).
func (s *sharedIndexInformer) SetWatchErrorHandler(handler WatchErrorHandler) error {
	var withContext WatchErrorHandlerWithContext
	if handler != nil {
		withContext = func(_ context.Context, r *Reflector, err error) { handler(r, err) }
	}
	return s.SetWatchErrorHandlerWithContext(withContext)
}

// SetWatchErrorHandlerWithContext sets the reflector's error handler; before
// Run only. A nil handler restores the default, as in client-go.
func (s *sharedIndexInformer) SetWatchErrorHandlerWithContext(handler WatchErrorHandlerWithContext) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.started {
		return errAlreadyStarted
	}
	s.watchErrorHandler = handler
	return nil
}

// SetTransform sets the transform the queue applies to each object before
// it is queued (so the cache and the handlers only ever see transformed
// objects); before Run only. It must be idempotent: a WatchList stream's
// objects are transformed as they arrive and again when they are queued.
func (s *sharedIndexInformer) SetTransform(handler TransformFunc) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.started {
		return errAlreadyStarted
	}
	s.transform = handler
	return nil
}

// GetStore returns the cache.
func (s *sharedIndexInformer) GetStore() Store { return s.indexer }

// GetIndexer returns the cache.
func (s *sharedIndexInformer) GetIndexer() Indexer { return s.indexer }

// AddIndexers adds indexes to the cache, unless the informer has stopped.
func (s *sharedIndexInformer) AddIndexers(indexers Indexers) error {
	s.startedLock.Lock()
	defer s.startedLock.Unlock()
	if s.stopped {
		return errors.New("indexer was not added because it has stopped already")
	}
	return s.indexer.AddIndexers(indexers)
}
