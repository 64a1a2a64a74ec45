package main

import "informer-from-scratch/internal/lang"

// messages are what the lab command says, in the learner's language. The
// graded tests' own output (Go, the scenario names, -client-go +ours) is
// the same in both.
type messages struct {
	lab, doesNotCompile, didNotRun, casesFail, moreLines, timedOut, hung, repeatedLogs, allPass, notYet string
	allPassRaced, notYetNotRun                                                                          string

	started, alreadyStarted, dirty, notGit, notStarted, restored, nothingToRestore string
	hintHeader, noMoreHints, hintNotStarted, hintMenu, hintMenuLine, noSuchFunc    string
	gradingSolution, raceFails, thenRace                                           string
	diffCurrent, diffAttempt, diffNothing, diffUnparsed, diffSolution, diffYours   string
	diffSame, wrongHeader, wrongFooter, wrongWhileStarted, noSuchWrong             string
	listHeader, listSolution, listStarted, listFooter                              string
}

var english = messages{
	lab:            "Lab",
	doesNotCompile: "Your code does not compile yet; the compiler says:",
	didNotRun:      "did not run: a test before it panicked or hung, and go test stopped there (its panic is in this report)",
	casesFail:      "%d of %d cases fail",
	moreLines:      "%d more lines (run the go test command below to see all)",
	timedOut:       "The tests timed out: a call that should return never did (a loop that never ends? a wait for something that never comes? a lock taken twice?).",
	hung:           "still running when the check timed out (it hung here)",
	repeatedLogs:   "… (%d more log lines that repeat the ones above, left out)",
	allPass:        "All %d graded tests pass: lab %d is done. make lab-solution %[2]d puts the solution back and keeps your code; make lab-diff %[2]d then shows the two side by side.",
	notYet:         "Not yet: %d of %d graded tests fail. Fix the first failure above; stuck? make lab-hint %d.",
	allPassRaced:   "All %d graded tests pass, and again under the race detector: lab %d is done. make lab-solution %[2]d puts the solution back and keeps your code; make lab-diff %[2]d then shows the two side by side.",
	notYetNotRun:   "Not yet: %d of %d graded tests fail, and %d did not run because a panic or a hang stopped go test: fix that one first; stuck? make lab-hint %d.",

	started: "Lab %02d started: %s\n\nThese functions are now yours to write (their bodies are stubs with a TODO):\n%s\n" +
		"Read the lab's page first (docs/en/%s): what to read before you start, and each function's contract.\n" +
		"Then:\n" +
		"  make lab-check %d      grade your code against client-go (the stage's differential tests)\n" +
		"  make lab-hint %d       hints, one function and one step at a time\n" +
		"  make lab-solution %d   put the solution back (your code is saved first)\n",
	alreadyStarted:    "Lab %02d is already started (%s). make lab-check %d grades it; make lab-solution %d ends it.",
	dirty:             "Lab %02d rewrites %s, which have changes git does not have:\n%s\nCommit or stash them first (git stash), so that nothing you wrote is lost.",
	notGit:            "(This is not a git checkout: the lab cannot check for your own changes to these files. The solution is saved in %s.)",
	notStarted:        "Lab %02d is not started: make lab-start %d first.",
	restored:          "Lab %02d ended: the solution is back in %s.\nYour code is saved in %s;\nmake lab-diff %d shows it beside the solution.",
	nothingToRestore:  "Lab %02d is not started: the solution is already in place.",
	hintHeader:        "Hint %d of %d for %s (lab %02d)",
	noMoreHints:       "That was the last hint for it. The solution is one command away: make lab-solution %d (your code is saved first).",
	hintNotStarted:    "(Lab %02d is not started, so the hints you have seen are not counted: this is the first one again next time.)",
	hintMenu:          "Lab %02d has a ladder of hints for each function, from a nudge to the steps. Ask for the one you are stuck on:",
	hintMenuLine:      "%d of %d seen",
	noSuchFunc:        "lab %d has no function %q: its functions are %s",
	gradingSolution:   "(Lab %02d is not started, so this grades the solution as it stands.)",
	raceFails:         "Your code passes the graded tests, but not under the race detector (go test -race): two goroutines touch the same memory without a lock between them.",
	thenRace:          ", then again with -race once it passes",
	diffCurrent:       "Lab %02d: your code so far (+) beside the solution (-), function by function:",
	diffAttempt:       "Lab %02d: your last attempt (+), saved in %s, beside the solution (-):",
	diffNothing:       "Lab %02d has no attempt to compare yet: make lab-start %d, write, then make lab-solution.",
	diffUnparsed:      "%s does not parse (%v): compare it by hand.",
	diffSolution:      "solution",
	diffYours:         "yours",
	diffSame:          "Your code is the solution's, line for line.",
	wrongHeader:       "Lab %02d: %d wrong answers the grader must reject (make test checks it does):",
	wrongFooter:       "make lab-wrong %d NAME shows what one changes and grades it, without touching your files: guess what the check will say first.",
	wrongWhileStarted: "lab %d is started, and a wrong answer is shown beside the solution's lines: end the lab first (make lab-solution %d)",
	noSuchWrong:       "lab %d has no wrong answer %q (make lab-wrong %d lists them)",
	listHeader:        "Labs: write a layer yourself, and client-go grades it.",
	listSolution:      "solution in place",
	listStarted:       "started %s, %d hints seen",
	listFooter:        "make lab-start N to begin; each lab's page (docs/en/labs/) says what to read and what to write.",
}

var chinese = messages{
	lab:            "实验",
	doesNotCompile: "代码还编译不过，编译器的报错：",
	didNotRun:      "没有运行：在它之前有测试 panic 或卡住了，go test 就停在那里（panic 的内容在本报告里）",
	casesFail:      "%d / %d 个用例失败",
	moreLines:      "还有 %d 行（运行下面的 go test 命令看全部）",
	timedOut:       "测试超时：某个本该返回的调用一直没有返回（循环停不下来？在等一个永远不会来的东西？同一把锁拿了两次？）。",
	hung:           "检查超时的时候它还在跑（卡在了这里）",
	repeatedLogs:   "……（另有 %d 行与上面重复的日志，已省略）",
	allPass:        "%d 个评分测试全部通过：实验 %d 完成。make lab-solution %[2]d 会放回参考实现并保存你的代码，之后 make lab-diff %[2]d 把两者并排对照。",
	notYet:         "还没完成：%d / %d 个评分测试失败。先修上面第一个失败；卡住了就 make lab-hint %d。",
	allPassRaced:   "%d 个评分测试全部通过，在 race detector 下也通过了：实验 %d 完成。make lab-solution %[2]d 会放回参考实现并保存你的代码，之后 make lab-diff %[2]d 把两者并排对照。",
	notYetNotRun:   "还没完成：%d / %d 个评分测试失败，另有 %d 个因为 panic 或卡住让 go test 停下而没有运行：先修这个；卡住了就 make lab-hint %d。",

	started: "实验 %02d 开始：%s\n\n下面这些函数现在由你来写（函数体已换成带 TODO 的桩）：\n%s\n" +
		"先读实验页（docs/zh/%s）：开始前要读哪些内容，以及每个函数的契约。\n" +
		"然后：\n" +
		"  make lab-check %d      用 client-go 给你的代码评分（本阶段的对照测试）\n" +
		"  make lab-hint %d       提示：按函数给，一次只多给一步\n" +
		"  make lab-solution %d   恢复参考实现（先保存你的代码）\n",
	alreadyStarted:    "实验 %02d 已经开始了（%s）。make lab-check %d 评分；make lab-solution %d 结束它。",
	dirty:             "实验 %02d 会改写 %s，而它们有 git 里没有的改动：\n%s\n请先提交或暂存（git stash），免得你写的东西丢失。",
	notGit:            "（这里不是 git 仓库，实验没法检查你是否改过这些文件。参考实现保存在 %s。）",
	notStarted:        "实验 %02d 还没开始：先运行 make lab-start %d。",
	restored:          "实验 %02d 结束：参考实现已经放回 %s。\n你的代码保存在 %s；\nmake lab-diff %d 可以把它和参考实现对照着看。",
	nothingToRestore:  "实验 %02d 没有开始，参考实现本来就在。",
	hintHeader:        "实验 %02[4]d · %[3]s 的第 %[1]d / %[2]d 条提示",
	noMoreHints:       "这是它的最后一条提示了。参考实现只差一条命令：make lab-solution %d（会先保存你的代码）。",
	hintNotStarted:    "（实验 %02d 还没开始，看过的提示不会记下来：下次还是从第一条开始。）",
	hintMenu:          "实验 %02d 的每个函数都有自己的一串提示，从点一下方向到具体步骤。卡在哪个函数，就要哪个函数的：",
	hintMenuLine:      "已看 %d / %d 条",
	noSuchFunc:        "实验 %d 里没有函数 %q：它的函数是 %s",
	gradingSolution:   "（实验 %02d 没有开始，所以这里评的是现有的参考实现。）",
	raceFails:         "评分测试都过了，但在 race detector 下（go test -race）没过：有两个 goroutine 在没有锁保护的情况下访问了同一块内存。",
	thenRace:          "，通过后再加 -race 跑一遍",
	diffCurrent:       "实验 %02d：你目前的代码（+）和参考实现（-），逐个函数对照：",
	diffAttempt:       "实验 %02d：你上一次的尝试（+，保存在 %s）和参考实现（-）对照：",
	diffNothing:       "实验 %02d 还没有可对照的尝试：先 make lab-start %d，写完再 make lab-solution。",
	diffUnparsed:      "%s 解析不了（%v）：请手动对照。",
	diffSolution:      "参考实现",
	diffYours:         "你的代码",
	diffSame:          "你的代码和参考实现一行不差。",
	wrongHeader:       "实验 %02d：评分器必须拒绝的 %d 个错误答案（make test 会检查它确实拒绝了）：",
	wrongFooter:       "make lab-wrong %d NAME 显示某个错误答案改了什么并给它评分，不会动你的文件：先猜猜评分会说什么。",
	wrongWhileStarted: "实验 %d 正在进行，而错误答案是和参考实现的代码并排显示的：请先结束实验（make lab-solution %d）",
	noSuchWrong:       "实验 %d 没有叫 %q 的错误答案（make lab-wrong %d 会列出全部）",
	listHeader:        "实验：自己写出一层，由 client-go 来评分。",
	listSolution:      "参考实现在位",
	listStarted:       "%s 开始，已看 %d 条提示",
	listFooter:        "make lab-start N 开始；每个实验的页面（docs/zh/labs/）说明先读什么、要写什么。",
}

func messagesFor(l string) messages {
	if l == lang.ZH {
		return chinese
	}
	return english
}
