package main

import (
	"strings"
	"testing"

	"informer-from-scratch/internal/demo/demotest"
)

// TestDemoRunsToCompletion runs the whole demo on a playground, as
// `make run-stage 3` does, and checks it exits 0 having shown each lesson,
// and each write before the watch event it caused (its four creates and
// four updates: the answers to writes are held back, so a write printed
// before its event only because the script waited would still pass, and
// one printed after it would not).
func TestDemoRunsToCompletion(t *testing.T) {
	out := demotest.RunCausal(t, options, run, 8,
		"HasSynced: DeltaFIFO=true after 2 Pops, RealFIFO=true after 1", // the initial list
		"(gap: ",                             // the DeltaFIFO reordered events across keys
		"web-2  Deleted@",                    // the watched deletion
		"web-1  Deleted(tombstone)@",         // the relist's tombstone, made by the DeltaFIFO
		"web-1 is gone → OnDelete(tombstone", // and found by the RealFIFO's consumer
		"web-4  Sync@",                       // the resync, skipping the queued web-3
		"SyncAll",                            // one item on the RealFIFO
		"Both consumers end with the same cache",
	)
	if strings.Contains(out, "web-3  Sync@") {
		t.Errorf("the DeltaFIFO resynced web-3 although an update for it was queued:\n%s", out)
	}
}

// TestChineseTranscriptLinesUpWithTheEnglishOne runs the demo in both
// languages (`make run-stage 3 ARGS=--lang=zh`): the same rows, the
// protocol, and Chinese narration around them, the consumer's lines in the
// Pop tables included. This demo prints every row from one goroutine, so
// its rows come out in the same order in every run.
func TestChineseTranscriptLinesUpWithTheEnglishOne(t *testing.T) {
	_, zh := demotest.InBothLanguages(t, options, run)
	for _, want := range []string{
		"第 3 阶段：DeltaFIFO 与 RealFIFO",
		"── 第 2 步：消费者正忙时到达的 watch 事件",
		"DeltaFIFO.Pop：一个 key，及其全部 Deltas",
		"↳ 消费者：web-1 没了 → OnDelete(tombstone",
		"两个消费者最后的缓存相同",
		"结束。",
	} {
		if !strings.Contains(zh.Out, want) {
			t.Errorf("--lang=zh: the output lacks %q:\n%s", want, zh.Out)
		}
	}
}
