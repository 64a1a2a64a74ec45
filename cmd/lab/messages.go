package main

import "informer-from-scratch/internal/lang"

// messages are what the lab command says, in the learner's language. The
// graded tests' own output (Go, the scenario names, -client-go +ours) is
// the same in both.
type messages struct {
	lab, doesNotCompile, didNotRun, casesFail, moreLines, timedOut, hung, repeatedLogs, allPass, notYet string

	started, alreadyStarted, dirty, notGit, notStarted, restored, nothingToRestore string
	hintHeader, noMoreHints, noHints, gradingSolution                              string
	listHeader, listSolution, listStarted, listFooter                              string
}

var english = messages{
	lab:            "Lab",
	doesNotCompile: "Your code does not compile yet; the compiler says:",
	didNotRun:      "did not run (a panic or a timeout before it? see above)",
	casesFail:      "%d of %d cases fail",
	moreLines:      "%d more lines (run the go test command below to see all)",
	timedOut:       "The tests timed out: a call that should return never did (a loop that never ends? a wait for something that never comes? a lock taken twice?).",
	hung:           "still running when the check timed out (it hung here)",
	repeatedLogs:   "… (%d more log lines that repeat the ones above, left out)",
	allPass:        "All %d graded tests pass: lab %d is done. Compare with the solution: make lab-solution %d (your code is kept).",
	notYet:         "Not yet: %d of %d graded tests fail. Fix the first failure above; stuck? make lab-hint %d.",

	started: "Lab %02d started: %s\n\nThese functions are now yours to write (their bodies are stubs with a TODO):\n%s\n" +
		"Read the chapter's lab section first (docs/en/%s). Then:\n" +
		"  make lab-check %d      grade your code against client-go (the stage's differential tests)\n" +
		"  make lab-hint %d       one hint more each time\n" +
		"  make lab-solution %d   put the solution back (your code is saved first)\n",
	alreadyStarted:   "Lab %02d is already started (%s). make lab-check %d grades it; make lab-solution %d ends it.",
	dirty:            "Lab %02d rewrites %s, which have changes git does not have:\n%s\nCommit or stash them first (git stash), so that nothing you wrote is lost.",
	notGit:           "(This is not a git checkout: the lab cannot check for your own changes to these files. The solution is saved in %s.)",
	notStarted:       "Lab %02d is not started: make lab-start %d first.",
	restored:         "Lab %02d ended: the solution is back in %s.\nYour code is saved in %s.",
	nothingToRestore: "Lab %02d is not started: the solution is already in place.",
	hintHeader:       "Hint %d of %d for lab %02d",
	noMoreHints:      "That was the last hint. The solution is one command away: make lab-solution %d (your code is saved first).",
	noHints:          "The chapter %s has no hints for this lab.",
	gradingSolution:  "(Lab %02d is not started, so this grades the solution as it stands.)",
	listHeader:       "Labs: write a layer yourself, and client-go grades it.",
	listSolution:     "solution in place",
	listStarted:      "started %s, %d hints seen",
	listFooter:       "make lab-start N to begin; each chapter's Lab section says what to write.",
}

var chinese = messages{
	lab:            "实验",
	doesNotCompile: "代码还编译不过，编译器的报错：",
	didNotRun:      "没有运行（前面有 panic 或超时？看上面）",
	casesFail:      "%d / %d 个用例失败",
	moreLines:      "还有 %d 行（运行下面的 go test 命令看全部）",
	timedOut:       "测试超时：某个本该返回的调用一直没有返回（循环停不下来？在等一个永远不会来的东西？同一把锁拿了两次？）。",
	hung:           "检查超时的时候它还在跑（卡在了这里）",
	repeatedLogs:   "……（另有 %d 行与上面重复的日志，已省略）",
	allPass:        "%d 个评分测试全部通过：实验 %d 完成。和参考实现对照：make lab-solution %d（你的代码会先保存）。",
	notYet:         "还没完成：%d / %d 个评分测试失败。先修上面第一个失败；卡住了就 make lab-hint %d。",

	started: "实验 %02d 开始：%s\n\n下面这些函数现在由你来写（函数体已换成带 TODO 的桩）：\n%s\n" +
		"先读章节里的实验一节（docs/zh/%s），然后：\n" +
		"  make lab-check %d      用 client-go 给你的代码评分（本阶段的对照测试）\n" +
		"  make lab-hint %d       每次多给一条提示\n" +
		"  make lab-solution %d   恢复参考实现（先保存你的代码）\n",
	alreadyStarted:   "实验 %02d 已经开始了（%s）。make lab-check %d 评分；make lab-solution %d 结束它。",
	dirty:            "实验 %02d 会改写 %s，而它们有 git 里没有的改动：\n%s\n请先提交或暂存（git stash），免得你写的东西丢失。",
	notGit:           "（这里不是 git 仓库，实验没法检查你是否改过这些文件。参考实现保存在 %s。）",
	notStarted:       "实验 %02d 还没开始：先运行 make lab-start %d。",
	restored:         "实验 %02d 结束：参考实现已经放回 %s。\n你的代码保存在 %s。",
	nothingToRestore: "实验 %02d 没有开始，参考实现本来就在。",
	hintHeader:       "实验 %02[3]d 的第 %[1]d / %[2]d 条提示",
	noMoreHints:      "这是最后一条提示了。参考实现只差一条命令：make lab-solution %d（会先保存你的代码）。",
	noHints:          "章节 %s 里没有这个实验的提示。",
	gradingSolution:  "（实验 %02d 没有开始，所以这里评的是现有的参考实现。）",
	listHeader:       "实验：自己写出一层，由 client-go 来评分。",
	listSolution:     "参考实现在位",
	listStarted:      "%s 开始，已看 %d 条提示",
	listFooter:       "make lab-start N 开始；每章的实验一节说明要写什么。",
}

func messagesFor(l string) messages {
	if l == lang.ZH {
		return chinese
	}
	return english
}
