package main

import "informer-from-scratch/internal/lang"

// Everything stage 06's demo says, in English and Chinese side by side:
// its flags' help and errors, --break=help, the steps, the notes, the
// answers of the web view's buttons, and the words of the timeline's rows (an object column of words, an
// explanation after a row's protocol). The protocol itself, keys,
// resourceVersions and HTTP lines, is not here: it reads the same in both
// languages.
var (
	sayTitle = lang.T("SharedIndexInformer: stages 1-5 assembled, one pod followed through every layer",
		"SharedIndexInformer —— 把第 1 到 5 阶段组装起来，跟着一个 Pod 走过每一层")

	// The flags (main.go, web.go) and their errors (flags.go).
	sayQueueFlag = lang.T("the informer's queue: realfifo (client-go v0.37's) or deltafifo (the classic one)",
		"informer 用的队列：realfifo（client-go v0.37 用的）或 deltafifo（经典的那个）")
	sayBreakFlag = lang.T("take one mechanism away from the informer to see what breaks: tombstones, blocking-listener (help: what each does)",
		"从 informer 里拿掉一个机制，看看会坏在哪：tombstones、blocking-listener（help：列出每个开关的作用）")
	sayChaosFlag = lang.T("put a fault-injecting proxy before the informer, and end with a cut watch, a 410 Gone and an apiserver restart",
		"在 informer 前面放一个会注入故障的代理，最后依次演示 watch 被切断、410 Gone 和 apiserver 重启")
	sayWebFlag = lang.T("serve a live view of the pipeline in the browser (the URL is printed); after the story the demo stays up, and the page's buttons act, until Ctrl-C",
		"在浏览器里实时展示整条流水线（会打印出网址）；讲完之后 demo 不退出，页面上的按钮可以操作，直到按下 Ctrl-C")
	sayBadQueue             = lang.T("--queue=%s: the queues are realfifo and deltafifo", "--queue=%s：队列只有 realfifo 和 deltafifo 两种")
	sayNoBreak              = lang.T("no break named %q (--break=help lists them)", "没有叫 %q 的开关（--break=help 会列出全部）")
	sayChaosNeedsPlayground = lang.T("--chaos needs the playground: it restarts the apiserver", "--chaos 只能在 playground 上用：它要重启 apiserver")
	sayBreakNeedsPlayground = lang.T("--break=%s needs the playground: the steps that show it write, and on a real cluster the demo only reads",
		"--break=%s 只能在 playground 上用：演示它的那几步要写数据，而 demo 在真实集群上只读")
	sayBlockingWithChaos = lang.T("--break=blocking-listener shows in the last step, which --chaos skips",
		"--break=blocking-listener 要到最后一步才看得出来，而 --chaos 会跳过这一步")

	// --break=help (breaks.go). Each switch's line is a command and this.
	sayBreaksIntro = lang.T("What breaks without it: each switch takes one mechanism away from our informer (never by default).",
		"拿掉它会坏在哪：每个开关从我们的 informer 里拿掉一个机制（默认一个都不拿）。")
	sayBreaksOutro = lang.T("Run the demo without --break to see the same steps with the mechanism in place.",
		"不带 --break 再跑一次，就能看到机制完好时同样的几步。")
	// sayBreakWhat is informer.AllBreaks' What of each switch, by name, in
	// both languages (a test holds the English to the informer's).
	sayBreakWhat = map[string]lang.Text{
		"tombstones": lang.T("no DeletedFinalStateUnknown: a delete missed during a watch gap never reaches a handler",
			"没有 DeletedFinalStateUnknown：watch 断开期间错过的删除永远到不了 handler"),
		"blocking-listener": lang.T("no ring buffer per handler: a stalled handler stalls the cache and every other handler",
			"handler 不再各有一个环形缓冲区：一个 handler 卡住，缓存和其他所有 handler 都跟着卡住"),
	}

	// The story (script.go).
	sayReadOnlyTitle = lang.T("Read-only on a real cluster", "真实集群上只读")
	sayReadOnlyWhy   = lang.T(
		`The informer lists and watches the pods of every namespace and changes nothing. Only the
first rows of each layer are printed; the steps that create, delete and compact are skipped.`,
		`informer list、watch 所有 namespace 的 Pod，不做任何修改。每一层只打印最前面几行；
创建、删除和压缩 etcd 的那几步都跳过。`)
	saySceneTitle = lang.T("Set the scene", "准备场景")
	saySceneWhy   = lang.T("A namespace and three pods, so the informer's first list has something in it.",
		"先建一个 namespace 和三个 Pod，这样 informer 第一次 list 时就能拿到数据。")

	sayBuildTitle = lang.T("Build the informer (queue: %s), add two handlers, run it", "构建 informer（队列：%s），加两个 handler，运行起来")
	sayBuildWhy   = lang.T(
		`Every row below is one step of one pod through one layer: the reflector (stage 02) writes
to the queue (03), processLoop pops it, handleDeltas writes the indexer (04) and hands a
notification to the processor (05), which calls each handler on its own goroutine.
A transform drops managedFields before anything is queued, so no layer holds them.`,
		`下面每一行是一个 Pod 在某一层走的一步：reflector（第 02 阶段）写入队列（03），
processLoop 把它 Pop 出来，handleDeltas 先写 indexer（04），再把通知交给 processor（05），
processor 在每个 handler 各自的 goroutine 上调用它。
入队之前，transform 先去掉 managedFields，所以哪一层都不存它们。`)
	saySyncedNote = lang.T(
		`The informer's HasSynced: its cache holds the first list. A registration's HasSynced: that
handler has also been called for every pod of it. A controller waits for the second.`,
		`informer 的 HasSynced：它的缓存里已经有第一次 list 的结果。注册的 HasSynced：
该 handler 也已对其中每个 Pod 回调完毕。控制器等的是后者。`)

	sayFollowTitle = lang.T("Follow one pod through every layer", "跟着一个 Pod 走过每一层")
	sayFollowWhy   = lang.T("Create, update, delete: each change is one watch event, and one row per layer.",
		"创建、更新、删除：每个变化是一个 watch 事件，每层一行。")
	sayTwoEvents = lang.T("The pod's deletion is two events: first MODIFIED (deletionTimestamp set), then DELETED.",
		"删除 Pod 是两个事件：先是 MODIFIED（设置了 deletionTimestamp），然后才是 DELETED。")

	sayLateTitle = lang.T("A handler added while the informer runs", "informer 运行中途加进来的 handler")
	sayLateWhy   = lang.T(
		`It missed the initial list, so the informer replays its cache to it as adds with
isInInitialList=true (processor replay rows), holding processing meanwhile: it gets
the cache, then every later change, nothing twice and nothing missed. It is typed: its
DeleteFunc gets a DeletedObject[*corev1.Pod], tombstone or not, with no type switch.`,
		`它错过了初始 list，所以 informer 把缓存以 add 的形式重放给它，带 isInInitialList=true
（processor replay 那几行），重放期间暂停分发：它先拿到缓存，再拿到之后的每个变化，
不重复，也不遗漏。它是带类型的：它的 DeleteFunc 收到的是 DeletedObject[*corev1.Pod]，
不管是不是 tombstone，都不用做类型判断。`)
	sayLateDelete = lang.T("late's typed DeleteFunc: key=%s, tombstone=%v", "late 的带类型 DeleteFunc：key=%s，tombstone=%v")

	sayWatchTitle = lang.T("Watch for five seconds", "观察五秒")
	sayWatchWhy   = lang.T(
		`Read-only: whatever pods change meanwhile arrives, layer by layer. Skipped here (it writes):
the relist that misses a delete, which deletes a pod and compacts etcd.`,
		`只读：这段时间里哪个 Pod 有变化，就一层一层地传过来。这里跳过了要写数据的一步：
错过一次删除的重新 list，那一步要删 Pod、压缩 etcd。`)
	saySkippedTitle = lang.T("Skipped: a relist that misses a delete", "跳过：错过一次删除的重新 list")
	saySkippedWhy   = lang.T("It compacts etcd, which only the playground allows.", "这一步要压缩 etcd，只有 playground 允许这么做。")

	sayRelistTitle = lang.T("Lose the connection while a pod is deleted: a relist, and a tombstone",
		"断线期间删掉一个 Pod：重新 list，外加一个 tombstone")
	sayRelistWhy = lang.T(
		`The watch drops; meanwhile web-3 is deleted, web-5 created, and etcd compacted. The watch
from the old resourceVersion gets 410 Expired, so the reflector lists again. web-3 is not in
the new list: the informer knew it, the server no longer has it, and how it went is lost.
Handlers get a DeletedFinalStateUnknown holding web-3 as the cache last had it.`,
		`watch 断开；这期间删掉 web-3、创建 web-5，再压缩 etcd。从旧 resourceVersion 开始的 watch
收到 410 Expired，于是 reflector 重新 list。新列表里没有 web-3。informer 知道它，服务端却已经没有它了，
至于它是怎么没的，已经无从得知。
handler 收到一个 DeletedFinalStateUnknown，里面是缓存最后看到的 web-3。`)
	sayRelistBreak = lang.T("--break=tombstones: the informer drops that tombstone. Watch audit's own view.",
		"--break=tombstones：informer 把这个 tombstone 丢掉了。看看 audit 自己维护的视图。")

	sayStopTitle = lang.T("Stop", "停止")
	sayStopWhy   = lang.T("Cancelling the context stops the reflector, processLoop, the processor and every listener.",
		"取消 context，就停掉了 reflector、processLoop、processor 和每一个 listener。")

	sayCacheCount = lang.T("The cache holds %d pods.", "缓存里有 %d 个 Pod。")
	sayCache      = lang.T("Cache: %v; managedFields entries held: %d", "缓存：%v；存着的 managedFields 条目：%d")

	// The audit handler's view, and the stalled handler (breaks.go).
	saySameView = lang.T("audit's own view, built from its calls alone: the same pods.",
		"audit 仅凭自己收到的回调建立的视图：Pod 与缓存完全一致。")
	sayGhosts = lang.T("audit's own view, built from its calls alone: %v; ghosts (never deleted there): %v",
		"audit 仅凭自己收到的回调建立的视图：%v；幽灵（在它那里永远删不掉）：%v")
	sayNoTombstone = lang.T(
		`--break=tombstones: the relist took web-3 out of the cache, and no handler was told. What a
handler built from its calls keeps web-3 for good: a controller would never clean up after it.
client-go calls OnDelete with a DeletedFinalStateUnknown for it (processReplacedAllInfo).`,
		`--break=tombstones：重新 list 把 web-3 从缓存里拿掉了，却没有告诉任何 handler。
handler 根据回调维护的状态会一直留着 web-3：控制器永远不会为它做清理。
client-go 会为它调用 OnDelete，参数是一个 DeletedFinalStateUnknown（processReplacedAllInfo）。`)

	sayStallTitle = lang.T("A handler that stalls", "一个卡住的 handler")
	sayStallWhy   = lang.T(
		`A handler named slow stops on burst-1's add, as one calling a server that does not answer would,
and four pods are created meanwhile. Each listener parks what its handler is not ready for in a
ring of its own (stage 05), so audit, metrics and the cache should keep up: only slow waits.`,
		`一个叫 slow 的 handler 处理 burst-1 的 add 时卡住了，就像它调用的下游服务一直没有响应；
这期间创建四个 Pod。每个 listener 把自家 handler 还接不住的通知先放进自己的 ring（第 05 阶段），
所以 audit、metrics 和缓存都应该跟得上，只有 slow 在等。`)
	sayStallBreak = lang.T("--break=blocking-listener: the rings are gone. Watch who waits now.",
		"--break=blocking-listener：ring 没了。看看现在谁在等。")
	// sayHeardAll's numbers are the run's: the pods audit was called for
	// while slow is stuck, the notifications in slow's ring, the one in its
	// stuck OnAdd, and the rest, held by its listener's pop.
	sayHeardAll = lang.T(
		`audit has heard of all %d pods while slow is stuck; slow's ring holds %d of them. The others:
%d in slow's OnAdd, stuck, and %d in the hand of its listener's pop, which takes the next
notification out of the ring first and offers it to run, the goroutine that calls slow (stage 05).`,
		`slow 卡住期间，audit 已经收到了全部 %d 个 Pod；slow 的 ring 里只存着其中 %d 个。其余的：
%d 个卡在 slow 的 OnAdd 里，%d 个在它的 listener 的 pop 手上：pop 会先把下一条通知从 ring 里取出来，
再递给负责调用 slow 的 goroutine run（第 05 阶段）。`)
	sayHeardOf = lang.T(
		`audit heard of: %v. processLoop is stuck handing a pod to slow, so the cache and every
handler wait with it, and the watch's new events pile up in the queue behind it.`,
		`audit 收到的：%v。processLoop 卡在把一个 Pod 交给 slow 这一步，于是缓存和每个 handler
都跟着等，watch 新来的事件在它后面的队列里越堆越多。`)
	sayCaughtUp = lang.T("slow has caught up; nothing was lost either way, only delayed.",
		"slow 追上来了：无论有没有 ring，通知都一条没丢，只是来晚了。")

	// --chaos (chaos.go).
	sayChaosProxy = lang.T("--chaos: the informer talks to a fault-injecting proxy at %s, which forwards to the apiserver.",
		"--chaos：informer 连的是 %s 上一个会注入故障的代理，由它转发给 apiserver。")
	sayChaos1Title = lang.T("Chaos 1: the watch connection is cut mid-stream", "故障 1：watch 连接在半路被切断")
	sayChaos1Why   = lang.T(
		`A change arrives on the watch; then the proxy aborts the connection. The reflector's watch
ends with an unexpected EOF, and it watches again from the last resourceVersion it saw: no
relist, since nothing was lost and the server still has that history. (A watch cut within a
second of its start with no event on it is a "very short watch": an error, and a relist.)`,
		`watch 上先来一个变化，然后代理掐断连接。reflector 的 watch 以 unexpected EOF 结束，
它从最后见到的 resourceVersion 接着 watch：不用重新 list，因为什么也没丢，服务端也还留着那段历史。
（如果一个 watch 开始后不到一秒就断了，上面又一个事件都没有，就算 "very short watch"：
报错，然后重新 list。）`)
	sayChaos2Title = lang.T("Chaos 2: the watch ends with 410 Gone", "故障 2：watch 以 410 Gone 结束")
	sayChaos2Why   = lang.T(
		`The proxy sends an ERROR event, 410 Expired, as the apiserver does when the resourceVersion
a watch asks for is compacted away. The reflector cannot resume: it lists again, and the
queue's Replace tells every handler what changed (here: nothing, so updates with the same rv).`,
		`代理发来一个 ERROR 事件，410 Expired；watch 要的 resourceVersion 被压缩掉时，apiserver 也是这么做的。
reflector 没法接着 watch，只能重新 list，再由队列的 Replace 把变化告诉每个 handler
（这里什么都没变，所以都是 rv 相同的 update）。`)
	sayChaos3Title = lang.T("Chaos 3: the apiserver restarts (etcd keeps its data)", "故障 3：apiserver 重启（etcd 的数据还在）")
	sayChaos3Why   = lang.T(
		`The watch ends when the apiserver stops; while it is down (the proxy with it) connections
are refused and the reflector backs off. Once it is back, the reflector watches again from
its resourceVersion: etcd kept the history, so no relist. A pod created after it arrives.`,
		`apiserver 一停，watch 就断了；它停着的时候（代理也跟着停），连接都被拒绝，reflector 退避重试。
等它回来，reflector 从自己的 resourceVersion 接着 watch：etcd 留着历史，所以不用重新 list。
重启之后创建的 Pod 照常到达。`)
	sayProxyStats = lang.T("The proxy: %d requests; faults: %v.", "代理：共 %d 个请求；故障：%v。")

	// --web (web.go): the notes, and the buttons' answers.
	sayWebView = lang.T("Web view: %s (open it in a browser; its buttons act once the story is over)",
		"Web 视图：%s（用浏览器打开；讲完之后页面上的按钮才起作用）")
	sayWebStaysUp = lang.T("--web: the informer keeps running and the page's buttons act, until you press Ctrl-C: %s",
		"--web：informer 继续运行，页面上的按钮可以操作，直到你按下 Ctrl-C：%s")
	sayWebError = lang.T("web view: %v", "Web 视图出错：%v")

	sayCreated          = lang.T("created %s", "已创建 %s")
	sayLabelled         = lang.T("labelled %s", "已给 %s 改了 label")
	sayDeleted          = lang.T("deleted %s", "已删除 %s")
	sayAdded            = lang.T("added %s", "已添加 %s")
	sayNoPod            = lang.T("the cache holds no pod: create one first", "缓存里一个 Pod 都没有：先创建一个")
	sayAlreadyCut       = lang.T("the watch is already cut", "watch 已经断开了")
	sayCut              = lang.T("cut: changes made now reach the informer only when the watch is restored", "已断开：现在做的修改，要等 watch 恢复后才会到达 informer")
	sayNotCut           = lang.T("the watch is not cut", "watch 并没有断开")
	sayRestored         = lang.T("restored", "已恢复")
	sayNothingToCompact = lang.T("etcd has nothing to forget: it was compacted, and nothing has changed since; change something first",
		"etcd 没有可以丢掉的历史：刚压缩过，之后什么也没变；先改点东西")
	sayCompactedOpen = lang.T("compacted; an open watch is not affected: cut the watch, change something, compact, then restore",
		"已压缩；开着的 watch 不受影响：先断开 watch，改点东西，再压缩，然后恢复")
	sayCompacted = lang.T("compacted: restore the watch to see the 410 and the relist", "已压缩：恢复 watch，就能看到 410 和重新 list")

	// The rows' words.
	sayPods             = lang.T("%d pods", "%d 个 Pod")
	sayInBatch          = lang.T("in a batch of %d", "同一批共 %d 个")
	sayInTransaction    = lang.T("in a transaction of %d", "同一个事务共 %d 个")
	sayTombstone        = lang.T("deleted while no watch was open", "在没有 watch 的时候被删掉了")
	saySync             = lang.T("same rv: a sync", "rv 没变：这是一次 sync")
	sayTheInformer      = lang.T("the informer", "informer 本身")
	sayConnection       = lang.T("the informer's connection", "informer 的连接")
	sayCutWhy           = lang.T("its watch ends; its next watch request waits", "它的 watch 断开，下一个 watch 请求先等着")
	sayRestoreWhy       = lang.T("the waiting watch request goes out", "等着的 watch 请求发出去了")
	sayCompactWhy       = lang.T("the history before it is gone", "这之前的历史都没了")
	sayReturned         = lang.T("returned", "已返回")
	sayWillRelist       = lang.T("the reflector will list again", "reflector 会重新 list")
	sayStuck            = lang.T("stuck in OnAdd until the demo releases it", "卡在 OnAdd 里，直到 demo 放行")
	sayDistributorWaits = lang.T("audit has not heard of burst-4: the distributor waits for slow", "audit 还没收到 burst-4：分发卡在了 slow 上")
	sayReleased         = lang.T("its OnAdd of burst-1 returns", "它处理 burst-1 的 OnAdd 返回了")
	sayRestarting       = lang.T("stopping it; etcd keeps running", "先停掉它；etcd 照常运行")
	sayBackAfter        = lang.T("back after %s", "%s 后恢复")
	sayCutAfter         = lang.T("connection aborted after %d events", "送出 %d 个事件后，连接被掐断")
	sayGoneAfter        = lang.T("after %d events, then the end of the watch", "在 %d 个事件之后发出，随后 watch 结束")
	sayAddedRunning     = lang.T("added while the informer runs", "在 informer 运行中途加入")
	sayEachCallTakes    = lang.T("each call takes %s", "每次调用耗时 %s")
)
