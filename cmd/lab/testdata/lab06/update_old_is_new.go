//go:build ignore

// A plausible wrong answer to lab 06: an update hands the handler the new
// object twice, instead of the cached one as the old. The cache is right,
// and so is every add and delete; but a handler can no longer see what
// changed, and since old and new now share a resourceVersion, the informer
// takes every real update for a resync and sends it only to the handlers
// whose resync is due.

package informer

func processDeltas(handler processor.ResourceEventHandler, clientState indexer.Store, deltas deltafifo.Deltas, isInInitialList bool, keyFunc deltafifo.KeyFunc) error {
	for _, d := range deltas {
		obj := d.Object
		switch d.Type {
		case deltafifo.ReplacedAll:
			info, ok := obj.(deltafifo.ReplacedAllInfo)
			if !ok {
				return fmt.Errorf("ReplacedAll did not contain ReplacedAllInfo: %T", obj)
			}
			if err := processReplacedAllInfo(handler, info, clientState, isInInitialList, keyFunc); err != nil {
				return err
			}
		case deltafifo.SyncAll:
			for _, cached := range clientState.List() {
				handler.OnUpdate(cached, cached)
			}
			return nil
		case deltafifo.Sync, deltafifo.Replaced, deltafifo.Added, deltafifo.Updated:
			if _, exists, err := clientState.Get(obj); err == nil && exists {
				if err := clientState.Update(obj); err != nil {
					return err
				}
				handler.OnUpdate(obj, obj)
			} else {
				if err := clientState.Add(obj); err != nil {
					return err
				}
				handler.OnAdd(obj, isInInitialList)
			}
		case deltafifo.Deleted:
			if err := clientState.Delete(obj); err != nil {
				return err
			}
			handler.OnDelete(obj)
		case deltafifo.Bookmark:
			info, ok := obj.(deltafifo.BookmarkInfo)
			if !ok {
				return fmt.Errorf("bookmark delta did not contain BookmarkInfo: %T", obj)
			}
			clientState.Bookmark(info.ResourceVersion)
		default:
			return fmt.Errorf("unknown delta type %q", d.Type)
		}
	}
	return nil
}
