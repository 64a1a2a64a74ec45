package main

import "informer-from-scratch/internal/lang"

// Everything stage 02's demo says, in English and Chinese side by side:
// the steps, the notes, and the words of the timeline's rows (an object
// column of words, an explanation after a row's protocol). The protocol
// itself, keys, resourceVersions and HTTP lines, is not here: it reads the
// same in both languages.
var (
	sayTitle = lang.T("Reflector: list, watch, relist on 410, backoff, bookmarks, WatchList",
		"Reflector —— list、watch、遇到 410 重新 LIST、退避、bookmark、WatchList")

	sayReadOnlyTitle = lang.T("Read-only on a real cluster", "真实集群上只读")
	sayReadOnlyWhy   = lang.T(
		`The reflectors list and watch pods in every namespace; the demo changes nothing,
so the steps that create pods and compact etcd are skipped (each says so).`,
		`reflector 在所有 namespace 里 list、watch Pod；demo 不做任何修改，
所以创建 Pod、压缩 etcd 的那几步都会跳过（每一步都会说明）。`)

	saySceneTitle = lang.T("Set the scene", "准备场景")
	saySceneWhy   = lang.T("A namespace and three pods, so the first LIST has something to return.",
		"先建一个 namespace 和三个 Pod，这样第一次 LIST 就有数据可返回。")

	sayListWatchTitle = lang.T("A reflector with LIST, then WATCH", "先 LIST 再 WATCH 的 reflector")
	sayListWatchWhy   = lang.T(
		`The first LIST asks for resourceVersion=0: "whatever you have", which an apiserver with a watch cache
serves from memory. Its answer goes to the store in one Replace. Then a WATCH from the list's
resourceVersion, with bookmarks allowed and a random timeout between 5 and 10 minutes.`,
		`第一次 LIST 带 resourceVersion=0，意思是“你手上有什么就给什么”，开着 watch cache 的 apiserver
直接从内存里返回。返回的结果用一次 Replace 交给 store。接着从列表的 resourceVersion 开始 WATCH，
允许 bookmark，超时时间在 5 到 10 分钟之间随机取。`)

	sayWatchOnlyTitle = lang.T("Watch for five seconds", "watch 五秒")
	sayWatchOnlyWhy   = lang.T(
		`On a real cluster the demo changes nothing: whatever pods change meanwhile arrives as events.
Skipped here (they write): creating and deleting pods, and the forced 410 with an etcd compaction.`,
		`在真实集群上 demo 不做任何修改：这段时间里哪些 Pod 变了，就收到哪些事件。
这里跳过了要写集群的几步：创建、删除 Pod，以及靠压缩 etcd 逼出来的 410。`)
	sayNo410Title = lang.T("Skipped: the forced 410", "跳过：逼出 410 的那一步")
	sayNo410Why   = lang.T("It needs an etcd compaction, which only the playground allows.",
		"这一步要压缩 etcd，只有 playground 上才能这么做。")
	sayStopTitle = lang.T("Stop the reflector", "停掉 reflector")
	sayStopWhy   = lang.T("Cancelling its context ends the watch, the resync timer and the retry loop.",
		"取消它的 context，watch、resync 定时器和重试循环就都结束了。")

	sayChangesTitle = lang.T("Changes arrive as watch events, and become store calls", "变化以 watch 事件的形式到达，再转成对 store 的调用")
	sayChangesWhy   = lang.T(
		`ADDED → Add, MODIFIED → Update, DELETED → Delete. Each event's resourceVersion becomes the
reflector's LastSyncResourceVersion: where the next watch will start if this one ends.`,
		`ADDED → Add，MODIFIED → Update，DELETED → Delete。每个事件的 resourceVersion 都会成为
reflector 的 LastSyncResourceVersion：这个 watch 一旦结束，下一个 watch 就从这里开始。`)
	sayTwoEvents = lang.T("A deleted pod first gets a deletionTimestamp (MODIFIED → Update), then goes (DELETED → Delete).",
		"被删除的 Pod 先被打上 deletionTimestamp（MODIFIED → Update），然后才真正消失（DELETED → Delete）。")

	sayExpiredTitle = lang.T("Lose the connection while etcd forgets: 410 Expired, then a relist",
		"断线期间 etcd 丢了历史：410 Expired，然后重新 LIST")
	sayExpiredWhy = lang.T(
		`The watch drops; while the reflector is away, pods change and etcd compacts its history.
Its next watch asks for changes after a resourceVersion etcd no longer has: the server answers
410 Expired. No event stream can fill that gap, so the reflector lists again, after a backoff.`,
		`watch 断了。reflector 断开的这段时间里，Pod 有了变化，etcd 也压缩了历史。
它的下一个 watch 要的是某个 resourceVersion 之后的变化，而 etcd 已经没有那段历史，服务端只能回 410 Expired。
这个缺口任何事件流都补不上，所以 reflector 退避一会儿，重新 LIST。`)
	sayRelisted = lang.T(
		`The LIST went out %.1fs after the 410: the backoff between two rounds (800ms at first, up to
twice that with jitter). It asks for resourceVersion=%s, the last one the reflector saw:
"at least this new" is something the server can still answer from its current state.
Paging is off for it, so an apiserver with a watch cache can serve it from memory.
The Replace brought in %s and dropped %s: the changes no event ever announced.
Store now: %s`,
		`LIST 在 410 之后 %.1fs 才发出，这是两轮之间的退避（起初 800ms，加上抖动最多翻倍）。
它要的是 resourceVersion=%s，也就是 reflector 最后看到的那个版本；
“至少这么新”这个要求，服务端凭当前状态还答得上来。
这次 LIST 不分页，开着 watch cache 的 apiserver 可以直接从内存返回。
这次 Replace 带进了 %s，去掉了 %s：这些变化没有任何事件通知过。
现在 store 里有：%s`)

	sayWatchListTitle = lang.T("A reflector with WatchList streaming (client-go's default since 1.35)",
		"用 WatchList 流式传输的 reflector（client-go 从 1.35 起的默认做法）")
	sayWatchListWhy = lang.T(
		`One WATCH with sendInitialEvents=true: the server streams every pod as an ADDED event, then a
BOOKMARK annotated k8s.io/initial-events-end. The reflector gathers the events in a temporary
store and hands them to its store in one Replace at the bookmark; no LIST at all.`,
		`只发一个带 sendInitialEvents=true 的 WATCH：服务端把每个 Pod 作为 ADDED 事件推过来，最后是一个
带 k8s.io/initial-events-end 注解的 BOOKMARK。reflector 先把这些事件攒在一个临时 store 里，
等到 bookmark 再用一次 Replace 交给自己的 store。全程没有 LIST。`)
	sayRequestsSoFar = lang.T("%d request(s) so far. The bookmark's resourceVersion is the state's: the reflector's RV now.",
		"到目前为止共 %d 个请求。bookmark 的 resourceVersion 就是这份状态的版本，现在也是 reflector 的 RV。")

	sayCarriesOnTitle = lang.T("The same stream carries on as a watch", "同一个流接着当 watch 用")
	sayCarriesOnWhy   = lang.T("After the bookmark the reflector keeps the stream open: new changes come on it, no new request.",
		"bookmark 之后 reflector 不会关闭这个流：新的变化继续从这个流上过来，不需要发新的请求。")
	sayNewRequests = lang.T("%d new request(s).", "新增 %d 个请求。")

	sayResyncTitle = lang.T("Resync: the store's Resync every period, with no request", "Resync：每个周期调一次 store 的 Resync，不发请求")
	sayResyncWhy   = lang.T(
		`This reflector has a 2s resync period. Resync does not talk to the apiserver: it asks the store to
deliver what it already holds again (stage 03's queue turns that into Sync events), so controllers
can re-check every object now and then. Watch for the missing http rows.`,
		`这个 reflector 的 resync 周期是 2s。Resync 不找 apiserver，只是让 store 把手里已有的东西再交付一遍
（第 3 阶段的队列会把它变成 Sync 事件），好让控制器时不时把每个对象重新检查一遍。
留意这里没有 http 行。`)
	sayResyncRequests = lang.T("%d new request(s) during the resyncs.", "resync 期间新增 %d 个请求。")

	sayBookmarksTitle = lang.T("About bookmarks", "关于 bookmark")
	sayBookmarksWhy   = lang.T(
		`The initial-events-end bookmark above is the one every WatchList stream ends its state with.
Servers also send plain BOOKMARKs on long watches (with the watch cache on, about once a minute):
they only move the resourceVersion, so a restarted watch does not start from a point etcd has
compacted; a store that implements ReflectorBookmarkStore hears of them. %s`,
		`上面那个 initial-events-end bookmark，是每个 WatchList 流发完状态时都会带的。
在长时间的 watch 上，服务端还会发普通的 BOOKMARK（开着 watch cache 时大约每分钟一次）：
它们只推进 resourceVersion，好让重启的 watch 不会从 etcd 已经压缩掉的位置开始；
实现了 ReflectorBookmarkStore 的 store 能收到它们。
%s`)
	sayPlainBookmarks = lang.T("%d plain bookmark(s) reached the store in this run.", "这次运行中有 %d 个普通 bookmark 到达了 store。")
	sayNoWatchCache   = lang.T("This playground runs without the watch cache (to force the 410), so none came here.",
		"这个 playground 关掉了 watch cache（为了逼出 410），所以这里一个也没有。")

	// The rows' words.
	sayConnection    = lang.T("the reflector's connection", "reflector 的连接")
	sayCutWhy        = lang.T("its watch ends; its next watch request waits", "它的 watch 断开，下一个 watch 请求先等着")
	sayRestoreWhy    = lang.T("the waiting watch request goes out", "等着的 watch 请求发出去了")
	sayCompactWhy    = lang.T("the history before it is gone; the reflector is at %s", "这之前的历史都没了，而 reflector 还停在 %s")
	sayReturned      = lang.T("ListAndWatch returned it", "ListAndWatch 返回了这个错误")
	sayStoppedWhy    = lang.T("returned: its context was cancelled, its watch is closed", "已返回：context 被取消，watch 已关闭")
	sayNoMetadata    = lang.T("no metadata", "没有 metadata")
	sayDeletionBegun = lang.T("deletionTimestamp set: the deletion has begun", "设置了 deletionTimestamp：删除已经开始")
	sayObjects       = lang.T("%d objects", "%d 个对象")
	sayResyncRow     = lang.T("no request: a queue would deliver them all again", "不发请求：如果是队列，会把它们全部重新投递一遍")
	sayNewKeys       = lang.T("new: %s", "新增：%s")
	sayGoneKeys      = lang.T("gone: %s", "消失：%s")
	saySameKeys      = lang.T("the same keys as before", "key 和之前完全一样")
	sayKeys          = lang.Verbatim("%s")
	sayAndMore       = lang.T("%s and %d more", "%s 等，另有 %d 个")
	sayNone          = lang.T("nothing", "（无）")
	sayAnd           = lang.T("%s and %s", "%s 和 %s")
)
