//go:build ignore

// A plausible wrong answer to lab 06: a relist replaces the cache and tells
// the handlers of every listed object, but not of the objects the list
// lacks. The cache is right (Replace drops them); the handlers never hear
// that they were deleted while no watch was open, and keep them for ever.

package informer

func processReplacedAllInfo(handler processor.ResourceEventHandler, info deltafifo.ReplacedAllInfo, clientState indexer.Store, isInInitialList bool, keyFunc deltafifo.KeyFunc) error {
	type replacement struct{ oldObj, newObj interface{} }
	replacements := make([]replacement, 0, len(info.Objects))
	for _, obj := range info.Objects {
		if old, exists, err := clientState.Get(obj); err == nil && exists {
			replacements = append(replacements, replacement{oldObj: old, newObj: obj})
		} else {
			replacements = append(replacements, replacement{newObj: obj})
		}
	}
	if err := clientState.Replace(info.Objects, info.ResourceVersion); err != nil {
		return err
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
