//go:build ignore

// A plausible wrong answer to lab 04: the key leaves its bucket, but the
// bucket stays behind when it is empty. ByIndex still answers right (an
// empty set), but ListIndexFuncValues lists values no object has any more,
// and an index over short-lived values grows for ever.

package indexer

func deleteKeyFromIndex(key, indexValue string, idx index) {
	if set := idx[indexValue]; set != nil {
		set.Delete(key)
	}
}
