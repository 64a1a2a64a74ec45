// Mirrors k8s.io/client-go v0.37.2 tools/cache/controller.go: InformerOptions,
// NewInformerWithOptions, newInformer.

package informer

import (
	"errors"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	indexer "informer-from-scratch/04-indexer"
	"informer-from-scratch/internal/nilpointer"
)

// InformerOptions configure NewInformerWithOptions. The last three fields
// are ours (see SharedIndexInformerOptions).
type InformerOptions struct {
	// ListerWatcher lists and watches the objects.
	ListerWatcher ListerWatcher
	// ObjectType is an example of the objects to expect.
	ObjectType runtime.Object
	// Handler hears of every change. nil is a cache without notifications
	// (client-go would panic on the first event).
	Handler ResourceEventHandler
	// ResyncPeriod, if not 0, replays the cache to Handler this often.
	ResyncPeriod time.Duration
	// MinWatchTimeout raises the watch timeout's lower bound.
	MinWatchTimeout time.Duration
	// Indexers, if set, give the cache indexes (and make it an Indexer).
	Indexers Indexers
	// Transform rewrites each object before it is queued and cached.
	Transform TransformFunc

	Queue        QueueKind
	UseWatchList *bool
	Seams        Seams
}

// NewInformerWithOptions returns a cache and the controller that fills it:
// an informer with exactly one handler, called in line by processLoop, with
// no processor, no listeners and no late handlers. Read the cache (Get,
// List); writing to it would make the notifications wrong.
func NewInformerWithOptions(options InformerOptions) (Store, Controller) {
	var clientState Store
	if options.Indexers == nil {
		clientState = indexer.NewStore(DeletionHandlingMetaNamespaceKeyFunc)
	} else {
		clientState = indexer.NewIndexer(DeletionHandlingMetaNamespaceKeyFunc, options.Indexers)
	}
	return clientState, newInformer(clientState, options, DeletionHandlingMetaNamespaceKeyFunc)
}

// newInformer builds the controller of an unshared informer over
// clientState: its Process is processDeltas with the one handler.
func newInformer(clientState Store, options InformerOptions, keyFunc KeyFunc) Controller {
	handler := options.Handler
	if handler == nil || nilpointer.Is(handler) {
		handler = ResourceEventHandlerFuncs{}
	}
	handler = options.Seams.handler(handler, "")
	fifo, err := newQueueFIFO(options.Queue, options.ObjectType, clientState, options.Transform)
	if err != nil {
		return &controller{setupErr: err}
	}
	store := options.Seams.store(clientState)
	return New(&Config{
		Queue:            options.Seams.queue(fifo),
		ListerWatcher:    options.ListerWatcher,
		ObjectType:       options.ObjectType,
		FullResyncPeriod: options.ResyncPeriod,
		MinWatchTimeout:  options.MinWatchTimeout,
		UseWatchList:     options.UseWatchList,
		Process: func(obj any, isInInitialList bool) error {
			deltas, ok := obj.(Deltas)
			if !ok {
				return errors.New("object given as Process argument is not Deltas")
			}
			return processDeltas(handler, store, deltas, isInInitialList, keyFunc)
		},
		ProcessBatch: func(deltas []Delta, isInInitialList bool) error {
			return processDeltasInBatch(handler, store, deltas, isInInitialList, keyFunc)
		},
	})
}
