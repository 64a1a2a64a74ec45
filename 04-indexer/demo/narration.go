package main

import "informer-from-scratch/internal/lang"

// Everything stage 04's demo says, in English and Chinese side by side:
// the steps, the notes, and the words of the timeline's rows (an object column of words, an
// explanation after a row's protocol). The protocol itself, keys,
// resourceVersions and HTTP lines, is not here: it reads the same in both
// languages.
var (
	sayTitle = lang.T("Indexer: the local cache, its indices and the listers", "Indexer —— 本地缓存、索引与 lister")

	sayReadOnlyTitle = lang.T("Read-only on a real cluster", "真实集群上只读")
	sayReadOnlyWhy   = lang.T(
		`The demo caches the pods of every namespace and changes nothing;
its questions are about whatever nodes and labels it finds.`,
		`demo 把所有 namespace 的 Pod 缓存起来，不做任何修改；
提的问题都围绕它在集群里找到的节点和标签。`)
	sayNoUpdate = lang.T("Skipping the update: on a real cluster a demo only reads.", "跳过更新那一步：在真实集群上 demo 只读。")

	saySceneTitle = lang.T("Set the scene", "准备场景")
	saySceneWhy   = lang.T(
		`Two namespaces, eight pods, three nodes. The nodes do not exist: a pod's spec.nodeName
can be set when it is created, and nothing on the playground schedules or runs pods.`,
		`两个 namespace，八个 Pod，三个节点。这些节点并不存在：Pod 的 spec.nodeName 可以在创建时直接填上，
而 playground 上没有任何东西会去调度或运行 Pod。`)

	sayFillTitle = lang.T("Fill the cache from a Reflector", "用 Reflector 填满缓存")
	sayFillWhy   = lang.T(
		`An Indexer keyed by namespace/name, with the one index every informer has: by namespace.
The Reflector (stage 02) gets the state of the pods (those labelled demo=stage04 when the
demo made them) and writes it into the cache with Replace, then keeps watching and turns every
event into Add, Update or Delete.`,
		`一个以 namespace/name 为 key 的 Indexer，带着每个 informer 都有的那个索引：按 namespace。
Reflector（第 2 阶段）拿到 Pod 的当前状态（如果 Pod 是 demo 自己建的，就只拿带 demo=stage04 标签的），
用 Replace 写进缓存，然后继续 watch，把每个事件变成 Add、Update 或 Delete。`)
	sayCacheHolds = lang.T("The cache holds %d pods: %s", "缓存里有 %d 个 Pod：%s")
	sayLastSync   = lang.T("LastStoreSyncResourceVersion = %s", "LastStoreSyncResourceVersion 为 %s")

	sayIndexesTitle = lang.T("Add a by-node and a by-label index to the filled cache", "给已经填满的缓存加上按节点、按标签的索引")
	sayIndexesWhy   = lang.T(
		`AddIndexers runs the new index functions over the pods already cached (allowed since 1.30;
before, indexes had to exist before the first object). byLabel is multi-valued: a pod is
filed under each of its labels, as key=value, so each pod here is in two of its buckets.`,
		`AddIndexers 会拿新的索引函数把已缓存的 Pod 过一遍（1.30 起才允许；在那之前，
索引必须在第一个对象进来之前建好）。byLabel 是多值索引：一个 Pod 按它的每个标签（key=value）
各归一次档，所以这里每个 Pod 都同时在它的两个桶里。`)
	sayMoreValues = lang.T("… and %d more %s values", "……%[2]s 还有 %[1]d 个值")

	sayAskTitle = lang.T("Ask the cache, not the server", "问缓存，不问服务端")
	sayAskWhy   = lang.T(
		`Every answer below is a map lookup under a read lock: the cache has no client to send a request
with. The http rows show what the Reflector sends: nothing new while we ask, its watch stays open.`,
		`下面每个回答都只是读锁下的一次 map 查找：缓存手里根本没有能发请求的客户端。
http 行显示的是 Reflector 发的请求：我们提问期间一个新请求也没有，它的 watch 一直开着。`)
	sayListerRead = lang.T("The lister read the %q bucket of the namespace index, then matched app=%s on each pod in it.",
		"lister 先读 namespace 索引里 %q 这个桶，再对桶里的每个 Pod 匹配 app=%s。")
	saySameAnswer = lang.T("Same answer from the byLabel index: one bucket, no label matching at all.",
		"byLabel 索引给出同样的答案：只读一个桶，完全不用匹配标签。")
	sayRequestsWhileAnswering = lang.T("%d HTTP request(s) sent while answering.", "回答这些问题期间，发出了 %d 个 HTTP 请求。")

	sayMoveTitle = lang.T("An update moves a pod between buckets", "一次更新把 Pod 从一个桶挪到另一个桶")
	sayMoveWhy   = lang.T(
		`Relabel %s/web-2 from app=web to app=cache on the server. The watch brings the change;
the cache computes the old pod's index values and the new one's, and moves the key.`,
		`在服务端把 %s/web-2 的标签从 app=web 改成 app=cache。watch 带来这个变化；
缓存分别算出旧 Pod 和新 Pod 的索引值，把 key 挪过去。`)

	sayEmptyTitle = lang.T("A delete empties a bucket, and the bucket goes", "删除清空了一个桶，桶也随之消失")
	sayEmptyWhy   = lang.T(
		`Delete %s/worker-1, the only app=worker pod. An empty bucket is removed, so an index
over short-lived values does not keep one empty set per value it ever saw. (Grace period 0:
the pod is bound to a node, and no kubelet will ever confirm a graceful delete.)`,
		`删除 %s/worker-1，它是唯一一个 app=worker 的 Pod。空桶会被删掉，所以建在短期取值上的索引，
不会为见过的每个值都留着一个空集合。（宽限期设为 0：这个 Pod 已经绑定到节点上，
而不会有哪个 kubelet 来确认一次优雅删除。）`)

	// The rows' words.
	sayAddedAgain = lang.T("added a second time: refused", "第二次添加：被拒绝")
	sayOfWhichIn  = lang.T("of which in %s: %s", "其中在 %s 里的：%s")
	sayUnchanged  = lang.T("unchanged: its node did not change", "没变：它的节点没变")
	sayValues     = lang.T("values", "取值")
	sayBefore     = lang.T("before", "修改前")
	sayAfter      = lang.T("after", "修改后")
	sayPods       = lang.T("%d pods", "%d 个 Pod")
	sayWholeState = lang.T("the whole state; the indices rebuilt", "整份状态换掉，索引全部重建")
)
