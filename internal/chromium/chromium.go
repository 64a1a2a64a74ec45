// Package chromium finds a Chromium-family browser to drive headless: the
// browser tests and the docs' diagram check use it.
package chromium

import (
	"os"
	"os/exec"
)

// Find returns the path of Chromium, or of Google Chrome, and whether one was
// found: $CHROMIUM when set, then chromium and chromium-browser on the PATH
// (Linux's packages), then the applications macOS keeps outside the PATH.
func Find() (string, bool) {
	for _, name := range []string{os.Getenv("CHROMIUM"), "chromium", "chromium-browser"} {
		if name == "" {
			continue
		}
		if path, err := exec.LookPath(name); err == nil {
			return path, true
		}
	}
	for _, app := range []string{
		"/Applications/Chromium.app/Contents/MacOS/Chromium",
		"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
	} {
		if info, err := os.Stat(app); err == nil && !info.IsDir() {
			return app, true
		}
	}
	return "", false
}

// Install says how to get one, for a message that skips or fails a test.
const Install = "Install it from your system's packages (Debian and Ubuntu: sudo apt-get install chromium fonts-noto-cjk; macOS: Google Chrome, or brew install --cask chromium) or set CHROMIUM to its path; .ci/run installs it when missing."
