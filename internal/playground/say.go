package playground

import (
	"fmt"
	"io"

	"informer-from-scratch/internal/lang"
)

// The playground's progress lines (its build, the binaries it uses, a
// restart) are the harness's own: they are said in the language of the
// writer they go to. A writer made with Speaking hears them in its
// language; any other in English, as make test and cmd/playground print
// them.

// speaker is a progress writer that says which language it wants.
type speaker interface{ Language() string }

type speaking struct {
	io.Writer
	l string
}

func (s speaking) Language() string { return s.l }

// Speaking is w, for Options.Progress, with the playground's lines said in
// language l (lang.EN or lang.ZH): a demo's, which knows its learner's.
func Speaking(w io.Writer, l string) io.Writer { return speaking{Writer: w, l: l} }

// languageOf is the language w wants its lines in.
func languageOf(w io.Writer) string {
	if s, ok := w.(speaker); ok {
		return s.Language()
	}
	return lang.EN
}

// say prints t, with args, in the language of progress.
func say(progress io.Writer, t lang.Text, args ...any) {
	fmt.Fprint(progress, t.Sprintf(languageOf(progress), args...))
}

// What the playground says on progress, in both languages.
var (
	sayFirstRun = lang.T("playground: first run on this machine: building %s from source, %s\n",
		"playground：本机第一次运行，正在从源码编译 %s，%s\n")
	sayForServer  = lang.T("so that the demos talk to a real API server", "这样 demo 连的就是一个真正的 API server")
	sayForKubectl = lang.T("so that you can change the playground by hand", "这样你就能手动修改 playground")
	sayAnd        = lang.T(" and ", " 和 ")
	sayOnce       = lang.T("playground: this happens once: the binaries are kept in %s until playground/go.mod or your Go version changes\n",
		"playground：只编译这一次：二进制保存在 %s，直到 playground/go.mod 或你的 Go 版本变了才会重新编译\n")
	sayCost = lang.T("playground: with empty Go caches on 2 cores it takes about %s and %s of memory; set GOFLAGS=-p=1 to use less memory\n",
		"playground：Go 缓存为空时，在双核机器上大约要 %s，内存峰值约 %s；设置 GOFLAGS=-p=1 可以少占些内存\n")
	saySkipBuild = lang.T("playground: to skip this build, point $%s (or $%s) at a kube-apiserver %s and etcd %s you already have, such as envtest's: export %s=$(setup-envtest use -p path %s)\n",
		"playground：想跳过这次编译，可以把 $%s（或 $%s）指向你已有的 kube-apiserver %s 和 etcd %s，比如 envtest 的：export %s=$(setup-envtest use -p path %s)\n")
	sayBuilt       = lang.T("playground: built in %s\n", "playground：编译完成，用时 %s\n")
	sayDownloading = lang.T("playground: step 1 of 2: downloading the modules %s %s from the Go module proxy\n",
		"playground：第 1 步（共 2 步）：从 Go module proxy 下载 %s 所需的 module%s\n")
	sayNeed         = lang.T("need", "")
	sayNeeds        = lang.T("needs", "")
	sayResolved     = lang.T("playground: %d modules downloaded; %d packages to compile (%s elapsed)\n", "playground：已下载 %d 个 module；要编译 %d 个包（已用时 %s）\n")
	sayCompiling    = lang.T("playground: step 2 of 2: compiling and linking (go build uses every core)\n", "playground：第 2 步（共 2 步）：编译并链接（go build 会用满所有 CPU 核）\n")
	sayStatus       = lang.T("playground: %s (%s elapsed)\n", "playground：%s（已用时 %s）\n")
	sayResolving    = lang.T("resolving the package graph", "正在解析包依赖图")
	sayDownloaded   = lang.T("%d modules downloaded, the latest %s", "已下载 %d 个 module，最新的是 %s")
	sayLinking      = lang.T("linking %s", "正在链接 %s")
	sayCompiled     = lang.T("compiled %d of %d packages (%d%%)", "已编译 %d/%d 个包（%d%%）")
	sayPortTaken    = lang.T("playground: a port was taken before etcd or the apiserver could bind it; starting again on other ports\n", "playground：etcd 或 apiserver 还没绑定端口，端口就被占了；换一组端口重新启动\n")
	sayRestarting   = lang.T("playground: apiserver stopped in %s; starting it again\n", "playground：apiserver 已停止，用时 %s；正在重新启动\n")
	sayNotUsing     = lang.T("playground: not using %s: %s; the playground uses its own build\n", "playground：不使用 %s：%s；playground 改用自己编译的二进制\n")
	sayNoDirectory  = lang.T("no such directory", "没有这个目录")
	sayUsing        = lang.T("playground: using %s from %s, not the playground's own build", "playground：使用来自 %[2]s 的 %[1]s，而不是 playground 自己编译的")
	sayKubectlOwn   = lang.T("; %s, so kubectl is the playground's own", "；%s，所以 kubectl 用 playground 自己编译的")
	sayWhat2        = lang.T("kube-apiserver %s and etcd %s", "kube-apiserver %s 和 etcd %s")
	sayWhat3        = lang.T("kube-apiserver %s, etcd %s and kubectl %s", "kube-apiserver %s、etcd %s 和 kubectl %s")
	sayNoBinary     = lang.T("no %s there", "那里没有 %s")
	sayNotAFile     = lang.T("%s there is not a file", "那里的 %s 不是一个文件")
	sayNotExec      = lang.T("%s there is not executable", "那里的 %s 没有执行权限")
	sayUnreadable   = lang.T("cannot read %s's version (%s %s: %s)", "读不出 %s 的版本（%s %s：%s）")
	sayWrongVersion = lang.T("%s there is %s, not %s", "那里的 %s 是 %s，不是 %s")
	sayPrintedNone  = lang.T("printed nothing", "什么也没输出")
	sayPrinted      = lang.T("printed %q", "输出的是 %q")
	saySemicolon    = lang.T("; ", "；")
)
