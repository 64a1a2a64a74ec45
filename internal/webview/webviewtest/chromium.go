package webviewtest

import (
	"os"
	"testing"

	"github.com/chromedp/chromedp"

	"informer-from-scratch/internal/chromium"
)

// Chromium returns the path of Chromium (or Google Chrome), or skips the
// test saying how to install it. Under CI (CI=true), where .ci/run installs
// it, a missing Chromium fails the test instead: CI must run the browser
// tests.
func Chromium(t *testing.T) string {
	t.Helper()
	if path, ok := chromium.Find(); ok {
		return path
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("Chromium is not installed, and CI must run the browser test. " + chromium.Install)
	}
	t.Skip("Chromium is not installed, so the browser test is skipped. " + chromium.Install)
	return ""
}

// BrowserOptions start Chromium headless, alone: no sandbox (tests may run
// as root), no GPU, and none of its background traffic (updates, sync,
// QUIC, first-run pages), which a machine without internet refuses; a
// fresh profile in userDataDir; a projector's 16:9 window.
func BrowserOptions(path, userDataDir string) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(userDataDir),
		chromedp.WindowSize(1600, 900),
	}
}
