//go:build ignore

// A plausible wrong answer to lab 06: a relist tells the handlers as
// ReconcileReplacement finds each change, and replaces the cache last. The
// calls are client-go's, in client-go's order, and the cache ends right;
// but a handler is told of the relist before the cache holds it, so one
// that reads the cache when told "web-3 is gone" still finds web-3 there.

package informer

func processReplacedAllInfo(handler processor.ResourceEventHandler, info deltafifo.ReplacedAllInfo, clientState indexer.Store, isInInitialList bool, keyFunc deltafifo.KeyFunc) error {
	err := deltafifo.ReconcileReplacement(nil, clientState, info.Objects, keyFunc,
		func(tombstone deltafifo.DeletedFinalStateUnknown) error {
			handler.OnDelete(tombstone)
			return nil
		},
		func(obj interface{}) error {
			if old, exists, err := clientState.Get(obj); err == nil && exists {
				handler.OnUpdate(old, obj)
			} else {
				handler.OnAdd(obj, isInInitialList)
			}
			return nil
		})
	if err != nil {
		return err
	}
	return clientState.Replace(info.Objects, info.ResourceVersion)
}
