package main

import "informer-from-scratch/internal/lang"

// What stage 06's demo says in both languages. Its steps and notes are
// still English only (StepEN, NoteEN): issue 26 moves them here next.
var sayTitle = lang.T("SharedIndexInformer: stages 1-5 assembled, one pod followed through every layer",
	"SharedIndexInformer —— 把第 1 到 5 阶段组装起来，跟着一个 Pod 走过每一层")
