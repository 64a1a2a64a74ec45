package main

import "informer-from-scratch/internal/lang"

// Everything stage 03's demo says, in English and Chinese side by side:
// the steps, the notes, and the words of the timeline's rows (an object
// column of words, an explanation after a row's protocol). The protocol
// itself, keys, resourceVersions and HTTP lines, is not here: it reads the
// same in both languages; so do the cells of the Pop tables, but for the
// consumer's lines.
var (
	sayTitle = lang.T("DeltaFIFO and RealFIFO: the same events through both queues",
		"DeltaFIFO 与 RealFIFO —— 同一串事件分别走两种队列")

	sayNeedsWritesTitle = lang.T("This demo needs to change ConfigMaps", "这个 demo 要改 ConfigMap")
	sayNeedsWritesWhy   = lang.T(
		`It creates, updates and deletes a few ConfigMaps to have events to queue.
On a real cluster a demo only reads, so it stops here: run it on the playground (make run-stage 3).`,
		`它要创建、更新、删除几个 ConfigMap，才有事件可以排队。
在真实集群上 demo 只读，所以到这里就停了：请在 playground 上运行（make run-stage 3）。`)

	sayInitialTitle = lang.T("The initial list", "初始 LIST")
	sayInitialWhy   = lang.T(
		`A Reflector starts with a LIST and hands it to its queue's Replace. The DeltaFIFO queues one
Replaced delta per object; the RealFIFO (AtomicEvents) one ReplacedAll item for the whole list.`,
		`Reflector 一开始先 LIST，再把结果交给队列的 Replace。DeltaFIFO 为每个对象排一个 Replaced delta；
RealFIFO（AtomicEvents）则为整个列表只排一个 ReplacedAll。`)
	saySynced = lang.T("HasSynced: DeltaFIFO=%v after %d Pops, RealFIFO=%v after %d: the first list has been delivered.",
		"HasSynced：DeltaFIFO=%v（%d 次 Pop 之后），RealFIFO=%v（%d 次之后）：第一次 list 的结果已经全部交付。")

	sayBurstTitle = lang.T("Watch events while the consumer is busy", "消费者正忙时到达的 watch 事件")
	sayBurstWhy   = lang.T(
		`Five changes arrive before anyone pops. The DeltaFIFO files each under its object's key, and a
key keeps the place where its FIRST pending change arrived; the RealFIFO keeps one item per event.`,
		`在任何 Pop 发生之前，先来了五个变化。DeltaFIFO 把每个变化归到对象的 key 下，一个 key 在队列里的位置
由它第一个待处理的变化决定；RealFIFO 则是一个事件一项。`)

	sayTombstoneTitle = lang.T("A relist after the watch broke: tombstones", "watch 断了之后重新 LIST：tombstone")
	sayTombstoneWhy   = lang.T(
		`While no watch is open, web-1 is deleted. The next LIST simply lacks it. The DeltaFIFO compares
the list with what its consumer knows (KnownObjects) and queues a DeletedFinalStateUnknown;
the RealFIFO queues the list as one item, and its consumer finds the deletion itself.`,
		`没有 watch 的这段时间里，web-1 被删了，下一次 LIST 里干脆就没有它。DeltaFIFO 拿列表和
消费者已知的对象（KnownObjects）比对，排一个 DeletedFinalStateUnknown；
RealFIFO 把整个列表当作一项排进去，由消费者自己找出这次删除。`)

	sayResyncTitle = lang.T("A periodic resync", "周期性 resync")
	sayResyncWhy   = lang.T(
		`Resync hands the objects the consumer already has back to it, so handlers can re-check them;
nothing is read from the server. A pending change to web-3 is still queued when it runs.`,
		`Resync 把消费者手里已有的对象再交给它一遍，好让 handler 重新检查，不从服务端读任何东西。
它运行的时候，web-3 还有一个变化排在队列里没处理。`)
	saySkipped = lang.T("The DeltaFIFO skipped web-3: its queued update is newer than the cached copy a Sync would carry.",
		"DeltaFIFO 跳过了 web-3：它在队列里还有一个待处理的更新，比 Sync 会带上的缓存副本要新。")

	sayWhyRealFIFOTitle = lang.T("Why client-go moved to RealFIFO", "client-go 为什么换成了 RealFIFO")
	sayWhyRealFIFO      = lang.T(
		`Both consumers end with %s cache (%s), but only the RealFIFO's went
through the states the server went through, one resourceVersion after another. With a DeltaFIFO a
handler that lists the cache can see web-1 changed while web-3, created before that change, is missing.
In client-go v0.37 every informer uses a RealFIFO (InOrderInformers is GA) with AtomicEvents:
a relist replaces the cache in one step, and the informer, not the queue, works out the tombstones.`,
		`两个消费者最后的缓存%s（%s），但只有 RealFIFO 的消费者按 resourceVersion 一个接一个，
走过了服务端经历过的每个状态。用 DeltaFIFO 时，去 list 缓存的 handler 可能看到 web-1 已经变了，
而比这次变化更早创建的 web-3 却还不在。
client-go v0.37 里，每个 informer 都用带 AtomicEvents 的 RealFIFO（InOrderInformers 已经 GA）：
重新 LIST 时一步替换整个缓存，tombstone 由 informer 而不是队列来算。`)
	saySame      = lang.T("the same", "相同")
	sayDifferent = lang.T("DIFFERENT", "不同")

	// The Pop tables: a header, a rule, and rows of cells.
	sayDeltaPop  = lang.T("DeltaFIFO.Pop: one key, all its Deltas", "DeltaFIFO.Pop：一个 key，及其全部 Deltas")
	sayRealPop   = lang.T("RealFIFO.Pop: one event", "RealFIFO.Pop：一个事件")
	sayTableRow  = lang.Verbatim("%s │ %s")
	sayTableRule = lang.Verbatim("%s┼%s")
	sayGap       = lang.T(
		`(gap: N) = the DeltaFIFO's consumer now holds a newer resourceVersion than N without having
seen N: its cache is in a state the API server never was in.`,
		`(gap: N) 表示 DeltaFIFO 的消费者已经拿到了比 N 新的 resourceVersion，却从没见过 N：
它的缓存处在一个 API server 从未有过的状态。`)
	sayConsumerGone     = lang.T("  ↳ consumer: %s is gone → OnDelete(tombstone, last rv %s)", "  ↳ 消费者：%s 没了 → OnDelete(tombstone，最后的 rv 是 %s)")
	sayConsumerReplaced = lang.T("  ↳ consumer: cache replaced in one step", "  ↳ 消费者：一步替换整个缓存")
	sayConsumerSync     = lang.T("  ↳ consumer: OnUpdate for each cached object: %s", "  ↳ 消费者：对每个缓存的对象调 OnUpdate：%s")

	// The rows' words.
	sayConfigMaps      = lang.T("%d configmaps", "%d 个 ConfigMap")
	sayToReplace       = lang.T("handed to both queues' Replace", "交给两个队列的 Replace")
	sayToBoth          = lang.T("handed to both queues", "交给两个队列")
	sayBothQueues      = lang.T("both queues", "两个队列")
	sayWatchOpen       = lang.T("the watch is open", "watch 还开着")
	sayNobodyWatching  = lang.T("nobody is watching", "这时没有人在 watch")
	sayConnectionDrops = lang.T("the connection drops", "连接断了")
	sayDemoEnds        = lang.T("the demo ends", "demo 结束")
)
