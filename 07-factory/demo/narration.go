package main

import "informer-from-scratch/internal/lang"

// Everything stage 07's demo says, in English and Chinese side by side:
// the steps, the notes, and the words of the timeline's rows (an object column of words, an
// explanation after a row's protocol). The protocol itself, keys,
// resourceVersions and HTTP lines, is not here: it reads the same in both
// languages.
var (
	sayTitle = lang.T("SharedInformerFactory: one informer per type, shared by the whole program",
		"SharedInformerFactory —— 每种类型一个 informer，整个程序共享")

	sayReadOnlyTitle = lang.T("Read-only on a real cluster", "真实集群上只读")
	sayReadOnlyWhy   = lang.T(
		`The demo lists and watches every namespace and changes nothing, whatever the flags.
It skips the scene, and shows ForResource on deployments instead of a CustomResource.`,
		`demo 在所有 namespace 里 list、watch，不管传了什么 flag，都不做任何修改。
它跳过准备场景，演示 ForResource 时用 deployments，而不是 CustomResource。`)

	saySceneTitle = lang.T("Set the scene", "准备场景")
	saySceneWhy   = lang.T("Pods, deployments and a config map, labelled app and tier.",
		"先建几个 Pod、几个 Deployment 和一个 ConfigMap，都带 app 和 tier 标签。")
	sayScene = lang.T(
		`Namespace %s: pods web-1, web-2 (app=web,tier=front), db-1 (app=db,tier=back);
deployments web (app=web,tier=front), api (app=web,tier=back), db (app=db,tier=back); a config map.`,
		`namespace %s：Pod web-1、web-2（app=web,tier=front），db-1（app=db,tier=back）；
Deployment web（app=web,tier=front）、api（app=web,tier=back）、db（app=db,tier=back）；外加一个 ConfigMap。`)

	sayFactoryTitle = lang.T("Two parts of one program, one factory", "一个程序的两个部分，共用一个 factory")
	sayFactoryWhy   = lang.T(
		`The autoscaler asks the factory for pods and deployments, the dashboard for pods and
config maps. Each registers a handler on the pods informer. The factory keys informers
by Go type, so the second request for *v1.Pod returns the first one's informer.`,
		`autoscaler 向 factory 要 pods 和 deployments，dashboard 要 pods 和 configmaps，
两者都在 pods 的 informer 上注册了一个 handler。factory 按 Go 类型来区分 informer，
所以第二次要 *v1.Pod 时，拿到的就是第一次建好的那个 informer。`)
	sayReplayed = lang.T("%s's pod handler was called for %s: its own replay of the shared cache.",
		"共享缓存为 %s 的 pod handler 单独重放了一遍：%s，每个 Pod 回调一次。")
	sayServed = lang.T("Requests the cluster served, by resource (from the request log):",
		"集群处理的请求，按资源统计（取自请求日志）：")
	sayOneWatch = lang.T(
		`One WATCH per type: a WatchList stream (sendInitialEvents=true) is the list and the watch
in one request. Two parts asked for pods; the cluster saw one request for them.`,
		`每种类型只有一个 WATCH：一个 WatchList 流（sendInitialEvents=true）就是 list 加 watch，
一个请求全包了。两个部分都要了 pods，集群却只收到一个 pods 的请求。`)

	sayNoFactoryTitle = lang.T("The same program without a factory", "同一个程序，不用 factory")
	sayNoFactoryWhy   = lang.T(
		`Each part builds its own informers (NewPodInformer, NewDeploymentInformer, ...): the same
code minus the sharing.`,
		`每个部分自己建 informer（NewPodInformer、NewDeploymentInformer……）：
代码一样，只是不再共享。`)
	sayServedPlain = lang.T("Requests the cluster served, by resource:", "集群处理的请求，按资源统计：")
	sayTwice       = lang.T(
		`Two watches of the same pods, and two caches holding each pod: twice the memory, and
twice the apiserver's work on every change. With N controllers in a process each watching
M types, that is N x M watches instead of M; a factory makes it M, however large N grows.`,
		`同样的 Pod 被 watch 了两次，每个 Pod 也在两个缓存里各存一份：内存翻倍，
每次变化 apiserver 要干的活也翻倍。一个进程里有 N 个控制器、各自 watch M 种类型时，
就是 N x M 个 watch 而不是 M 个；有了 factory，不管 N 多大，都只有 M 个。`)

	sayListerTitle = lang.T("A lister answers from the cache", "lister 从缓存里回答")
	sayListerWhy   = lang.T(
		`factory.Apps().V1().Deployments().Lister() reads the informer's cache: by namespace (the
namespace index's bucket) and by label selector (a match against each object's labels).`,
		`factory.Apps().V1().Deployments().Lister() 读的是 informer 的缓存：先按 namespace 查
（namespace 索引里的一个桶），再按 label selector 过滤（逐个对象匹配标签）。`)
	sayAndMore       = lang.T("… and %d more", "……还有 %d 个")
	sayListed        = lang.T(`Deployments(%q).List(%q): %s.`, `Deployments(%q).List(%q)：%s。`)
	saySentAnswering = lang.T("%s sent while answering.", "回答期间发出了 %s。")

	sayCRTitle = lang.T("A CustomResource through ForResource", "用 ForResource 读 CustomResource")
	sayCRWhy   = lang.T(
		`sample-controller's Foo: a CRD registered through the dynamic client. The clientset has no
Go type for it, so the typed factory cannot serve it; the dynamic factory can, for any
GroupVersionResource, with objects as *unstructured.Unstructured.`,
		`sample-controller 的 Foo：一个通过动态客户端注册的 CRD。clientset 里没有它的 Go 类型，
所以有类型的 factory 提供不了它；动态 factory 可以，任何 GroupVersionResource 都行，
对象以 *unstructured.Unstructured 的形式给出。`)
	sayAnyResourceTitle = lang.T("Any resource through ForResource", "用 ForResource 读任意资源")
	sayAnyResourceWhy   = lang.T(
		`Read-only: no CustomResource is registered here. The dynamic factory reads deployments
instead, as unstructured objects: any resource the server serves works the same way.`,
		`只读：这里不注册 CustomResource。动态 factory 改为读取 deployments，得到的是 unstructured 对象：
服务端提供的任何资源，都能这样读。`)
	sayFromCache    = lang.T("Lister().List(everything): %s, from the cache.", "Lister().List(everything)：%s，都来自缓存。")
	sayDynamicCount = lang.T("Requests of the dynamic factory, by resource:", "动态 factory 发出的请求，按资源统计：")

	sayShutdownTitle = lang.T("Shutdown", "Shutdown：关停")
	sayShutdownWhy   = lang.T(
		`Cancel the context the informers were started with, then Shutdown: it waits until every
informer goroutine has returned. From then on Start does nothing.`,
		`取消启动 informer 时用的 context，再调 Shutdown：它会一直等到每个 informer 的 goroutine
都返回。此后再调 Start 不会有任何效果。`)

	// The request tables.
	sayResource = lang.T("resource", "资源")
	sayHeader   = lang.Verbatim("  %s %5s %6s")
	sayCounts   = lang.Verbatim("  %-14s %5d %6d")
	sayNone     = lang.T("  (none)", "  （没有）")

	// What the notes count, once and many times.
	sayPod         = lang.T("1 pod", "1 个 Pod")
	sayPods        = lang.T("%d pods", "%d 个 Pod")
	sayDeployment  = lang.T("1 deployment", "1 个 Deployment")
	sayDeployments = lang.T("%d deployments", "%d 个 Deployment")
	sayFoo         = lang.T("1 foo", "1 个 Foo")
	sayFoos        = lang.T("%d foos", "%d 个 Foo")
	sayRequest     = lang.T("1 request", "1 个请求")
	sayRequests    = lang.T("%d requests", "%d 个请求")

	// The rows' words.
	sayBuilt          = lang.T("built: the first request for this type", "新建：头一回有人要这个类型")
	saySameInformer   = lang.T("the same informer (the same cache) as before", "还是之前那个 informer（同一份缓存）")
	sayInformers      = lang.T("%d informers", "%d 个 informer")
	sayStartReturns   = lang.T("each runs on its own goroutine; Start returns at once", "各自在自己的 goroutine 上运行；Start 立即返回")
	sayCacheAnswer    = lang.T("the cache's answer, a NotFound like the server's", "这是缓存的回答，和服务端一样是 NotFound")
	sayNotStarted     = lang.T("asked for after Shutdown: not started, %s sent", "Shutdown 之后才要的：没有启动，发出 %s")
	sayTypedFactory   = lang.T("the typed factory knows only its own types", "typed factory 只认识它自己的类型")
	sayDynamicFactory = lang.T("dynamic factory: the informer of this GroupVersionResource", "dynamic factory：这个 GroupVersionResource 的 informer")
	sayNewFoo         = lang.T("a new Foo, through the dynamic informer's watch", "一个新的 Foo，经由 dynamic informer 的 watch 送到")
	sayRegistered     = lang.T("registered and established: the apiserver serves foos", "已注册并生效：apiserver 开始提供 foos")
)
