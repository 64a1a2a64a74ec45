package main

import "informer-from-scratch/internal/lang"

// Everything stage 05's demo says, in English and Chinese side by side:
// the steps, the notes, and the words of the timeline's rows (an object column of words, an
// explanation after a row's protocol). The protocol itself, keys,
// resourceVersions and HTTP lines, is not here: it reads the same in both
// languages.
var (
	sayTitle = lang.T("sharedProcessor and processorListener: one stream, three handlers, each at its own pace",
		"sharedProcessor 与 processorListener —— 一条事件流，三个 handler，各走各的节奏")

	sayReadOnlyTitle = lang.T("Read-only on a real cluster", "真实集群上只读")
	sayReadOnlyWhy   = lang.T(
		`The demo lists and watches the pods of kube-system and changes nothing;
the notifications are whatever the cluster does meanwhile.`,
		`demo list、watch kube-system 里的 Pod，不做任何修改；
通知就是这段时间里集群自己发生的变化。`)
	saySceneTitle = lang.T("Set the scene", "准备场景")
	saySceneWhy   = lang.T("A namespace and three pods, so the initial list has something in it.",
		"先建一个 namespace 和三个 Pod，这样初始列表里就有数据。")

	sayRegisterTitle = lang.T("Register three handlers, then start", "先注册三个 handler，再启动")
	sayRegisterWhy   = lang.T(
		`fast: returns at once. slow: takes 400ms per call. resync: fast, and asks for its own 5s resync.
The informer's default resync is 1m; the 5s request, made before the start, lowers the resync
check period to 5s. fast and slow ask for 0: no resync for them.`,
		`fast：立刻返回。slow：每次调用要 400ms。resync：也很快，但要求自己每 5s resync 一次。
informer 默认的 resync 是 1m；这个 5s 的要求是在启动之前提的，于是 resync 的检查周期降到了 5s。
fast 和 slow 要的是 0：它们不 resync。`)
	sayPeriods = lang.T("resync periods: fast=%v slow=%v resync=%v; the stand-in checks every %v",
		"resync 周期：fast=%v slow=%v resync=%v；替身 informer 每 %v 检查一次")

	sayBurstTitle = lang.T("A burst: the slow handler falls behind, the others do not wait", "一阵突发：slow 跟不上，另外两个不用等它")
	sayBurstWhy   = lang.T(
		`Five changes in a row. Distribute hands each to all three listeners and returns at once;
slow's notifications wait in its ring while it works. "ring" rows show each ring's depth
(not counting the one pop holds and the one run is handling).`,
		`连续来了五个变化。Distribute 把每个变化交给全部三个 listener，然后立刻返回；
slow 忙着的时候，它的通知就在自己的 ring 里排队。ring 行显示每个 ring 的深度
（不算 pop 手里拿着的那一个，也不算 run 正在处理的那一个）。`)

	sayResyncTitle = lang.T("Resync: a replay of the cache, only for the handler that asked", "Resync：把缓存重放一遍，只发给要求 resync 的 handler")
	sayResyncWhy   = lang.T(
		`On the check tick the processor asks each listener whether its resync is due (ShouldResync),
then the cache is replayed as updates whose old and new objects are the same. Those sync
notifications go only to the due listeners: fast and slow get nothing. This is not a relist:
no request goes to the apiserver.`,
		`每到检查时刻，processor 挨个问 listener 是否该 resync 了（ShouldResync），
然后把缓存重放一遍，每个对象作为一次新旧对象相同的更新。这些 sync 通知只发给到期的 listener：
fast 和 slow 什么也收不到。这不是重新 LIST，没有任何请求发给 apiserver。`)

	sayStopTitle = lang.T("Stop", "停止")
	sayStopWhy   = lang.T("Cancelling the context stops the processor: pop returns when addCh closes, run when nextCh does.",
		"取消 context 就停掉了 processor：addCh 关闭时 pop 返回，nextCh 关闭时 run 返回。")
	sayStandInEnded = lang.T("the stand-in informer ended with: %v", "替身 informer 结束时报错：%v")

	sayCostTitle = lang.T("What the unbounded buffer costs (no apiserver: notifications made up in memory)",
		"无界缓冲的代价（不涉及 apiserver：通知是在内存里造出来的）")
	sayCostWhy = lang.T(
		`A second processor, one handler stuck in its first call, %d notifications.
Distribute never blocks, so the ring takes them all, doubling its array as it goes.`,
		`另起一个 processor，一个卡在第一次调用里出不来的 handler，%d 条通知。
Distribute 从不阻塞，所以 ring 照单全收，边收边把数组翻倍。`)
	sayStalls = lang.T("A handler that stalls for good makes the ring grow until the process runs out of memory.",
		"handler 要是永远卡住，ring 就会一直涨下去，直到进程把内存耗光。")

	// The rows' words.
	sayPods        = lang.T("%d pods", "%d 个 Pod")
	sayInitialAdds = lang.T("one initial add each, to every handler", "每个 Pod 一次初始 add，发给每个 handler")
	sayDistributed = lang.T("distributed to every handler", "分发给每个 handler")
	sayNoMetadata  = lang.T("without metadata", "没有 metadata")
	sayResyncRow   = lang.T("sync updates, only to handlers whose resync is due; no request to the apiserver",
		"sync 更新，只发给 resync 到期的 handler；不向 apiserver 发请求")
	sayReplayed        = lang.T("resync: the same object replayed", "resync：同一个对象再投递一次")
	sayEveryInitialAdd = lang.T("every initial add handled", "每个初始 add 都处理完了")
	saySlowCapacity    = lang.T("slow's ring capacity %d", "slow 的 ring 容量为 %d")
	sayClosedAfter     = lang.T("closed; %d calls in all", "已关闭；总共调用 %d 次")
	sayPending         = lang.T("%d pending", "%d 个待处理")
	sayCapacity        = lang.T("capacity %d slots (1024 doubled %d times); distributing took %s",
		"容量 %d 个槽位（1024 翻倍 %d 次）；分发用了 %s")
	sayStillCapacity = lang.T("capacity still %d slots: RingGrowing never shrinks, the array (%d KiB of slots) stays",
		"容量仍是 %d 个槽位：RingGrowing 从不收缩，这块数组（%d KiB 的槽位）一直占着")
)
