package main

import "informer-from-scratch/internal/lang"

// Everything stage 01's demo says, in English and Chinese side by side:
// the steps, the notes, and the words of the timeline's rows (an object
// column of words, an explanation after a row's protocol). The protocol
// itself, keys, resourceVersions and HTTP lines, is not here: it reads the
// same in both languages.
var (
	sayTitle = lang.T("ListWatch: LIST in pages, WATCH from a resourceVersion, and WatchList",
		"ListWatch —— 分页 LIST、从某个 resourceVersion 开始 WATCH，以及 WatchList")

	saySceneTitle = lang.T("Set the scene", "准备场景")
	saySceneWhy   = lang.T("Create a namespace and five pods, so there is something to list.",
		"先建一个 namespace 和五个 Pod，这样 LIST 时就有数据可列。")

	sayReadOnlyTitle = lang.T("Read-only on a real cluster", "真实集群上只读")
	sayReadOnlyWhy   = lang.T(
		`The demo lists and watches pods in every namespace and changes nothing.
Pods are only printed for the first page; events are whatever the cluster does meanwhile.`,
		`demo 在所有 namespace 里 list、watch Pod，不做任何修改。
只打印第一页的 Pod；事件就是这段时间里集群自己发生的变化。`)

	sayPagesTitle = lang.T("LIST in pages", "分页 LIST")
	sayPagesWhy   = lang.T(
		`The pager asks for %d pods at a time (limit). Each answer carries a continue token until
the last page; every page comes from the snapshot the first page pinned, so the list is consistent.
resourceVersion is unset on the first page: a consistent read of the newest data.`,
		`分页器每次要 %d 个 Pod（limit）。每个响应都带一个 continue token，直到最后一页；
每一页都来自第一页锁定的那个快照，所以拼起来的列表是一致的。
第一页不设 resourceVersion，也就是对最新数据做一次一致性读。`)
	sayWatchFrom = lang.T("The list's resourceVersion %s is where the watch must start: it covers every change after the snapshot.",
		"watch 必须从列表的 resourceVersion %s 开始，快照之后的每一个变化才能无缝接上。")
	sayAndMore = lang.T("… and %d more", "……还有 %d 个")
	sayItem    = lang.Verbatim("%-40s rv=%s")

	sayWatchTitle = lang.T("WATCH from the list's resourceVersion", "从列表的 resourceVersion 开始 WATCH")
	sayWatchWhy   = lang.T(
		`Only changes newer than the snapshot arrive. allowWatchBookmarks lets the server send
BOOKMARK events that only move the resourceVersion forward; timeoutSeconds makes the server
end the watch after a while, so clients spread their reconnects (the Reflector randomises it).`,
		`只有比快照新的变化才会到达。allowWatchBookmarks 允许服务端发 BOOKMARK 事件，
它只把 resourceVersion 往前推；timeoutSeconds 让服务端过一阵就结束这个 watch，
好让各个客户端错开重连的时间（Reflector 会把它随机化）。`)
	sayWatching = lang.T("Watching for 10 seconds…", "watch 10 秒……")

	sayWatchListTitle = lang.T("WatchList: the state and the changes in one request", "WatchList：一个请求拿到状态和变化")
	sayWatchListWhy   = lang.T(
		`sendInitialEvents=true asks for the current state as synthetic ADDED events first;
resourceVersionMatch=NotOlderThan with an empty resourceVersion makes that state at least as
new as a consistent read. A BOOKMARK annotated k8s.io/initial-events-end says the state is complete.`,
		`sendInitialEvents=true 要求先把当前状态以合成的 ADDED 事件发过来；
resourceVersionMatch=NotOlderThan 配上空的 resourceVersion，保证这份状态至少和一次一致性读一样新。
带 k8s.io/initial-events-end 注解的 BOOKMARK 表示状态已经发完了。`)
	sayInitialEvents = lang.T("%d initial ADDED events, then the bookmark: the reflector would now replace its store.",
		"先收到 %d 个初始 ADDED 事件，然后是 bookmark：如果是 reflector，此时就会用这些对象整体替换 store。")
	sayWatchingMore = lang.T("Watching the same stream for 5 more seconds…", "在同一个流上再 watch 5 秒……")
	sayCarriesOn    = lang.T("The same stream now carries changes, like any watch:",
		"之后，同一个流就像普通 watch 一样送来变化：")

	// The rows' words.
	sayPage            = lang.T("page %d: %d pods", "第 %d 页：%d 个 Pod")
	sayLastPage        = lang.T("no continue token: the last page", "没有 continue token：这是最后一页")
	sayPodsInRequests  = lang.T("%d pods in %d requests", "%d 个 Pod，共 %d 次请求")
	sayDeletionBegun   = lang.T("deletionTimestamp set: the deletion has begun", "设置了 deletionTimestamp：删除已经开始")
	sayBookmarkCarries = lang.T("a bookmark carries only a resourceVersion", "bookmark 只带一个 resourceVersion")
)
