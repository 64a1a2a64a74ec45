package main

import "informer-from-scratch/internal/lang"

// Everything stage 08's demo says, in English and Chinese side by side:
// its flags' help and errors, --break=help, the steps, the notes, the
// metrics table's words, what it refuses on a real cluster, the answers
// of the web view's buttons, and the words of the timeline's rows (an object column of words, an
// explanation after a row's protocol). The protocol itself, keys,
// resourceVersions and HTTP lines, is not here: it reads the same in both
// languages.
var (
	sayTitle = lang.T("a controller: sample-controller's Foo on our factory and workqueue",
		"一个控制器 —— sample-controller 的 Foo，跑在我们的 factory 和 workqueue 上")

	// The flags (main.go, web.go) and their errors (flags.go).
	sayFailFlag = lang.T("how many times one reconcile fails (an injected 500 on its Deployment create) before it succeeds; 0 skips that step",
		"让一次 reconcile 先失败几次再成功（在它的 Deployment 创建上注入 500）；0 表示跳过这一步")
	sayWorkersFlag   = lang.T("how many workers the controller runs", "控制器运行几个 worker")
	sayNamespaceFlag = lang.T("on a real cluster: the namespace of its own the demo creates and writes in",
		"仅用于真实集群：demo 自己创建、只在里面写的 namespace")
	sayBreakFlag = lang.T("take one mechanism away to see what breaks: dirty-set, forget, owner-reference (help: what each does)",
		"拿掉一个机制，看看会坏在哪：dirty-set、forget、owner-reference（help：列出每个开关的作用）")
	sayCleanupFlag = lang.T("on a real cluster: at the end, delete the demo's namespace (and the Foo CRD, if the demo created it and no Foo is left)",
		"仅用于真实集群：结束时删掉 demo 的 namespace（Foo CRD 如果是 demo 创建的，而且一个 Foo 都不剩，也一并删掉）")
	sayWebFlag = lang.T("serve a live view of the controller in the browser (the URL is printed); after the story the controller keeps running, and the page's buttons act, until Ctrl-C",
		"在浏览器里实时展示控制器（会打印出网址）；讲完之后控制器继续运行，页面上的按钮可以操作，直到按下 Ctrl-C")

	sayBadWorkers = lang.T("--workers=%d: the controller needs at least one worker", "--workers=%d：控制器至少要有一个 worker")
	sayBadFail    = lang.T("--fail=%d: give a number of failures from 0 to %d (the %dth retry already waits %v)",
		"--fail=%d：失败次数要在 0 到 %d 之间（第 %d 次重试就已经要等 %v 了）")
	sayOwnerRefNeedsFail = lang.T("--break=owner-reference shows in steps 7 and 8, which --fail=0 skips",
		"--break=owner-reference 要到第 7、8 步才看得出来，而 --fail=0 会跳过这两步")
	sayBadNamespace = lang.T("--namespace=%q: the demo needs a namespace of its own, named as Kubernetes names one: %s",
		"--namespace=%q：demo 要一个自己的 namespace，名字得符合 Kubernetes 的命名规则：%s")
	sayNamespaceOnPlayground = lang.T("--namespace=%s is for a real cluster (--kubeconfig): on the playground the demo writes in namespace %s",
		"--namespace=%s 是给真实集群（--kubeconfig）用的：在 playground 上，demo 写在 namespace %s 里")
	sayCleanupOnPlayground = lang.T("--cleanup is for a real cluster (--kubeconfig): the playground is removed whole when the demo ends",
		"--cleanup 是给真实集群（--kubeconfig）用的：demo 结束时 playground 会整个删掉")
	sayNoBreak = lang.T("no break named %q (--break=help lists them)", "没有叫 %q 的开关（--break=help 会列出全部）")

	// --break=help (breaks.go). Each switch's line is a command and its what.
	sayBreaksIntro = lang.T("What breaks without it: each switch takes one mechanism away from the controller's world (never by default).",
		"拿掉它会坏在哪：每个开关从控制器所在的环境里拿掉一个机制（默认一个都不拿）。")
	sayBreaksOutro = lang.T("Run the demo without --break to see the same steps with the mechanism in place.",
		"不带 --break 再跑一次，就能看到机制完好时同样的几步。")
	sayBreakDirtySet = lang.T("no dedup of queued keys: one Foo reconciled by two workers at once, once per Add",
		"排队的 key 不去重：同一个 Foo 被两个 worker 同时 reconcile，每 Add 一次就 reconcile 一次")
	sayBreakForget = lang.T("no Forget after success: the next failure waits where the last backoff left off",
		"成功后不调 Forget：下一次失败接着上一轮的退避往下等")
	sayBreakOwnerRef = lang.T("no owner reference on the Deployment: deleting its Foo leaves it behind",
		"Deployment 上没有 owner reference：删掉它的 Foo，它还留在原地")

	// The story (script.go).
	saySceneTitle = lang.T("Set the scene", "准备场景")
	saySceneWhy   = lang.T("A namespace, sample-controller's Foo CRD, and the stand-in for kube-controller-manager.",
		"先准备一个 namespace 和 sample-controller 的 Foo CRD，再启动 kube-controller-manager 的替身。")
	sayStandin = lang.T(
		`The playground runs no kube-controller-manager: nothing would ever set a Deployment's status,
nor delete a Foo's Deployment with it. internal/standin plays both parts, and says so on each
of its rows (layer %q): the deployment controller's status, at once, as if every pod started;
and the garbage collector's delete of a Deployment whose owner is gone.`,
		`playground 里没有 kube-controller-manager：没有谁会去设置 Deployment 的 status，
也没有谁会在 Foo 删掉后顺带删掉它的 Deployment。internal/standin 一人分饰两角，并在它的每一行
（layer %q）上注明：一是 deployment controller 的活，立刻写好 status，就当每个 Pod 都起来了；
二是垃圾回收器的活，删掉 owner 已经不在的 Deployment。`)

	sayStartTitle = lang.T("Start the controller", "启动控制器")
	sayStartWhy   = lang.T(
		`controller.NewForConfig, then Run with %d workers: informers of Foos and Deployments
from our factory, a rate-limited workqueue of keys, and the workers. Each row below is one
step of a key's path: handler → workqueue (len: keys waiting; dirty: keys marked, some of them
being processed) → worker → lister (the cache, never the server) → write (the API server).`,
		`先 controller.NewForConfig，再用 %d 个 worker 执行 Run：Foo 和 Deployment 的 informer 来自我们的 factory，
再加一个限速的 key 工作队列和这些 worker。下面每一行是 key 在链路上走的一步：
handler → workqueue（len：排队等着的 key；dirty：被标记的 key，其中有的正在处理）
→ worker → lister（读缓存，从不问服务端）→ write（写 API server）。`)

	sayCreateTitle = lang.T("Create a Foo", "创建一个 Foo")
	sayCreateWhy   = lang.T(
		`Foo example asks for a Deployment example-web with 1 replica. The handler only enqueues the
key; a worker reads the Foo from the lister, finds no Deployment there, and creates it.`,
		`Foo example 要一个 1 副本的 Deployment example-web。handler 只把 key 放进队列；
worker 从 lister 读出这个 Foo，发现那里没有 Deployment，就创建一个。`)

	sayScaleTitle = lang.T("Scale the Foo", "扩缩这个 Foo")
	sayScaleWhy   = lang.T(
		`spec.replicas 1 → 3. The worker compares the Foo with its Deployment, both from the listers,
and updates a copy of the Deployment: a lister's object belongs to the cache.`,
		`spec.replicas 1 → 3。worker 比较 Foo 和它的 Deployment（两个都从 lister 读），
然后更新 Deployment 的一份副本，因为 lister 给的对象属于缓存，不能直接改。`)

	sayDeleteDeplTitle = lang.T("Delete the Deployment behind the controller's back", "绕过控制器删掉 Deployment")
	sayDeleteDeplWhy   = lang.T(
		`The Deployment informer's OnDelete maps example-web to its Foo through the owner reference and
enqueues example; the reconcile finds no Deployment and creates it again.`,
		`Deployment informer 的 OnDelete 通过 owner reference 找到 example-web 所属的 Foo，
把 example 放进队列；reconcile 发现 Deployment 没了，就重新创建。`)

	sayEditTitle = lang.T("Edit the Deployment by hand", "手动修改 Deployment")
	sayEditWhy   = lang.T(
		`spec.replicas 3 → 5 on the Deployment itself. The Foo says 3; the reconcile does not care who
changed what, only that the two differ, and writes 3 back.`,
		`直接把 Deployment 的 spec.replicas 从 3 改成 5。Foo 里写的是 3；reconcile 不管是谁改了什么，
只看两边不一致，于是把 3 写回去。`)

	sayFailTitle = lang.T("A reconcile that fails %d times", "reconcile 连续失败 %d 次")
	sayFailWhy   = lang.T(
		`--fail=%d: the demo's transport answers the next %d Deployment creates with a 500. Each
failure re-queues the key with AddRateLimited: the default controller rate limiter's per-item
backoff doubles the wait (5ms, 10ms, 20ms, …) until a reconcile succeeds and Forget resets it.`,
		`--fail=%d：demo 的 transport 对接下来 %d 次 Deployment 创建都回 500。每次失败，
key 都用 AddRateLimited 重新入队：默认控制器限速器按 key 退避，等待时间逐次翻倍（5ms、10ms、20ms……），
直到某次 reconcile 成功，Forget 把计数清零。`)
	sayWaited = lang.T(
		`Foo flaky waited %s between its attempts; then it succeeded and was forgotten:
its next failure would wait 5ms again.`,
		`Foo flaky 在几次尝试之间依次等了 %s；然后成功了，也被 Forget 了，
所以它下一次失败又会从 5ms 等起。`)
	// sayListSep joins a list inside a sentence (the delays).
	sayListSep = lang.T(", ", "、")

	sayDeleteFooTitle = lang.T("Delete a Foo", "删除一个 Foo")
	sayDeleteFooWhy   = lang.T(
		`The controller does nothing: the Deployment's owner reference names the Foo, and
%s deletes what the Foo owned. The Deployment's OnDelete
finds no Foo in the cache and is ignored.`,
		`控制器什么也不做：Deployment 的 owner reference 指向这个 Foo，
%s会删掉这个 Foo 名下的对象。Deployment 的 OnDelete
在缓存里找不到 Foo，就被忽略了。`)
	sayGarbageCollector = lang.T("the garbage collector", "垃圾回收器")
	sayStandinAsGC      = lang.T("the stand-in, as the garbage collector,", "替身（扮演垃圾回收器）")

	sayShutdownTitle = lang.T("Shut down with a reconcile in flight", "带着一个进行中的 reconcile 关停")
	sayShutdownWhy   = lang.T(
		`Scale the Foo to 2 with the next Deployment write held back for a second, and cancel the
controller's context as soon as a worker takes the key. The queue stops taking keys; the drain
waits for the reconcile to finish its write; then the informers stop.`,
		`把 Foo 扩缩到 2，同时让下一次 Deployment 写入晚一秒发出；一有 worker 拿到这个 key，
就取消控制器的 context。队列不再接收 key；drain 等 reconcile 把写入做完；
然后 informer 停下。`)
	sayDrained = lang.T("The reconcile in flight finished its write before the drain ended; Run returned nil.",
		"进行中的 reconcile 在 drain 结束前写完了；Run 返回 nil。")
	sayDrainCut = lang.T("The drain ended before the reconcile's write (it was cut short): see the rows above.",
		"drain 在 reconcile 写完之前就结束了（写入被打断），见上面几行。")
	sayInterrupted = lang.T("Ctrl-C: the controller stopped taking keys, drained and stopped its informers (the rows above); the rest of the story is skipped.",
		"Ctrl-C：控制器不再接收 key，drain 完毕，停掉了它的 informer（见上面几行）；后面的步骤都跳过。")

	sayMetricsTitle = lang.T("The workqueue's metrics", "workqueue 的指标")
	sayMetricsWhy   = lang.T("What a controller manager exports to Prometheus, from our queue's MetricsProvider.",
		"controller manager 导出给 Prometheus 的那些指标，取自我们队列的 MetricsProvider。")

	// The metrics table (metrics.go): a header, then a row per metric,
	// whose last column says what it counts.
	sayMetricsHeader = lang.T("Metrics of the workqueue %q (name=%q on each), from the queue's MetricsProvider:",
		"workqueue %q 的指标（每个都带 name=%q），取自队列的 MetricsProvider：")
	sayMetricRow   = lang.Verbatim("  %-44s %-30s %s")
	sayAddsWhat    = lang.T("Adds that marked a key (not those that found it marked)", "标记了 key 的 Add（key 已被标记时的 Add 不算）")
	sayDepthWhat   = lang.T("keys marked and not yet handed out (the dirty set)", "已标记、还没交出去的 key（即 dirty 集合）")
	sayLatencyWhat = lang.T("from the Add that marked a key to its Get", "从标记 key 的那次 Add 到它被 Get")
	sayWorkWhat    = lang.T("from Get to Done: the reconciles", "从 Get 到 Done，也就是 reconcile 本身")
	sayRetriesWhat = lang.T("AddRateLimited (and AddAfter) calls", "AddRateLimited（以及 AddAfter）的调用次数")
	sayUnfinished  = lang.T("work in flight (set every 500ms)", "进行中的工作（每 500ms 更新一次）")
	sayLongestWhat = lang.T("the longest of it", "其中最久的一项")

	// The steps that show what the --break switches take away (breaksteps.go).
	sayHeldTitle = lang.T("Change a Foo while a worker holds its key", "worker 拿着 key 时修改 Foo")
	sayHeldWhy   = lang.T(
		`Scale example to 4 with the Deployment write held back a second; while a worker holds the key,
scale it to 5, then back to 3. Each change is an OnUpdate and an Add. The dirty set marks the
key once, and the processing set keeps it out of the FIFO until the worker's Done, which puts
it back once: one more reconcile, by one worker, of the newest state.`,
		`把 example 扩缩到 4，同时让 Deployment 写入晚一秒发出；趁 worker 还拿着这个 key，
再把它扩到 5，然后改回 3。每次修改都是一次 OnUpdate 加一次 Add。dirty 集合只把这个 key 标记一次，
processing 集合让它在 worker 调 Done 之前进不了 FIFO，Done 再把它放回队列一次。
结果只多一次 reconcile，由一个 worker 来做，读到的是最新状态。`)
	sayHeldBreak = lang.T("--break=dirty-set: every Add is a new item of the queue. Watch the second worker.",
		"--break=dirty-set：每次 Add 都是队列里的一个新元素。注意看第二个 worker。")
	// sayHeldOnce's numbers are the run's (overlaps): the Adds while a
	// worker held the key, the holds they came in and how many each, the
	// Adds that found the key already dirty, the Dones that put it back,
	// and the reconciles.
	sayHeldOnce = lang.T(
		`%d Adds came while a worker held %s, %s. The first Add of each hold put the key into the
dirty set; the other %d found it there and changed nothing, so the key never waited twice
(len=0). After each hold, Done put it back once, %d times in all: %d reconciles, never two at once.`,
		`worker 持有 %[2]s 期间来了 %[1]d 次 Add，%[3]s。每次持有中的第一次 Add 把 key 放进 dirty 集合，
其余 %[4]d 次发现它已经在里面，什么也不做，所以这个 key 从未在队列里出现两次（len=0）。
每次持有结束后，Done 都把它放回队列一次，共 %[5]d 次：总共 %[6]d 次 reconcile，从未有两个同时进行。`)
	sayOneHold   = lang.T("all in one hold", "都在同一次持有期间")
	sayHolds     = lang.T("in %d holds (%s)", "分布在 %d 次持有中（依次 %s 次）")
	sayHeldTwice = lang.T(
		`--break=dirty-set: worker %d took it, while worker %d held %s: two reconciles of one Foo at once,
each reading the listers and each writing. %d Adds cost %d reconciles; writes refused as
conflicts: %d. client-go's Typed.Add keeps a key in dirty once, and out of the FIFO while
a worker holds it.`,
		`--break=dirty-set：worker %d 拿到了它，而 worker %d 还拿着 %s：同一个 Foo 同时有两个 reconcile，
各读各的 lister，各写各的。%d 次 Add 换来 %d 次 reconcile；因冲突被拒的写入有 %d 次。
client-go 的 Typed.Add 让一个 key 在 dirty 里只出现一次，而且只要有 worker 拿着它，
就不让它进 FIFO。`)
	sayShowIt = lang.T("Show it: delete flaky-web by hand, with the next Deployment create failing once.",
		"验证一下：手动删掉 flaky-web，并让下一次 Deployment 创建失败一次。")
	sayForgetBreak = lang.T(
		`--break=forget: requeue %d, back in %v. The limiter still counted the failures before the
success: every key that ever failed waits longer each time, up to 1000s, and is never forgotten.`,
		`--break=forget：第 %d 次重新入队，%v 后回来。限速器还记着成功之前的那些失败：
凡是失败过的 key，每次都等得更久，最多 1000s，而且永远不会被忘掉。`)
	sayForgotten = lang.T("requeue %d, back in %v: Forget after the success had reset flaky's count.",
		"第 %d 次重新入队，%v 后回来：成功之后的 Forget 已经把 flaky 的计数清零了。")
	sayOwnerlessRefused = lang.T(
		`--break=owner-reference: flaky-web was created without an owner reference. Nothing says it
is flaky's: its events map to no Foo ("not controlled by a Foo"), and every reconcile refuses
it (IsControlledBy) and retries, ever later. Now delete the Foo.`,
		`--break=owner-reference：flaky-web 创建时没有 owner reference，没有任何东西表明它属于 flaky。
它的事件对应不到任何 Foo（“不受任何 Foo 控制”），每次 reconcile 都拒绝它（IsControlledBy）
并重试，一次比一次晚。现在删掉这个 Foo。`)
	sayLeftBehind = lang.T(
		`--break=owner-reference: the garbage collector deletes a Deployment whose owner is gone; this
one names no owner, so no one will ever delete it. sample-controller's newDeployment sets it
with metav1.NewControllerRef.`,
		`--break=owner-reference：垃圾回收器删的是 owner 已经不在的 Deployment；这一个根本没写 owner，
所以永远不会有人删它。sample-controller 的 newDeployment 用 metav1.NewControllerRef
设置 owner reference。`)

	// A real cluster (realcluster.go).
	sayRealTitle = lang.T("A real cluster: a namespace of its own", "真实集群：一个自己的 namespace")
	sayRealWhy   = lang.T(
		`The demo writes only in namespace %s, which it creates and labels %s=%s.
It refuses a namespace or a Foo CRD it did not create. The real deployment controller and
garbage collector run here: no stand-in.`,
		`demo 只在 namespace %s 里写，这个 namespace 由它创建，并打上 label %s=%s。
不是它创建的 namespace 或 Foo CRD，它一概拒绝。这里跑的是真正的 deployment controller
和垃圾回收器，不需要替身。`)
	sayReadingCRD = lang.T("reading CRD %s: %w", "读取 CRD %s 失败：%w")
	sayCRDNotOurs = lang.T("refusing to run: CRD %s exists and was not created by this demo (another sample-controller may be running, and would reconcile the demo's Foos too); the demo never replaces it",
		"拒绝运行：CRD %s 已经存在，而且不是这个 demo 创建的（可能有另一个 sample-controller 在跑，它也会去 reconcile demo 的 Foo）；demo 从不替换它")
	sayCRDSchema = lang.T("refusing to run: CRD %s exists with another schema than this demo's; delete it first if it is a leftover of an older version of the demo",
		"拒绝运行：CRD %s 已经存在，但 schema 和这个 demo 的不同；如果它是旧版 demo 留下的，请先删掉它")
	sayReadingNamespace = lang.T("reading namespace %s: %w", "读取 namespace %s 失败：%w")
	sayNamespaceNotOurs = lang.T("refusing to run: namespace %s exists and was not created by this demo (no label %s=%s); choose another with --namespace",
		"拒绝运行：namespace %s 已经存在，而且不是这个 demo 创建的（没有 label %s=%s）；请用 --namespace 换一个")
	sayForeignFoo = lang.T("refusing to run: namespace %s holds Foo %s, which this demo did not create",
		"拒绝运行：namespace %s 里有 Foo %s，它不是这个 demo 创建的")
	sayForeignDeployment = lang.T("refusing to run: namespace %s holds Deployment %s, which no Foo of this demo controls",
		"拒绝运行：namespace %s 里有 Deployment %s，它不受这个 demo 的任何 Foo 控制")
	sayCreatingNamespace = lang.T("creating namespace %s: %w", "创建 namespace %s 失败：%w")
	sayLeftoversStay     = lang.T("the garbage collector did not delete the Deployments left in %s within %v",
		"%s 里遗留的 Deployment，垃圾回收器在 %v 内没有删掉")
	sayDeletingNamespace = lang.T("deleting namespace %s: %w", "删除 namespace %s 失败：%w")
	sayCleanupTitle      = lang.T("Clean up", "清理")
	sayTheyStay          = lang.T(
		`Namespace %s and CRD %s stay, for kubectl; the next run reuses them.
Run with --cleanup to delete them.`,
		`namespace %s 和 CRD %s 都留着，方便用 kubectl 查看；下次运行会接着用。
要删掉它们，加上 --cleanup 再跑一次。`)
	sayCRDStays = lang.T("CRD %s stays: Foo %s/%s still uses it.", "CRD %s 保留：Foo %s/%s 还在用它。")

	// --web (web.go): the notes, the page's step, and the buttons' answers.
	sayWebView = lang.T("Web view: %s (open it in a browser; its buttons act once the story is over)",
		"Web 视图：%s（用浏览器打开；讲完之后页面上的按钮才起作用）")
	sayPageTitle = lang.T("The page's turn", "轮到页面了")
	sayPageWhy   = lang.T(
		`The controller keeps running: the page's buttons create, scale and delete Foos, delete a
Deployment behind its back, and make a reconcile fail. Press Ctrl-C to shut it down.`,
		`控制器继续运行：页面上的按钮可以创建、扩缩、删除 Foo，绕过控制器删掉 Deployment，
还能让一次 reconcile 失败。按 Ctrl-C 关停它。`)
	sayWebStaysUp = lang.T("--web: the controller keeps running and the page's buttons act, until you press Ctrl-C: %s",
		"--web：控制器继续运行，页面上的按钮可以操作，直到你按下 Ctrl-C：%s")
	sayWebError = lang.T("web view: %v", "Web 视图出错：%v")

	sayCreatedFoo   = lang.T("created Foo %s", "已创建 Foo %s")
	sayScaledFoo    = lang.T("scaled Foo %s to %d", "已把 Foo %s 扩缩到 %d")
	sayDeletedDepl  = lang.T("deleted Deployment %s of Foo %s", "已删除 Deployment %s（属于 Foo %s）")
	sayDeletedFoo   = lang.T("deleted Foo %s", "已删除 Foo %s")
	sayCreatedFlaky = lang.T("created Foo %s: its Deployment create fails %d times (%s), then succeeds",
		"已创建 Foo %s：它的 Deployment 创建会先失败 %d 次（%s），然后成功")
	sayNoFoo = lang.T("there is no Foo: create one first", "一个 Foo 都没有：先创建一个")

	// The rows' words (observe.go): rowWords says observe's fixed English
	// Details, by the Detail; the others hold a number or a name.
	rowWords = map[string]lang.Text{
		"dropped: the queue is shutting down (predicted)": lang.T("dropped: the queue is shutting down (predicted)",
			"被丢弃：队列正在关停（预测）"),
		"held by a worker: queued again at its Done (predicted)": lang.T("held by a worker: queued again at its Done (predicted)",
			"worker 正拿着它：等它 Done 时再入队（预测）"),
		"Foo gone: nothing to enqueue (the garbage collector deletes its Deployment)": lang.T(
			"Foo gone: nothing to enqueue (the garbage collector deletes its Deployment)",
			"Foo 已删除：无需入队（它的 Deployment 由垃圾回收器删除）"),
		"not controlled by a Foo: ignored":             lang.T("not controlled by a Foo: ignored", "不受任何 Foo 控制：忽略"),
		"orphan: its Foo is not in the cache, ignored": lang.T("orphan: its Foo is not in the cache, ignored", "孤儿：缓存里没有它的 Foo，忽略"),
		"shutting down: not reconciled":                lang.T("shutting down: not reconciled", "正在关停：不做 reconcile"),
		"informers of Foos and Deployments started":    lang.T("informers of Foos and Deployments started", "Foo 和 Deployment 的 informer 已启动"),
		"caches synced, every existing Foo queued":     lang.T("caches synced, every existing Foo queued", "缓存已同步，现有的每个 Foo 都已入队"),
		"stop taking keys; wait for the reconciles in flight": lang.T("stop taking keys; wait for the reconciles in flight",
			"不再接收 key；等进行中的 reconcile 做完"),
		"no reconcile in flight": lang.T("no reconcile in flight", "没有进行中的 reconcile 了"),
		"workers returned":       lang.T("workers returned", "worker 都已返回"),
		"informers stopped":      lang.T("informers stopped", "informer 都已停止"),
	}
	sayWorkersStarted        = lang.T("%d workers started", "%d 个 worker 已启动")
	sayDrainTimedOut         = lang.T("reconciles still running after %s: cancelled", "%s 后还有 reconcile 在跑：取消它们")
	sayControlledBy          = lang.T("controlled by Foo %s", "受 Foo %s 控制")
	sayNotAnObject           = lang.T("got %s: not an object", "收到 %s：不是一个对象")
	sayBackIn                = lang.T("back in %v", "%v 后重新入队")
	sayNotWritten            = lang.T("not written", "写入失败")
	sayGarbageCollected      = lang.T("its owner, Foo %s, is gone: the garbage collector's part", "它的 owner Foo %s 已经没了：这是垃圾回收器的活")
	sayDeploymentControllers = lang.T("the deployment controller's part", "这是 deployment controller 的活")
	sayByHand                = lang.T("by hand", "手动")
	sayControllersContext    = lang.T("the controller's context", "控制器的 context")
	sayAsCtrlC               = lang.T("as Ctrl-C would", "就像按了 Ctrl-C")
	sayRegisteredCRD         = lang.T("registered and established: the apiserver serves foos", "已注册并生效：apiserver 开始提供 foos")
	sayStillThere            = lang.T("still there 2s later", "2s 后还在")
	sayRegisteredOurs        = lang.T("registered, annotated as the demo's", "已注册，并注明属于这个 demo")
	sayReused                = lang.T("the demo's own, from an earlier run: reused", "是这个 demo 以前运行时留下的：直接复用")
	sayLabelledOurs          = lang.T("labelled as the demo's", "打上了属于这个 demo 的 label")
	sayLeftEarlier           = lang.T("left by an earlier run", "以前运行时留下的")
	sayCleanupCRD            = lang.T("the demo's, and no Foo is left", "它属于这个 demo，而且一个 Foo 都不剩了")
)
