package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"informer-from-scratch/internal/timeline"
	"informer-from-scratch/internal/webview"
	"informer-from-scratch/internal/webview/webviewtest"
)

// TestWebView runs the demo with --web on a playground, as `make run-stage
// 8 ARGS=--web` does, and checks the page twice: its stream without a
// browser (a Foo created, a reconcile made to fail), then the page itself
// in headless Chromium.
func TestWebView(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a playground")
	}
	d := webviewtest.StartDemo(t, options, run, []string{"--web"},
		regexp.MustCompile(`--web: the controller keeps running and the page's buttons act, until you press Ctrl-C: (\S+)`),
		"controller Drained", "workqueue_retries_total", "Playground stopped")

	t.Run("stream", func(t *testing.T) {
		st := webviewtest.Connect(t, d.URL)
		created := strings.TrimPrefix(webviewtest.Press(t, d.URL, "create"), "created Foo ")
		key := ns + "/" + created
		st.WaitFor(t, created+"'s status written", written(key, "UPDATE", "status"))
		failing := webviewtest.Press(t, d.URL, "fail")
		flaky := ns + "/" + regexp.MustCompile(`flaky-\d+`).FindString(failing)
		st.WaitFor(t, flaky+"'s Deployment created after its failures", written(flaky, "CREATE", "Deployment"))

		// The stream's rows are the terminal's output from the web view's
		// first row on, in order.
		st.CheckRows(t, d.Out.String())

		// The key goes through the informers to a handler, and one token
		// goes through the workqueue to a write (observe prints an Add
		// before making it, so a Get's row never comes before the Add's
		// that made it possible).
		journeys := webviewtest.Journeys(st.Snapshot, st.Messages())
		informers := "apiserver informers handlers"
		once := "queued processing worker write"
		// The failing key's token goes back to the queue after each failure
		// (--fail's 3 by default) and is written the last time.
		retried := strings.Repeat(once+" ", 3) + once
		for _, c := range []struct{ key, lanes string }{{key, informers}, {key, once}, {flaky, informers}, {flaky, retried}} {
			if !wentThrough(journeys, c.key, c.lanes) {
				t.Errorf("no token of %s went %s; its tokens went:\n%s", c.key, c.lanes, journeysOf(journeys, c.key))
			}
		}
	})

	// On a real run, with rows of several goroutines interleaved, the fold
	// still loses no mark and keeps no stale one: once the controller is
	// idle, a page connecting gets no token.
	t.Run("idle", func(t *testing.T) {
		var left []webview.Token
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			st := webviewtest.Connect(t, d.URL)
			st.Close()
			if left = st.Snapshot.Tokens; len(left) == 0 {
				return
			}
		}
		t.Errorf("tokens left after 30s, the controller idle: %+v", left)
	})

	t.Run("browser", func(t *testing.T) {
		p := webviewtest.Open(t, d.URL, "fail")
		retries := p.Counter(webview.CounterRetries)
		created := regexp.MustCompile(`foo-\d+`).FindString(p.Press("create", "created Foo foo-"))
		lanes := strconv.Quote("apiserver informers handlers queued processing worker write")
		p.Poll(created+"'s token through the workqueue to a write",
			`Object.values(webview.journeys).some(j => j.key === "stage08/`+created+`" && j.lanes.join(" ").startsWith(`+lanes+`))`)

		flaky := regexp.MustCompile(`flaky-\d+`).FindString(p.Press("fail", "created Foo flaky-"))
		p.Poll(flaky+"'s token back in the queue after a failed write",
			`Object.values(webview.journeys).some(j => j.key === "stage08/`+flaky+`" && j.lanes.join(" ").includes("worker write queued processing worker write"))`)
		p.Poll("the retries counter rises by --fail's 3", fmt.Sprintf(`Number(document.querySelector('[data-counter="retries"]').textContent) >= %d`, retries+3))
		p.Poll("the page catches up", webviewtest.CaughtUp)

		// The screenshot: a failing reconcile's token waiting out its delay
		// in the queue, in slow motion, paused.
		p.Do("slow motion", chromedp.Click(chromedp.CSS(`#slow`)))
		last := regexp.MustCompile(`flaky-\d+`).FindString(p.Press("fail", "created Foo flaky-"))
		p.Poll("a retry waiting in the queue", `document.querySelector('.token[data-lane="queued"][data-state="delayed"]') !== null`)
		p.Do("pause", chromedp.Click(chromedp.CSS(`#pause`)))
		p.Screenshot("webview-08-en.png")
		p.Do("switch to Chinese", chromedp.Click(chromedp.CSS(`#lang`)))
		p.Poll("the Chinese labels", `document.querySelector('[data-action="fail"]').textContent === "让 reconcile 失败"`)
		// The heading (the page's turn, the story's last step) and the last
		// button's answer follow the toggle too.
		p.Poll("the step's title in Chinese", `document.getElementById('steptitle').textContent === `+strconv.Quote("第 10 步："+sayPageTitle.ZH))
		p.Poll("the answer in Chinese", `document.getElementById('answer').textContent === `+
			strconv.Quote("让 reconcile 失败："+sayCreatedFlaky.Format(last, 3, "5ms, 10ms, 20ms").ZH))
		p.Screenshot("webview-08-zh.png")
	})
}

// written matches the row of a successful write of op whose object holds
// what, made for key.
func written(key, op, what string) func(webview.Message) bool {
	return func(m webview.Message) bool {
		r := m.Row
		return r != nil && r.Layer == "write" && r.What == timeline.Answer(op) && r.Fields[webview.FieldKey] == key &&
			r.Fields[webview.FieldSent] == "" && r.Fields[webview.FieldError] == "" && strings.Contains(r.Object, what)
	}
}

// wentThrough: a token of key went through lanes (space-separated), one
// after the other.
func wentThrough(journeys map[string]webviewtest.Journey, key string, lanes string) bool {
	for _, j := range journeys {
		if j.Key == key && strings.Contains(" "+strings.Join(j.Lanes, " ")+" ", " "+lanes+" ") {
			return true
		}
	}
	return false
}

func journeysOf(journeys map[string]webviewtest.Journey, key string) string {
	var b strings.Builder
	for _, j := range journeys {
		if j.Key == key {
			b.WriteString("  " + j.String() + "\n")
		}
	}
	return b.String()
}
