package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"informer-from-scratch/internal/demo/demotest"
	"informer-from-scratch/internal/webview"
	"informer-from-scratch/internal/webview/webviewtest"
)

// TestWebView runs the demo with --web on a playground, as `make run-stage
// 6 ARGS=--web` does, and checks the page twice: its stream without a
// browser, then the page itself in headless Chromium.
func TestWebView(t *testing.T) {
	d := startWebDemo(t)

	t.Run("stream", func(t *testing.T) {
		st := webviewtest.Connect(t, d.URL)
		// The stream started with the timeline: its snapshot's rows and
		// then its messages' rows are the terminal's output from the web
		// view's first row on, in order.
		created := webviewtest.Press(t, d.URL, "create")
		key := "stage06/" + strings.TrimPrefix(created, "created ")
		// Each handler runs on its own goroutine: their calls come in any order.
		called := map[string]bool{}
		st.WaitFor(t, "the created pod at every handler", func(m webview.Message) bool {
			if m.Row != nil && m.Row.Layer == "handler" && m.Row.Fields[webview.FieldKey] == key {
				called[m.Row.Fields[webview.FieldHandler]] = true
			}
			return called["audit"] && called["metrics"] && called["late"]
		})
		st.CheckRows(t, d.Out.String())
		// Every listener the page is told of is a handler's, with its
		// name: the story's own rows (slow's STALLS) declare none.
		states := []webview.State{st.Snapshot.State}
		for _, m := range st.Messages() {
			states = append(states, m.State)
		}
		for _, s := range states {
			for _, l := range s.Listeners {
				if l.Name == "" {
					t.Fatalf("the stream shows a listener without a name: %+v", s.Listeners)
				}
			}
		}
		journeys := webviewtest.Journeys(st.Snapshot, st.Messages())
		for _, h := range []string{"audit", "metrics", "late"} {
			want := fmt.Sprint([]string{"apiserver", "reflector", "queue", "indexer", "processor", "listener:" + h, "handler:" + h})
			found := false
			for _, j := range journeys {
				found = found || (j.Key == key && fmt.Sprint(j.Lanes) == want)
			}
			if !found {
				t.Errorf("no token of %s went %s", key, want)
			}
		}
	})

	t.Run("browser", func(t *testing.T) {
		browse(t, d)
	})
}

// startWebDemo runs the demo with --web on a playground and waits until
// its story is over and its buttons act. The test's cleanup stops it, as
// Ctrl-C would, and checks that it ended cleanly.
func startWebDemo(t *testing.T) *webviewtest.Demo {
	return webviewtest.StartDemo(t, options, run, []string{"--web"},
		regexp.MustCompile(`--web: the informer keeps running and the page's buttons act, until you press Ctrl-C: (\S+)`),
		"STOPPED   RunWithContext                 IsStopped()=true — returned", "Playground stopped")
}

// browse opens the page in headless Chromium and uses it as a learner
// would: create a pod and watch it pass every lane; cut the watch, delete
// a pod, compact, restore, and see the relist; then a screenshot.
func browse(t *testing.T, d *webviewtest.Demo) {
	p := webviewtest.Open(t, d.URL, "create")
	checkLanesNamed(t, p)
	cache, relists := p.Counter("cache"), p.Counter("relists")

	name := regexp.MustCompile(`web-\d+`).FindString(p.Press("create", "created web-"))
	for _, h := range []string{"audit", "metrics", "late"} {
		lanes := strconv.Quote(strings.Join([]string{"apiserver", "reflector", "queue", "indexer", "processor", "listener:" + h, "handler:" + h}, " "))
		p.Poll(name+"'s token through every lane to "+h,
			`Object.values(webview.journeys).some(j => j.key === "stage06/`+name+`" && j.lanes.join(" ") === `+lanes+`)`)
	}
	p.Poll("the cache counter rises", fmt.Sprintf(`document.querySelector('[data-counter="cache"]').textContent === "%d"`, cache+1))

	p.Press("cut", "cut:")
	p.Poll("the watch shown cut", `document.querySelector('[data-counter="watch"]').textContent === "cut"`)
	deleted := regexp.MustCompile(`web-\d+`).FindString(p.Press("delete", "deleted web-"))
	p.Press("compact", "compacted")
	p.Press("restore", "restored")
	p.Poll("a relist shown", fmt.Sprintf(`document.querySelector('[data-counter="relists"]').textContent === "%d"`, relists+1))
	p.Poll("the missed delete reaching a handler as a tombstone",
		`Object.values(webview.journeys).some(j => j.key === "stage06/`+deleted+`" && j.label.endsWith("OnDelete") && j.lanes.includes("indexer"))`)
	p.Poll("the page catches up", webviewtest.CaughtUp)
	checkLanesNamed(t, p)

	// The screenshot: a slow handler falling behind, and a pod in flight,
	// in slow motion, paused.
	p.Press("slow", "added slow-")
	p.Do("slow motion", chromedp.Click(chromedp.CSS(`#slow`)))
	last := regexp.MustCompile(`web-\d+`).FindString(p.Press("create", "created web-"))
	p.Poll("a token in the queue", `document.querySelector('.token[data-lane="queue"]') !== null`)
	p.Do("pause", chromedp.Click(chromedp.CSS(`#pause`)))
	p.Screenshot("webview-en.png")
	p.Do("switch to Chinese", chromedp.Click(chromedp.CSS(`#lang`)))
	p.Poll("the Chinese labels", `document.querySelector('[data-action="create"]').textContent === "创建 Pod"`)
	// The heading (the story's last step) and the last button's answer
	// follow the toggle too: the demo sent both in both languages.
	p.Poll("the step's title in Chinese", `document.getElementById('steptitle').textContent === `+strconv.Quote("第 6 步："+sayStallTitle.ZH))
	p.Poll("the answer in Chinese", `document.getElementById('answer').textContent === `+strconv.Quote("创建 Pod："+sayCreated.Format(last).ZH))
	p.Screenshot("webview-zh.png")
}

// TestCtrlCEndsTheWebViewAndExitsZero: with --web, Ctrl-C is how a learner
// ends the demo once the story is over, so it is a clean end: the informer
// stops, the playground goes, and the exit code is 0, not 130.
func TestCtrlCEndsTheWebViewAndExitsZero(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a playground")
	}
	code, out := demotest.Interrupt(t, options, []string{"--web"}, run, "--web: the informer keeps running")
	if code != 0 {
		t.Fatalf("exit code %d after Ctrl-C in --web mode, want 0\n%s", code, out)
	}
	for _, want := range []string{"Done.", "Playground stopped"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q after Ctrl-C:\n%s", want, out)
		}
	}
}

// checkLanesNamed fails the test if the page draws a per-listener lane (a
// ring, a handler) with no handler's name: one the story's own rows made
// up, whose ring would only grow and whose HasSynced would stay ✗.
func checkLanesNamed(t *testing.T, p *webviewtest.Page) {
	t.Helper()
	unnamed := p.Poll("the per-listener lanes' names", `JSON.stringify([...document.querySelectorAll('.lane')].map(l => l.dataset.lane).filter(id => id.endsWith(':')))`)
	if unnamed != "[]" {
		t.Errorf("the page shows lanes without a handler's name: %s", unnamed)
	}
}
