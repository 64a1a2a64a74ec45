package main

import "informer-from-scratch/internal/lang"

// What stage 08's demo says in both languages. Its steps and notes are
// still English only (StepEN, NoteEN): issue 26 moves them here next.
var sayTitle = lang.T("a controller: sample-controller's Foo on our factory and workqueue",
	"一个控制器 —— sample-controller 的 Foo，跑在我们的 factory 和 workqueue 上")

// --web (web.go): its flag, and the buttons' answers.
var (
	sayWebFlag = lang.T("serve a live view of the controller in the browser (the URL is printed); after the story the controller keeps running, and the page's buttons act, until Ctrl-C",
		"在浏览器里实时展示控制器（会打印出网址）；讲完之后控制器继续运行，页面上的按钮可以操作，直到按下 Ctrl-C")
	sayCreatedFoo   = lang.T("created Foo %s", "已创建 Foo %s")
	sayScaledFoo    = lang.T("scaled Foo %s to %d", "已把 Foo %s 扩缩到 %d")
	sayDeletedDepl  = lang.T("deleted Deployment %s of Foo %s", "已删除 Foo %[2]s 的 Deployment %[1]s")
	sayDeletedFoo   = lang.T("deleted Foo %s", "已删除 Foo %s")
	sayCreatedFlaky = lang.T("created Foo %s: its Deployment create fails %d times (%s), then succeeds",
		"已创建 Foo %s：它的 Deployment 创建会先失败 %d 次（%s），然后成功")
	sayNoFoo = lang.T("there is no Foo: create one first", "一个 Foo 都没有：先创建一个")
)
