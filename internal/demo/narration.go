package demo

import "informer-from-scratch/internal/lang"

// What the harness says around every demo, in both languages: the banner,
// the help, the closing lines and the errors a learner can cause. Each
// stage's own narration is in its demo's narration.go.

// The lines the demos' tests look for: the harness turned to the
// playground, and stopped it.
var (
	SayPlayground = lang.T(
		"Cluster: the embedded playground (a real kube-apiserver and etcd on 127.0.0.1)",
		"集群：内置的 playground（127.0.0.1 上一个真正的 kube-apiserver 加 etcd）")
	SayPlaygroundStopped = lang.T(
		"Playground stopped: apiserver, then etcd; its directory is removed.",
		"playground 已停止：先停 apiserver，再停 etcd；它的目录已删除。")
)

var (
	sayBanner = lang.T("Stage %02d: %s\n", "第 %d 阶段：%s\n")

	sayUsage = lang.T("Usage of %s:\n", "%s 的参数：\n")
	// sayBadFlag is the flag package's own sentence (it names the flag
	// exactly), introduced in Chinese; in English the sentence alone, as
	// the flag package prints it.
	sayBadFlag     = lang.T("%s\n", "命令行有误：%s\n")
	sayFlagSet     = lang.T("stage %02d demo", "第 %d 阶段 demo")
	sayKubeconfig  = lang.T("run against the cluster in this kubeconfig instead of the playground (default $%s; $KUBECONFIG is ignored)", "连接这个 kubeconfig 里的集群，而不是 playground（默认取 $%s；$KUBECONFIG 不会被读取）")
	sayWaitFlag    = lang.T("after the script, keep running (and keep the playground up) until Ctrl-C", "脚本跑完后不退出（playground 也留着），直到按下 Ctrl-C")
	sayLangFlag    = lang.T("the language the demo narrates in: en or zh (default: the locale's, from LC_ALL, LC_MESSAGES or LANG)", "demo 讲解用的语言：en 或 zh（默认跟随 locale，依次看 LC_ALL、LC_MESSAGES、LANG）")
	sayUnexpected  = lang.T("unexpected argument %q: the demo takes only flags, such as --wait (-h lists them)", "多余的参数 %q：demo 只接受 flag，比如 --wait（-h 列出全部）")
	sayNoBreak     = lang.T("\nThis demo has no --break: the demos of stages 06 and 08 take it. For this stage, the workshop guide's module (docs/en/workshop.md, \"Break it\") names the line to change and the test that goes red.\n", "\n这个 demo 没有 --break，第 6 和第 8 阶段的 demo 才有。这一阶段的改法在 workshop 指南对应的模块里（docs/zh/workshop.md 的“改坏它”）：改哪一行，哪个测试会变红。\n")
	sayBadLanguage = lang.T("--lang=%s: the languages are en and zh", "--lang=%s：只支持 en 和 zh")
	sayError       = lang.T("error: %s\n", "错误：%s\n")
	sayErrorAfter  = lang.T("\nerror: %s\n", "\n错误：%s\n")

	sayKubeconfigIgnored = lang.T(
		"         (KUBECONFIG is set, and ignored: for a real cluster pass --kubeconfig or set %s)\n",
		"      （KUBECONFIG 已设置，但不会用它：要连真实集群，请传 --kubeconfig 或设置 %s）\n")
	sayStartAbandoned = lang.T(
		"Playground start abandoned: its processes and directory are removed.",
		"playground 还没启动完就放弃了：它的进程和目录都已清理。")
	sayStarting       = lang.T("starting the playground: %w", "启动 playground 失败：%w")
	sayStopping       = lang.T("stopping the playground: %v\n", "停止 playground 时出错：%v\n")
	sayPlaygroundUp   = lang.T("Playground ready in %s at %s\n", "playground 已就绪，用时 %s，地址 %s\n")
	sayRealCluster    = lang.T("Cluster: a real cluster, %s, given with %s — %s\n", "集群：一个真实集群，%s，由 %s 指定——%s\n")
	sayReadOnly       = lang.T("read-only: this demo makes no change to it", "只读：这个 demo 不会改动它")
	sayOwnNamespace   = lang.T("it writes only in a namespace of its own, which it creates", "只在它自己创建的 namespace 里写")
	sayKubeconfigDesc = lang.T("context %q at %s (from %s)", "context %q，地址 %s（来自 %s）")
	sayReadKubeconfig = lang.T("reading kubeconfig %s: %w", "读取 kubeconfig %s 失败：%w")
	sayBadKubeconfig  = lang.T("kubeconfig %s: %w", "kubeconfig %s 有误：%w")
	sayNoAnswer       = lang.T("cannot reach the cluster at %s: no answer within %s", "连不上 %s 上的集群：%s 内没有应答")
	sayUnreachable    = lang.T("cannot reach the cluster at %s: %w", "连不上 %s 上的集群：%w")

	sayWaiting        = lang.T("\n--wait: the demo stays up until you press Ctrl-C.", "\n--wait：demo 会一直运行，直到你按下 Ctrl-C。")
	saySecondTerminal = lang.T("From a second terminal: export KUBECONFIG=%s\n", "在另一个终端里：export KUBECONFIG=%s\n")
	sayDone           = lang.T("\nDone.", "\n结束。")
	sayInterrupted    = lang.T("\nInterrupted: stopping cleanly.", "\n收到中断，正在有序退出。")

	sayOnlyReads          = lang.T("this demo only reads on a real cluster: it cannot create objects there", "这个 demo 在真实集群上只读，不能在那里创建对象")
	sayCreatingNamespace  = lang.T("creating namespace %s: %w", "创建 namespace %s 失败：%w")
	sayNamespaceNotDelete = lang.T("could not delete namespace %s: %v\n", "删除 namespace %s 失败：%v\n")
	sayNamespaceDeleted   = lang.T("Deleted namespace %s.\n", "已删除 namespace %s。\n")
)
