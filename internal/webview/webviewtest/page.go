package webviewtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Page is a demo's page open in headless Chromium, used as a learner
// would: press a button, wait for what the page shows.
type Page struct {
	t   *testing.T
	Ctx context.Context // chromedp's, for actions of a test's own
}

// CaughtUp is true, in the page, once it has drawn every message it has
// received.
const CaughtUp = `webview.applied > 0 && document.getElementById('backlog').textContent === ''`

// Open starts Chromium (skipping the test without it, see Chromium), opens
// url in a projector's viewport, waits until the button firstButton is
// shown and the page has caught up with the stream. Chromium stops with the
// test.
func Open(t *testing.T, url, firstButton string) *Page {
	t.Helper()
	path := Chromium(t)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), BrowserOptions(path, t.TempDir())...)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	p := &Page{t: t, Ctx: ctx}
	p.Do("open the page", chromedp.EmulateViewport(1600, 900), chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`[data-action="`+firstButton+`"]`)))
	p.Poll("the page catches up with the stream", CaughtUp)
	return p
}

// Do runs actions, failing the test with what if one fails.
func (p *Page) Do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.Ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// Poll waits, up to 90 seconds, until the JavaScript expression js is
// truthy in the page, and returns its value as text.
func (p *Page) Poll(what, js string) string {
	p.t.Helper()
	v, err := chromedp.Run(p.Ctx, chromedp.Poll[any](js, chromedp.WithPollingTimeout(90*time.Second)))
	if err != nil {
		p.t.Fatalf("waiting for %s (%s): %v", what, js, err)
	}
	return fmt.Sprint(v)
}

// Counter is the number a counter shows.
func (p *Page) Counter(id string) int {
	p.t.Helper()
	text := p.Poll("the "+id+" counter", `document.querySelector('[data-counter="`+id+`"]').textContent`)
	n, err := strconv.Atoi(text)
	if err != nil {
		p.t.Fatalf("the %s counter shows %q", id, text)
	}
	return n
}

// Press clicks a button and waits for the page to show its answer, which
// must contain answer; it returns the answer.
func (p *Page) Press(id, answer string) string {
	p.t.Helper()
	p.Do("press "+id, chromedp.Click(chromedp.CSS(`[data-action="`+id+`"]`)))
	return p.Poll("the answer to "+id, `(() => { const a = document.getElementById('answer').textContent; return a.includes(`+strconv.Quote(answer)+`) && a; })()`)
}

// Screenshot saves the page as a PNG: into $WEBVIEW_SCREENSHOTS when set
// (make screenshots sets it to docs/images), else into the test's
// temporary directory.
func (p *Page) Screenshot(name string) {
	p.t.Helper()
	dir := os.Getenv("WEBVIEW_SCREENSHOTS")
	if dir == "" {
		dir = p.t.TempDir()
	}
	// Let the last animation end: the page may have been paused mid-trip.
	if _, err := chromedp.Run(p.Ctx, chromedp.Poll[chromedp.Void](`document.getAnimations().length === 0`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		p.t.Fatalf("waiting for the animations to end: %v", err)
	}
	png, err := chromedp.Run(p.Ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot: %s", path)
}
