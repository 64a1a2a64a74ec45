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
		"storeIndex.updateSingleIndex": "move key in the index called name. Its IndexFunc is " +
			"i.indexers[name] (nil: return the error \"indexer %q has a nil IndexFunc\"). Compute " +
			"the values of oldObj and of newObj (each only when it is not nil), both before any " +
			"bucket changes, a failure wrapped with indexEntryError(key, name, err). Create " +
			"i.indices[name] if it is missing. If both give the same single value, nothing moves; " +
			"else take key out of each old value's bucket (deleteKeyFromIndex) and put it in each " +
			"new value's (addKeyToIndex).",
		"deleteKeyFromIndex": "take key out of idx[indexValue] when that bucket exists, and " +
			"delete the bucket from idx once it is empty.",
		"storeIndex.getKeysFromIndex": "the index's IndexFunc is i.indexers[indexName] (nil: " +
			"return errNoIndex(indexName)); compute obj's values with it (a failure is returned " +
			"as is). One value: return that value's bucket of i.indices[indexName], as it is. Any " +
			"other number: return a new set holding the keys of all their buckets.",
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
