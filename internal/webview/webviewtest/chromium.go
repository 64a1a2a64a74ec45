package webviewtest

import (
	"os"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"
)

// Chromium returns the path of Chromium from the system's packages, or
// skips the test saying how to install it. Under CI (CI=true), where
// .ci/run installs it, a missing Chromium fails the test instead: CI must
// run the browser tests.
func Chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	const install = "Install it from your system's packages (Debian and Ubuntu: sudo apt-get install chromium) and run the test again; .ci/run installs it when missing."
	if os.Getenv("CI") == "true" {
		t.Fatal("Chromium is not installed, and CI must run the browser test. " + install)
	}
	t.Skip("Chromium is not installed, so the browser test is skipped. " + install)
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
