// Command diagrams renders every mermaid diagram of the docs in headless
// Chromium, with mermaid-cli pinned in tools/mermaid, so that a diagram that
// does not parse fails the build instead of showing an error box on GitHub,
// and a diagram too wide to read on a laptop or a projector fails too.
//
//	go run ./cmd/diagrams              check every diagram (make test)
//	go run ./cmd/diagrams -png DIR     also write each one as DIR/<chapter>-<n>.png (make diagrams)
//
// It needs Node.js (npm) and Chromium. Without them it says so and exits 0,
// so a learner's make test still runs everything else; with -required (or
// MERMAID_REQUIRED=1, which .ci/run sets, having installed both) it fails
// instead. The first run installs tools/mermaid's node_modules with
// `npm ci --ignore-scripts` (puppeteer's own browser download is skipped: it
// drives the system's Chromium), and again whenever package-lock.json
// changes.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"informer-from-scratch/internal/chromium"
)

// maxRatio is the widest a diagram may be, width over height, as rendered
// in a page 800 pixels wide: wider, and its text shrinks below what a
// projector's back row can read (the issue that asked for this check found
// the overview's pipeline at 784×102).
const maxRatio = 4.0

const toolsDir = "tools/mermaid"

// diagram is one distinct mermaid block: its code, and every place it
// appears (a chapter and its Chinese twin share each block byte for byte).
type diagram struct {
	Name   string   `json:"name"`
	Code   string   `json:"code"`
	Places []string `json:"-"`
}

// result is one line of render.mjs's output.
type result struct {
	Name   string  `json:"name"`
	OK     bool    `json:"ok"`
	Error  string  `json:"error"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

func main() {
	pngDir := flag.String("png", "", "also write each diagram as a PNG in this directory")
	required := flag.Bool("required", os.Getenv("MERMAID_REQUIRED") == "1", "fail, instead of skipping, when Node.js or Chromium is missing")
	flag.Parse()
	if err := run(*pngDir, *required); err != nil {
		fmt.Fprintln(os.Stderr, "diagrams:", err)
		os.Exit(1)
	}
}

func run(pngDir string, required bool) error {
	diagrams, err := collect(".")
	if err != nil {
		return err
	}
	chromium, missing := tools()
	if missing != "" {
		if required {
			return fmt.Errorf("%s; CI installs it (.ci/run)", missing)
		}
		fmt.Printf("skipped: %s, so the %d mermaid diagrams were not rendered here (CI renders them all).\n", missing, len(diagrams))
		fmt.Println("To check them on this machine: install Node.js 18.19 or later and Chromium, then run make diagrams.")
		return nil
	}
	if err := install(); err != nil {
		return err
	}
	if pngDir != "" {
		if err := os.MkdirAll(pngDir, 0o755); err != nil {
			return err
		}
		if pngDir, err = filepath.Abs(pngDir); err != nil {
			return err
		}
	}
	results, err := render(diagrams, chromium, pngDir)
	if err != nil {
		return err
	}
	return report(diagrams, results, pngDir)
}

// collect reads every mermaid block of the READMEs and of docs/, in file
// order, one entry per distinct block.
func collect(root string) ([]*diagram, error) {
	files := []string{"README.md", "README.zh-CN.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	byCode := map[string]*diagram{}
	var all []*diagram
	for _, f := range files {
		blocks, err := mermaidBlocks(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		// Names are unique per file: docs/en/03-deltafifo.md's second
		// block is 03-deltafifo-2, docs/bench/scale.md's first
		// bench-scale-1, and a Chinese block only appears under its own
		// name (zh-…) if it differs from the English one.
		base := strings.TrimSuffix(strings.TrimPrefix(filepath.ToSlash(f), "docs/"), ".md")
		base = strings.ReplaceAll(strings.TrimPrefix(base, "en/"), "/", "-")
		for i, b := range blocks {
			place := fmt.Sprintf("%s:%d", f, b.line)
			if d, ok := byCode[b.code]; ok {
				d.Places = append(d.Places, place)
				continue
			}
			d := &diagram{Name: fmt.Sprintf("%s-%d", base, i+1), Code: b.code, Places: []string{place}}
			byCode[b.code] = d
			all = append(all, d)
		}
	}
	return all, nil
}

type block struct {
	line int
	code string
}

// mermaidBlocks returns the ```mermaid fenced blocks of a markdown file.
func mermaidBlocks(path string) ([]block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var blocks []block
	var cur *block
	var body strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case cur == nil && line == "```mermaid":
			cur = &block{line: n}
			body.Reset()
		case cur != nil && line == "```":
			cur.code = body.String()
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(sc.Text())
			body.WriteByte('\n')
		}
	}
	return blocks, sc.Err()
}

// tools finds Chromium, and reports what is missing, if anything.
func tools() (browser, missing string) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", "Node.js is not installed"
	}
	if v, ok := nodeVersionOK(); !ok {
		return "", fmt.Sprintf("Node.js %s is too old for mermaid-cli (it needs 18.19 or later)", v)
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", "npm is not installed"
	}
	if path, ok := chromium.Find(); ok {
		return path, ""
	}
	return "", "Chromium is not installed"
}

// nodeVersionOK reports node's version and whether mermaid-cli 11 runs on
// it (its package.json asks for ^18.19 || >=20).
func nodeVersionOK() (string, bool) {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "(unknown)", false
	}
	v := strings.TrimSpace(string(out))
	var major, minor int
	if _, err := fmt.Sscanf(v, "v%d.%d", &major, &minor); err != nil {
		return v, false
	}
	return v, major > 18 || (major == 18 && minor >= 19)
}

// install runs npm ci in tools/mermaid unless node_modules already holds
// what package-lock.json pins (a stamp file records the lock's hash).
func install() error {
	lock, err := os.ReadFile(filepath.Join(toolsDir, "package-lock.json"))
	if err != nil {
		return err
	}
	sum := sha256.Sum256(lock)
	want := hex.EncodeToString(sum[:])
	stamp := filepath.Join(toolsDir, "node_modules", ".installed-lock-sha256")
	if got, err := os.ReadFile(stamp); err == nil && string(got) == want {
		return nil
	}
	fmt.Println("installing mermaid-cli into tools/mermaid/node_modules (npm ci, once)")
	cmd := exec.Command("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = toolsDir
	cmd.Env = append(os.Environ(), "PUPPETEER_SKIP_DOWNLOAD=true")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("npm ci in %s: %w", toolsDir, err)
	}
	return os.WriteFile(stamp, []byte(want), 0o644)
}

// render runs render.mjs on every diagram, in one browser.
func render(diagrams []*diagram, chromium, pngDir string) (map[string]result, error) {
	input, err := json.Marshal(diagrams)
	if err != nil {
		return nil, err
	}
	args := []string{"render.mjs"}
	if pngDir != "" {
		args = append(args, "--png", pngDir)
	}
	cmd := exec.Command("node", args...)
	cmd.Dir = toolsDir
	cmd.Env = append(os.Environ(), "CHROMIUM="+chromium)
	cmd.Stdin = bytes.NewReader(input)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("node %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	results := map[string]result{}
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var r result
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("render.mjs printed %q: %v", line, err)
		}
		results[r.Name] = r
	}
	return results, nil
}

// report prints one line per failing diagram, and fails if there is one.
func report(diagrams []*diagram, results map[string]result, pngDir string) error {
	var failures []string
	widest, widestName := 0.0, ""
	for _, d := range diagrams {
		r, ok := results[d.Name]
		where := strings.Join(d.Places, ", ")
		switch {
		case !ok:
			failures = append(failures, fmt.Sprintf("%s: not rendered (render.mjs stopped early?)", where))
		case !r.OK:
			failures = append(failures, fmt.Sprintf("%s: mermaid cannot render it:\n    %s", where, strings.ReplaceAll(r.Error, "\n", "\n    ")))
		case r.Height == 0 || r.Width/r.Height > maxRatio:
			failures = append(failures, fmt.Sprintf("%s: %.0f×%.0f px in a page 800 px wide, wider than %.0f:1: its text is too small to read on a projector; draw it top-down (flowchart TD) or split it", where, r.Width, r.Height, maxRatio))
		default:
			if ratio := r.Width / r.Height; ratio > widest {
				widest, widestName = ratio, d.Name
			}
		}
	}
	if len(failures) > 0 {
		slices.Sort(failures)
		return fmt.Errorf("%d of %d mermaid diagrams fail:\n  %s", len(failures), len(diagrams), strings.Join(failures, "\n  "))
	}
	fmt.Printf("%d mermaid diagrams render; the widest, %s, is %.1f:1 (at most %.0f:1)\n", len(diagrams), widestName, widest, maxRatio)
	if pngDir != "" {
		fmt.Printf("PNGs in %s\n", pngDir)
	}
	return nil
}
