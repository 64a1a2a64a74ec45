package main

// rows are the rows of docs/{en,zh}/versions.md, in its order, each with
// what proves it. docs_test.go keeps the table and this list the same: the
// ids, the versions, and the last column, which is each probe's String.
//
// Paths are client-go's package directories (symbol, has, lacks) and files
// (gate), unless they start with k8s.io/apiserver.
var rows = []row{
	{id: "shutdownwithdrain", minor: 23, probes: []probe{
		symbol("util/workqueue", "Type.ShutDownWithDrain", "Typed.ShutDownWithDrain"),
	}},
	{id: "settransform", minor: 24, probes: []probe{
		symbol("tools/cache", "SharedInformer.SetTransform"),
	}},
	{id: "factory-shutdown", minor: 26, probes: []probe{
		symbol("informers", "SharedInformerFactory.Shutdown"),
	}},
	{id: "dynamic-metadata-shutdown", minor: 27, probes: []probe{
		symbol("dynamic/dynamicinformer", "DynamicSharedInformerFactory.Shutdown"),
		symbol("metadata/metadatainformer", "SharedInformerFactory.Shutdown"),
	}},
	{id: "transform-in-queue", minor: 27, probes: []probe{
		// The transform moved into the queue: the DeltaFIFO takes it as an
		// option, and TransformFunc's contract gains the sentence that
		// allows mutating in place (which is safe only because no other
		// code has seen the object yet).
		symbol("tools/cache", "DeltaFIFOOptions.Transformer"),
		has("tools/cache", "TransformFunc", "safe to mutate the object in place"),
	}},
	{id: "registration-hassynced", minor: 27, probes: []probe{
		symbol("tools/cache", "ResourceEventHandlerRegistration.HasSynced"),
		// isInInitialList is a parameter, not a declaration: OnAdd's
		// signature in the interface is where it appears.
		has("tools/cache", "ResourceEventHandler.OnAdd", "isInInitialList bool"),
	}},
	{id: "addindexers-running", minor: 30, probes: []probe{
		// Indexing a running informer is behaviour. Before 1.30 the store
		// refused new indexers once it held objects and the informer once
		// it had started; since, the store indexes what it holds (its
		// AddIndexers calls updateSingleIndex on every item) and the
		// informer's refusal is gone.
		has("tools/cache", "threadSafeMap.AddIndexers", "updateSingleIndex"),
		lacks("tools/cache", "sharedIndexInformer.AddIndexers", "informer has already started"),
	}},
	{id: "watchlistclient-beta", minor: 30, probes: []probe{
		gate("WatchListClient", "beta, off"),
	}},
	{id: "informerresourceversion-alpha", minor: 30, probes: []probe{
		gate("InformerResourceVersion", "alpha, off"),
	}},
	{id: "typed-workqueue", minor: 31, probes: []probe{
		symbol("util/workqueue", "TypedInterface"),
		symbol("util/workqueue", "NewTypedRateLimitingQueueWithConfig"),
		// The untyped name stays, as a deprecated alias of the typed one.
		has("util/workqueue", "Interface", "Deprecated: Interface is deprecated, use TypedInterface instead."),
	}},
	{id: "transform-idempotent", minor: 31, probes: []probe{
		// A contract written down, nothing else changed: the comment is
		// the change.
		has("tools/cache", "TransformFunc", "MUST be idempotent"),
	}},
	{id: "server-watchlist-on", minor: 32, probes: []probe{
		serverGate("WatchList", "beta, on"),
	}},
	{id: "inorderinformers-beta", minor: 33, probes: []probe{
		gate("InOrderInformers", "beta, on"),
	}},
	{id: "server-watchlist-off", minor: 33, probes: []probe{
		serverGate("WatchList", "beta, off"),
	}},
	{id: "server-watchlist-on-again", minor: 34, probes: []probe{
		serverGate("WatchList", "beta, on"),
	}},
	{id: "watchlistclient-on", minor: 35, probes: []probe{
		gate("WatchListClient", "beta, on"),
	}},
	{id: "batch-process", minor: 35, probes: []probe{
		gate("InOrderInformersBatchProcess", "beta, on"),
		symbol("tools/cache", "RealFIFO.PopBatch"),
		// "up to 1000" is a constant's value, which only its source says.
		has("tools/cache", "defaultBatchSize", "defaultBatchSize = 1000"),
	}},
	{id: "informerresourceversion-ga", minor: 35, probes: []probe{
		gate("InformerResourceVersion", "GA, on"),
	}},
	{id: "atomicfifo", minor: 36, probes: []probe{
		gate("AtomicFIFO", "beta, on"),
		symbol("tools/cache", "ReplacedAll"),
		symbol("tools/cache", "SyncAll"),
	}},
	{id: "unlock-while-processing", minor: 36, probes: []probe{
		gate("UnlockWhileProcessingFIFO", "beta, on"),
	}},
	{id: "inorderinformers-ga", minor: 36, probes: []probe{
		gate("InOrderInformers", "GA, on, locked"),
	}},
	{id: "store-bookmark", minor: 36, probes: []probe{
		symbol("tools/cache", "Store.Bookmark"),
		symbol("tools/cache", "Store.LastStoreSyncResourceVersion"),
	}},
	{id: "context-and-waitfor", minor: 36, probes: []probe{
		symbol("informers", "SharedInformerFactory.StartWithContext"),
		symbol("informers", "SharedInformerFactory.WaitForCacheSyncWithContext"),
		symbol("tools/cache", "SharedInformer.HasSyncedChecker"),
		symbol("tools/cache", "ResourceEventHandlerRegistration.HasSyncedChecker"),
		symbol("tools/cache", "Queue.HasSyncedChecker"),
		symbol("tools/cache", "WaitFor"),
	}},
	{id: "typed-informers", minor: 37, probes: []probe{
		// One generated informer stands for all: they come from one
		// generator, in one change. Pods() returns the TypedPodInformer,
		// PodInformer plus TypedInformer.
		symbol("informers/core/v1", "TypedPodInformer.TypedInformer"),
		symbol("tools/cache", "NewTypedSharedIndexInformer"),
		symbol("tools/cache", "TypedSharedIndexInformer.AddTypedEventHandler"),
		symbol("tools/cache", "DeletedObject"),
	}},
	{id: "shutdowneventhandler", minor: 37, probes: []probe{
		symbol("tools/cache", "ShutDownEventHandler"),
	}},
	{id: "watchlist-compression", minor: 37, probes: []probe{
		serverGate("WatchListCompression", "beta, on"),
	}},
}
