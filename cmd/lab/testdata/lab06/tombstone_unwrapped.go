//go:build ignore

// A plausible wrong answer to lab 06: a deletion's tombstone is unwrapped
// before the handler hears of it, so that OnDelete always gets an object,
// "which is simpler for handlers". The cache is right; but the handler can
// no longer tell a deletion the watch saw from one a relist guessed, and
// a tombstone whose Obj is nil reaches it as nil.

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
			if old, exists, err := clientState.Get(obj); err == nil && exists {
				if err := clientState.Update(obj); err != nil {
					return err
				}
				handler.OnUpdate(old, obj)
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
			if tombstone, ok := obj.(deltafifo.DeletedFinalStateUnknown); ok {
				obj = tombstone.Obj
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

func processReplacedAllInfo(handler processor.ResourceEventHandler, info deltafifo.ReplacedAllInfo, clientState indexer.Store, isInInitialList bool, keyFunc deltafifo.KeyFunc) error {
	type replacement struct{ oldObj, newObj interface{} }
	var deletions []interface{}
	replacements := make([]replacement, 0, len(info.Objects))

	err := deltafifo.ReconcileReplacement(nil, clientState, info.Objects, keyFunc,
		func(tombstone deltafifo.DeletedFinalStateUnknown) error {
			deletions = append(deletions, tombstone.Obj)
			return nil
		},
		func(obj interface{}) error {
			if old, exists, err := clientState.Get(obj); err == nil && exists {
				replacements = append(replacements, replacement{oldObj: old, newObj: obj})
			} else {
				replacements = append(replacements, replacement{newObj: obj})
			}
			return nil
		})
	if err != nil {
		return err
	}

	if err := clientState.Replace(info.Objects, info.ResourceVersion); err != nil {
		return err
	}
	for _, obj := range deletions {
		handler.OnDelete(obj)
	}
	for _, r := range replacements {
		if r.oldObj != nil {
			handler.OnUpdate(r.oldObj, r.newObj)
		} else {
			handler.OnAdd(r.newObj, isInInitialList)
		}
	}
	return nil
}
