package webview

import "informer-from-scratch/internal/lang"

// What the web view says in both languages: the help of --addr, the
// errors a learner can cause with --web and --addr, and a press the
// buttons refuse. The page's own labels are in static/app.js; a demo's
// lanes, counters and buttons come with its Config.
var (
	sayAddrFlag     = lang.T("with --web: the page's address, on loopback (port 0: a free one)", "配合 --web 使用：页面的地址，只能是回环地址（端口写 0 表示随便挑一个空闲端口）")
	sayAddrNeedsWeb = lang.T("--addr=%s is where the page listens: it needs --web", "--addr=%s 是页面监听的地址，要和 --web 一起用")
	sayAddrListen   = lang.T("--addr=%s: %w", "--addr=%s：%w")
	sayAddrShape    = lang.T("--addr=%s: want host:port, such as 127.0.0.1:8006: %w", "--addr=%s：要写成 host:port 的形式，比如 127.0.0.1:8006：%w")
	sayAddrLoopback = lang.T("--addr=%s: the page must listen on loopback (127.0.0.1, [::1] or localhost): its buttons change the cluster",
		"--addr=%s：页面只能监听回环地址（127.0.0.1、[::1] 或 localhost），因为它的按钮会改动集群")
	sayButtonsShut = lang.T("the buttons act only between the end of the demo's story and Ctrl-C",
		"按钮只在 demo 讲完之后、按下 Ctrl-C 之前起作用")
)
