package timeline_test

import (
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

func ExampleTimeline() {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { now = now.Add(125 * time.Millisecond); return now }
	tl := timeline.NewWithClock(os.Stdout, clock)
	tl.Step(lang.T("LIST with pagination", "分页 LIST"), lang.T("The pager asks for two pods at a time.", "分页器每次要两个 Pod。"))
	tl.Event("listwatch", "LIST", "pods", "limit=2 → 2 items")
	tl.Note(lang.T("the server returned a continue token", "服务端返回了 continue token"))
	// Output:
	//
	// ── Step 1: LIST with pagination ────────────────────────────────────────
	//    The pager asks for two pods at a time.
	//   +0.125s  listwatch  LIST      pods                           limit=2 → 2 items
	//    the server returned a continue token
}

// TestSubscribersSeeWhatIsPrinted checks the promise the browser view relies
// on: a subscriber gets every row, in print order, and the rows' Text put
// together is exactly the terminal's output.
func TestSubscribersSeeWhatIsPrinted(t *testing.T) {
	var out strings.Builder
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tl := timeline.NewWithClock(&out, func() time.Time { now = now.Add(time.Second); return now })
	tl.Note(lang.T("before any subscriber", "订阅之前"))
	var rows []timeline.Row
	unsubscribe := tl.Subscribe(func(r timeline.Row) { rows = append(rows, r) })
	start := out.Len()
	tl.Step(lang.T("One", "一"), lang.T("why one", "为什么是一"))
	tl.Event("reflector", "Add", "ns/web-1", "rv=5")
	tl.EventWith(map[string]string{"key": "ns/web-1"}, "indexer", "Add", "ns/web-1", "rv=5")
	tl.Note(lang.T("a %s", "一条%s"), "note")
	unsubscribe()
	tl.Note(lang.T("after", "之后"))

	var texts strings.Builder
	for _, r := range rows {
		texts.WriteString(r.Text)
	}
	printed := out.String()[start:strings.LastIndex(out.String(), "   after\n")]
	if texts.String() != printed {
		t.Errorf("the rows' Text is not what was printed:\nrows:\n%s\nprinted:\n%s", texts.String(), printed)
	}
	want := []timeline.Row{
		{Kind: timeline.KindStep, Step: 1, Title: "One", Why: []string{"why one"}, TitleText: &lang.Text{EN: "One", ZH: "一"}, WhyText: []lang.Text{{EN: "why one", ZH: "为什么是一"}}},
		{Kind: timeline.KindEvent, Step: 1, Offset: time.Second, Layer: "reflector", What: "Add", Object: "ns/web-1", Detail: "rv=5", Protocol: "rv=5"},
		{Kind: timeline.KindEvent, Step: 1, Offset: 2 * time.Second, Layer: "indexer", What: "Add", Object: "ns/web-1", Detail: "rv=5", Protocol: "rv=5", Fields: map[string]string{"key": "ns/web-1"}},
		{Kind: timeline.KindNote, Step: 1, Detail: "a note"},
	}
	for i := range rows {
		rows[i].Text = ""
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// ExampleTimeline_Event_wideWhat: a what wider than its column (client-go's
// AddRateLimited, ShutDownWithDrain) takes its room from the object's, so
// the detail still starts where every other row's does.
func ExampleTimeline_Event_wideWhat() {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tl := timeline.NewWithClock(os.Stdout, func() time.Time { return now })
	tl.Event("workqueue", "Add", "stage08/flaky", "len=1")
	tl.Event("workqueue", "AddRateLimited", "stage08/flaky", "requeue 1: back in 5ms")
	tl.Event("controller", "ShutDownWithDrain", "", "stop taking keys")
	// Output:
	//   +0.000s  workqueue  Add       stage08/flaky                  len=1
	//   +0.000s  workqueue  AddRateLimited stage08/flaky             requeue 1: back in 5ms
	//   +0.000s  controller ShutDownWithDrain                        stop taking keys
}

// ExampleTimeline_chinese: the narration follows the timeline's language;
// an event row of protocol alone reads the same in both. The rule after
// a Chinese title is as wide, in columns, as after the English one.
func ExampleTimeline_chinese() {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { now = now.Add(125 * time.Millisecond); return now }
	for _, l := range []string{lang.EN, lang.ZH} {
		tl := timeline.NewWithClock(os.Stdout, clock)
		tl.SetLanguage(l)
		tl.Step(lang.T("LIST in pages", "分页 LIST"), lang.T("Two pods at a time,\nthree pages.", "每次两个 Pod，共三页。"))
		tl.Event("pager", "PAGE", "page 1: 2 pods", "rv=74")
		tl.Note(lang.T("%d pods in all", "一共 %d 个 Pod"), 5)
	}
	// Output:
	//
	// ── Step 1: LIST in pages ───────────────────────────────────────────────
	//    Two pods at a time,
	//    three pages.
	//   +0.125s  pager      PAGE      page 1: 2 pods                 rv=74
	//    5 pods in all
	//
	// ── 第 1 步：分页 LIST ──────────────────────────────────────────────────
	//    每次两个 Pod，共三页。
	//   +0.125s  pager      PAGE      page 1: 2 pods                 rv=74
	//    一共 5 个 Pod
}

// ExampleTimeline_Event_explained: a row's protocol reads the same in both
// languages; its explanation, after " — ", and an object of words are
// said in the timeline's language, the object padded to its width in
// columns so that the detail starts where it does in English.
func ExampleTimeline_Event_explained() {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, l := range []string{lang.EN, lang.ZH} {
		tl := timeline.NewWithClock(os.Stdout, func() time.Time { return now })
		tl.SetLanguage(l)
		tl.Event("watch", "ERROR", "-", "410 Expired", lang.T("the reflector will list again", "reflector 会重新 list"))
		tl.EventAbout(nil, "reflector", "Replace", lang.T("3 pods", "3 个 Pod"), "rv=70")
		tl.Event("demo", "CUT", "pods watch", "", lang.T("its next watch request waits", "下一个 watch 请求会等着"))
		tl.Send("demo", "DELETE", "ns/web-2", "", lang.T("grace period 0", "宽限期为 0")).Answered("75", "")
	}
	// Output:
	//   +0.000s  watch      ERROR     -                              410 Expired — the reflector will list again
	//   +0.000s  reflector  Replace   3 pods                         rv=70
	//   +0.000s  demo       CUT       pods watch                     — its next watch request waits
	//   +0.000s  demo       DELETE    ns/web-2                       — grace period 0
	//   +0.000s  demo       ← DELETE  ns/web-2                       rv=75
	//   +0.000s  watch      ERROR     -                              410 Expired — reflector 会重新 list
	//   +0.000s  reflector  Replace   3 个 Pod                       rv=70
	//   +0.000s  demo       CUT       pods watch                     — 下一个 watch 请求会等着
	//   +0.000s  demo       DELETE    ns/web-2                       — 宽限期为 0
	//   +0.000s  demo       ← DELETE  ns/web-2                       rv=75
}

// TestRowsCarryTheirProtocolAndExplanation: a subscriber gets a row's
// protocol and its explanation and words in both languages, whatever
// language the row was printed in, so that two runs' rows can be
// compared by their protocol.
func TestRowsCarryTheirProtocolAndExplanation(t *testing.T) {
	var rows []timeline.Row
	tl := timeline.NewIn(io.Discard, lang.ZH)
	tl.Subscribe(func(r timeline.Row) { rows = append(rows, r) })
	why := lang.T("same rv: a sync", "rv 没变：一次 sync")
	tl.Event("handler", "OnUpdate", "ns/web-1", "rv=80 → rv=80", why, lang.T("ignored", "忽略"))
	pods := lang.T("3 pods", "3 个 Pod")
	tl.EventAbout(nil, "indexer", "Replace", pods, "rv=70")
	want := []timeline.Row{
		{Kind: timeline.KindEvent, Layer: "handler", What: "OnUpdate", Object: "ns/web-1", Detail: "rv=80 → rv=80 — rv 没变：一次 sync；忽略",
			Protocol: "rv=80 → rv=80", Explanation: &lang.Text{EN: "same rv: a sync; ignored", ZH: "rv 没变：一次 sync；忽略"}},
		{Kind: timeline.KindEvent, Layer: "indexer", What: "Replace", Object: "3 个 Pod", ObjectText: &pods, Detail: "rv=70", Protocol: "rv=70"},
	}
	for i := range rows {
		rows[i].Text, rows[i].Offset = "", 0
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

func TestStepHeadingsEndInTheSameColumnInBothLanguages(t *testing.T) {
	heading := func(l string, title lang.Text) string {
		var b strings.Builder
		tl := timeline.NewIn(&b, l)
		tl.Step(title)
		return strings.TrimSpace(b.String())
	}
	for _, title := range []lang.Text{
		lang.T("LIST in pages", "分页 LIST"),
		lang.T("A relist after the watch broke: tombstones", "watch 断了之后重新 LIST：tombstone"),
	} {
		en, zh := heading(lang.EN, title), heading(lang.ZH, title)
		if lang.Width(en) != lang.Width(zh) {
			t.Errorf("%q is %d columns wide, %q %d", en, lang.Width(en), zh, lang.Width(zh))
		}
	}
}

// ExampleTimeline_Send: a write is printed as it goes out, its answer when
// it comes back; the event the write caused may come in between.
func ExampleTimeline_Send() {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tl := timeline.NewWithClock(os.Stdout, func() time.Time { return now })
	create := tl.Send("demo", "CREATE", "stage02/web-4", "")
	tl.Event("watch", "ADDED", "stage02/web-4", "rv=74")
	create.Answered("74", "")
	tl.Send("demo", "LABEL", "stage02/web-1", "tier=gold").Answered("75", "tier=gold")
	// Output:
	//   +0.000s  demo       CREATE    stage02/web-4
	//   +0.000s  watch      ADDED     stage02/web-4                  rv=74
	//   +0.000s  demo       ← CREATE  stage02/web-4                  rv=74
	//   +0.000s  demo       LABEL     stage02/web-1                  tier=gold
	//   +0.000s  demo       ← LABEL   stage02/web-1                  rv=75 tier=gold
}

// TestCausesFirst: the check places a resourceVersion at the request row
// of the write that got it (or at a row marked Origin), and reports a row
// that names it earlier: the shape of a write printed when its call
// returned, after the event it caused.
func TestCausesFirst(t *testing.T) {
	rows := func(print func(tl *timeline.Timeline)) []timeline.Row {
		tl := timeline.New(io.Discard)
		var rows []timeline.Row
		tl.Subscribe(func(r timeline.Row) { rows = append(rows, r) })
		print(tl)
		return rows
	}
	for _, tc := range []struct {
		name       string
		print      func(tl *timeline.Timeline)
		placed     int
		violations int
	}{
		{"sent, the event, then the answer", func(tl *timeline.Timeline) {
			c := tl.Send("demo", "CREATE", "ns/a", "")
			tl.Event("watch", "ADDED", "ns/a", "rv=74")
			c.Answered("74", "")
			tl.Event("store", "Add", "ns/a", "rv=74")
		}, 1, 0},
		{"the write printed when its call returned, after its event", func(tl *timeline.Timeline) {
			tl.Event("watch", "ADDED", "ns/a", "rv=74")
			tl.EventWith(timeline.Origin("74"), "demo", "CREATE", "ns/a", "rv=74")
		}, 1, 1},
		{"the answer's request after the event", func(tl *timeline.Timeline) {
			tl.Event("handler", "OnUpdate", "ns/a", "rv=70 → rv=75")
			tl.Send("demo", "UPDATE", "ns/a", "").Answered("75", "")
		}, 1, 1},
		{"an older resourceVersion named later is fine", func(tl *timeline.Timeline) {
			tl.EventWith(timeline.Origin("70"), "informer", "ADDED", "ns/a", "rv=70")
			tl.Event("handler", "OnUpdate", "ns/a", "rv=70 → rv=75")
		}, 1, 0},
		{"a write in rows of its own shape, paired with NewCall", func(tl *timeline.Timeline) {
			id := tl.NewCall()
			tl.EventWith(map[string]string{timeline.FieldCall: id}, "write", "UPDATE", "Foo ns/a status", "sent")
			tl.Event("handler", "OnUpdate", "Foo ns/a", "rv=77")
			tl.EventWith(map[string]string{timeline.FieldCall: id, timeline.FieldRV: "77"}, "write", "UPDATE", "Foo ns/a status", "→ rv=77")
		}, 1, 0},
		{"the same, its request row printed after the event", func(tl *timeline.Timeline) {
			id := tl.NewCall()
			tl.Event("handler", "OnUpdate", "Foo ns/a", "rv=77")
			tl.EventWith(map[string]string{timeline.FieldCall: id}, "write", "UPDATE", "Foo ns/a status", "sent")
			tl.EventWith(map[string]string{timeline.FieldCall: id, timeline.FieldRV: "77"}, "write", "UPDATE", "Foo ns/a status", "→ rv=77")
		}, 1, 1},
		{"rows of a resourceVersion no write named are not placed", func(tl *timeline.Timeline) {
			tl.Event("watch", "ADDED", "ns/a", "rv=74")
			tl.Event("demo", "CREATE", "ns/a", "rv=74")
		}, 0, 0},
	} {
		placed, violations := timeline.CausesFirst(rows(tc.print))
		if placed != tc.placed || len(violations) != tc.violations {
			t.Errorf("%s: placed %d, violations %q; want %d and %d", tc.name, placed, violations, tc.placed, tc.violations)
		}
	}
}
