package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/webview"
	"informer-from-scratch/internal/webview/webviewtest"
)

// TestWebView runs the demo with --web on a playground, as `make run-stage
// 6 ARGS=--web` does, and checks the page twice: its stream without a
// browser, then the page itself in headless Chromium.
func TestWebView(t *testing.T) {
	d := startWebDemo(t)

	t.Run("stream", func(t *testing.T) {
		st := webviewtest.Connect(t, d.url)
		// The stream started with the timeline: its snapshot's rows and
		// then its messages' rows are the terminal's output from the web
		// view's first row on, in order.
		created := webviewtest.Press(t, d.url, "create")
		key := "stage06/" + strings.TrimPrefix(created, "created ")
		// Each handler runs on its own goroutine: their calls come in any order.
		called := map[string]bool{}
		st.WaitFor(t, "the created pod at every handler", func(m webview.Message) bool {
			if m.Row != nil && m.Row.Layer == "handler" && m.Row.Fields[webview.FieldKey] == key {
				called[m.Row.Fields[webview.FieldHandler]] = true
			}
			return called["audit"] && called["metrics"] && called["late"]
		})
		rows := strings.Join(st.Snapshot.Recent, "")
		for _, m := range st.Messages() {
			if m.Row != nil {
				rows += m.Row.Text
			}
		}
		out := d.out.String()
		start := strings.Index(out, "   Web view: ")
		if start < 0 || !strings.HasPrefix(out[start:], rows) {
			t.Errorf("the stream's rows are not the terminal's output from the web view's first row on:\nstream:\n%s\nterminal:\n%s", rows, out)
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
		d.browse(t)
	})
}

// webDemo is the demo running with --web in this process.
type webDemo struct {
	url    string
	out    *syncBuffer
	cancel context.CancelFunc
}

// startWebDemo runs the demo with --web and waits until its story is over
// and its buttons act. The test's cleanup stops it, as Ctrl-C would, and
// checks that it ended cleanly.
func startWebDemo(t *testing.T) *webDemo {
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "a-kubeconfig-the-demo-must-not-read"))
	t.Setenv(demo.KubeconfigEnv, "")
	d := &webDemo{out: newSyncBuffer()}
	ctx, cancel := context.WithCancel(context.Background())
	d.cancel = cancel
	var errOut bytes.Buffer
	exited := make(chan int)
	go func() {
		exited <- demo.Run(options, []string{"--web"}, d.out, &errOut, func(env *demo.Env) error {
			// Ctrl-C, for a test: the demo stays up until ctx ends.
			envCtx, stop := context.WithCancel(env.Ctx)
			defer stop()
			context.AfterFunc(ctx, stop)
			env.Ctx = envCtx
			return run(env)
		})
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-exited; code != 0 {
			t.Errorf("the demo exited with %d\nstdout:\n%s\nstderr:\n%s", code, d.out.String(), errOut.String())
		}
		for _, want := range []string{"STOPPED   RunWithContext returned", "Playground stopped"} {
			if !strings.Contains(d.out.String(), want) {
				t.Errorf("the demo's output lacks %q:\n%s", want, d.out.String())
			}
		}
	})
	m := d.out.waitFor(t, regexp.MustCompile(`--web: the informer keeps running and the page's buttons act, until you press Ctrl-C: (\S+)`), exited)
	d.url = m[1]
	return d
}

// browse opens the page in headless Chromium and uses it as a learner
// would: create a pod and watch it pass every lane; cut the watch, delete
// a pod, compact, restore, and see the relist; then a screenshot.
func (d *webDemo) browse(t *testing.T) {
	path := webviewtest.Chromium(t)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), webviewtest.BrowserOptions(path, t.TempDir())...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()

	do := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	// poll waits for a condition of the page, in JavaScript, and returns its
	// truthy value as text.
	poll := func(what, js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Poll[any](js, chromedp.WithPollingTimeout(90*time.Second)))
		if err != nil {
			t.Fatalf("waiting for %s (%s): %v", what, js, err)
		}
		return fmt.Sprint(v)
	}
	counter := func(id string) int {
		t.Helper()
		text := poll("the "+id+" counter", `document.querySelector('[data-counter="`+id+`"]').textContent`)
		n, err := strconv.Atoi(text)
		if err != nil {
			t.Fatalf("the %s counter shows %q", id, text)
		}
		return n
	}
	press := func(id, answer string) string {
		t.Helper()
		do("press "+id, chromedp.Click(chromedp.CSS(`[data-action="`+id+`"]`)))
		return poll("the answer to "+id, `(() => { const a = document.getElementById('answer').textContent; return a.includes(`+strconv.Quote(answer)+`) && a; })()`)
	}
	caughtUp := `webview.applied > 0 && document.getElementById('backlog').textContent === ''`

	do("open the page", chromedp.EmulateViewport(1600, 900), chromedp.Navigate(d.url), chromedp.WaitVisible(chromedp.CSS(`[data-action="create"]`)))
	poll("the page catches up with the stream", caughtUp)
	cache, relists := counter("cache"), counter("relists")

	name := regexp.MustCompile(`web-\d+`).FindString(press("create", "created web-"))
	for _, h := range []string{"audit", "metrics", "late"} {
		lanes := strconv.Quote(strings.Join([]string{"apiserver", "reflector", "queue", "indexer", "processor", "listener:" + h, "handler:" + h}, " "))
		poll(name+"'s token through every lane to "+h,
			`Object.values(webview.journeys).some(j => j.key === "stage06/`+name+`" && j.lanes.join(" ") === `+lanes+`)`)
	}
	poll("the cache counter rises", fmt.Sprintf(`document.querySelector('[data-counter="cache"]').textContent === "%d"`, cache+1))

	press("cut", "cut:")
	poll("the watch shown cut", `document.querySelector('[data-counter="watch"]').textContent === "cut"`)
	deleted := regexp.MustCompile(`web-\d+`).FindString(press("delete", "deleted web-"))
	press("compact", "compacted")
	press("restore", "restored")
	poll("a relist shown", fmt.Sprintf(`document.querySelector('[data-counter="relists"]').textContent === "%d"`, relists+1))
	poll("the missed delete reaching a handler as a tombstone",
		`Object.values(webview.journeys).some(j => j.key === "stage06/`+deleted+`" && j.label.endsWith("OnDelete") && j.lanes.includes("indexer"))`)
	poll("the page catches up", caughtUp)

	// The screenshot: a slow handler falling behind, and a pod in flight,
	// in slow motion, paused.
	press("slow", "added slow-")
	do("slow motion", chromedp.Click(chromedp.CSS(`#slow`)))
	press("create", "created web-")
	poll("a token in the queue", `document.querySelector('.token[data-lane="queue"]') !== null`)
	do("pause", chromedp.Click(chromedp.CSS(`#pause`)))
	d.screenshot(t, ctx, "webview-en.png")
	do("switch to Chinese", chromedp.Click(chromedp.CSS(`#lang`)))
	poll("the Chinese labels", `document.querySelector('[data-action="create"]').textContent === "创建 Pod"`)
	d.screenshot(t, ctx, "webview-zh.png")
}

// screenshot saves the page as a PNG: into $WEBVIEW_SCREENSHOTS when set
// (make screenshots sets it to docs/images), else into the test's
// temporary directory.
func (d *webDemo) screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("WEBVIEW_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	// Let the last animation end: the page was paused mid-trip.
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](`document.getAnimations().length === 0`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("waiting for the animations to end: %v", err)
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// syncBuffer is the demo's output, written by its goroutines and read by
// the test, which can wait for a line to appear.
type syncBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	changed chan struct{}
}

func newSyncBuffer() *syncBuffer { return &syncBuffer{changed: make(chan struct{})} }

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.changed)
	s.changed = make(chan struct{})
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits until the output matches re, failing if the demo exits or
// a minute passes first.
func (s *syncBuffer) waitFor(t *testing.T, re *regexp.Regexp, exited <-chan int) []string {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		s.mu.Lock()
		m, changed := re.FindStringSubmatch(s.b.String()), s.changed
		s.mu.Unlock()
		if m != nil {
			return m
		}
		select {
		case <-changed:
		case code := <-exited:
			t.Fatalf("the demo exited with %d before printing %s:\n%s", code, re, s.String())
		case <-deadline:
			t.Fatalf("waited a minute for %s:\n%s", re, s.String())
		}
	}
}
