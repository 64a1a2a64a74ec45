package main

// Lab 04: the index maintenance under every write, and the lookup by an
// object's values, graded by the random operations and the rules that run
// client-go's indexer beside ours.
var lab04 = &Lab{
	N:       4,
	Stage:   "04-indexer",
	Chapter: "04-indexer.md",
	Title:   "Indexer: moving a key between buckets, and Index by an object's values",
	Minutes: "30-60",
	TODO: map[string]string{
		"storeIndex.updateSingleIndex": "keep the index called name true for key across one " +
			"write: oldObj is what was stored under key (nil for an add), newObj what will be (nil " +
			"for a delete). When it returns nil, key has left the buckets of oldObj's values and " +
			"is in the buckets of newObj's values; no other key moves and no other index changes. " +
			"The values are what i.indexers[name] returns for each object. If it fails on either " +
			"one (the stored one too: a caller may have mutated it), return the failure in " +
			"client-go's words (indexEntryError: the message of client-go's panic) and leave this " +
			"index exactly as it was, not one bucket touched: updateIndices undoes the indices " +
			"before this one by calling it again with the objects swapped, and counts on that. A " +
			"nil IndexFunc is an error, \"indexer %q has a nil IndexFunc\", never a panic. When both " +
			"objects give exactly one value and it is the same, nothing moves: client-go's " +
			"shortcut, which also decides where the key stays after someone mutated a cached " +
			"object, and ours must go exactly as wrong as client-go's. The caller holds the " +
			"store's lock. Mirrors storeIndex.updateSingleIndex in client-go's " +
			"tools/cache/thread_safe_store.go, which panics where this returns an error.",
		"deleteKeyFromIndex": "take key out of indexValue's bucket in idx, and leave no empty " +
			"bucket behind: once its last key is out, indexValue itself leaves idx " +
			"(ListIndexFuncValues must not list a value no object has, and with short-lived " +
			"objects empty sets would pile up, kubernetes#84959). A value without a bucket, or a " +
			"bucket without key, is no error: nothing changes. Every other bucket is untouched. " +
			"The caller holds the store's lock. Mirrors storeIndex.deleteKeyFromIndex in " +
			"client-go's tools/cache/thread_safe_store.go.",
		"storeIndex.getKeysFromIndex": "answer Index(indexName, obj): the keys of the stored " +
			"objects that share at least one of obj's values in that index, each once. An index " +
			"name without an IndexFunc is errNoIndex(indexName), client-go's wording; when the " +
			"IndexFunc fails on obj, its error as it is. Never change the index: the set returned " +
			"is only read, by a caller holding the store's read lock. " +
			"Mirrors storeIndex.getKeysFromIndex in client-go's tools/cache/thread_safe_store.go.",
	},
	Packages: []string{"./04-indexer"},
	Tests: []string{
		"TestIndexerMatchesClientGoOnRandomOperations",
		"TestReplaceRebuildsIndicesLikeClientGo",
		"TestUnknownIndexNameIsAnErrorLikeClientGo",
		"TestIndexFuncErrorIsAnErrorAndChangesNothing",
		"TestIndexFuncFailingOnTheStoredObjectIsAnErrorAndChangesNothing",
		"TestTransactionSkipsAWriteWhoseIndexFuncFails",
		"TestAddIndexersOnAFilledStoreLikeClientGo",
		"TestNilIndexFuncInTheIndexersIsAnErrorOnEveryWrite",
		"TestMutatingACachedObjectCorruptsTheIndexLikeClientGo",
		"TestListersMatchClientGo",
	},
	Timeout: "60s",
	Expect:  []string{"-client-go +ours", "the indexers disagree", "seed=0"},
}
