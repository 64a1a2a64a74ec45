package main

import "informer-from-scratch/internal/lang"

// What stage 08's demo says in both languages. Its steps and notes are
// still English only (StepEN, NoteEN): issue 26 moves them here next.
var sayTitle = lang.T("a controller: sample-controller's Foo on our factory and workqueue",
	"一个控制器 —— sample-controller 的 Foo，跑在我们的 factory 和 workqueue 上")
