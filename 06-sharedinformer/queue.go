// Mirrors k8s.io/client-go v0.37.2 tools/cache/controller.go: newQueueFIFO,
// the choice of queue every informer makes.

package informer

import (
	"fmt"

	deltafifo "informer-from-scratch/03-deltafifo"
	indexer "informer-from-scratch/04-indexer"
)

// QueueKind chooses the stage 03 queue an informer puts between its
// reflector and its processLoop. client-go decides with feature gates: in
// v0.37 InOrderInformers is locked on, so its informers always use a
// RealFIFO, and AtomicFIFO (beta, on by default since 1.36) gives it the
// atomic events of the first kind. With KUBE_FEATURE_AtomicFIFO=false a
// client-go informer runs a RealFIFO without atomic events, reading the
// cache as KnownObjects: a third kind, which ours does not offer. Ours
// makes the choice an option, so that one workload can run through both
// kinds and a learner can see the handler sequences differ.
type QueueKind int

const (
	// QueueRealFIFO is what client-go v0.37 uses: a RealFIFO with atomic
	// events (a relist is one ReplacedAll item, a resync one SyncAll),
	// bookmarks in line, and its lock released while an item is
	// processed. Every event reaches the handlers, in the order the server
	// sent them. It is the zero value.
	QueueRealFIFO QueueKind = iota
	// QueueDeltaFIFO is the classic queue: changes coalesced per key, keys
	// handed out in order of first arrival, tombstones and resyncs worked
	// out by the queue from the informer's cache (KnownObjects). client-go
	// used it until 1.33 (the InOrderInformers gate).
	QueueDeltaFIFO
)

// String names the kind as the demo's flag does.
func (k QueueKind) String() string {
	switch k {
	case QueueRealFIFO:
		return "realfifo"
	case QueueDeltaFIFO:
		return "deltafifo"
	}
	return fmt.Sprintf("QueueKind(%d)", int(k))
}

// newQueueFIFO builds the queue of the given kind for an informer whose
// cache is clientState and whose objects look like objectType, with the
// options client-go's newQueueFIFO sets. A RealFIFO with atomic events must
// not see the cache (the informer reconciles a relist itself); a DeltaFIFO
// needs it for tombstones and resyncs.
func newQueueFIFO(kind QueueKind, objectType any, clientState indexer.Store, transform deltafifo.TransformFunc) (Queue, error) {
	switch kind {
	case QueueRealFIFO:
		return deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{
			Name:                  fmt.Sprintf("RealFIFO %T", objectType),
			KeyFunction:           deltafifo.MetaNamespaceKeyFunc,
			Transformer:           transform,
			AtomicEvents:          true,
			UnlockWhileProcessing: true,
			EmitDeltaTypeBookmark: true,
		}), nil
	case QueueDeltaFIFO:
		return deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{
			Name:                  fmt.Sprintf("DeltaFIFO %T", objectType),
			KnownObjects:          clientState,
			EmitDeltaTypeReplaced: true,
			Transformer:           transform,
		}), nil
	}
	return nil, fmt.Errorf("informer: unknown queue kind %v", kind)
}
