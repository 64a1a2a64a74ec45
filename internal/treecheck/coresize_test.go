package treecheck

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Each stage's package doc states its size beside the code it mirrors, so
// that a reader knows what there is to read: "about N lines of code" of
// ours (non-blank lines that are not only a comment, in the non-test,
// non-generated files), and "M in client-go v0.37.2's" files (counted the
// same way, exactly). This test counts both and holds the docs to them: ours
// within a twentieth (a doc need not change with every edit), theirs exact.
// Two stages have a goal as well: stage 06's informer no bigger than
// client-go's shared_informer.go and controller.go, and stage 08's
// controller no more than 1.3 times sample-controller's controller.go.

type sizeClaim struct {
	pkg string // directory, relative to the repository
	// files limits ours to these files of pkg; nil is every file.
	files []string
	// theirs are the mirrored files: in client-go v0.37.2, or, with
	// sample, in sample-controller v0.37.1.
	theirs []string
	sample bool
	// goal, when not 0, is the most ours may be, as a multiple of theirs.
	goal float64
}

var sizeClaims = []sizeClaim{
	{pkg: "01-listwatch", theirs: []string{"tools/cache/listwatch.go", "util/watchlist/watch_list.go"}},
	{pkg: "01-listwatch/pager", theirs: []string{"tools/pager/pager.go"}},
	{pkg: "02-reflector", theirs: []string{"tools/cache/reflector.go", "tools/cache/retry_with_deadline.go"}},
	{pkg: "03-deltafifo", theirs: []string{"tools/cache/delta_fifo.go", "tools/cache/the_real_fifo.go"}},
	{pkg: "04-indexer", theirs: []string{"tools/cache/thread_safe_store.go", "tools/cache/store.go", "tools/cache/index.go", "tools/cache/listers.go"}},
	{pkg: "05-processor", theirs: []string{"tools/cache/shared_informer.go", "tools/cache/synctrack/synctrack.go"}},
	{pkg: "06-sharedinformer", theirs: []string{"tools/cache/shared_informer.go", "tools/cache/controller.go"}, goal: 1},
	{pkg: "07-factory", theirs: []string{"informers/factory.go"}},
	{pkg: "07-factory/dynamicinformer", theirs: []string{"dynamic/dynamicinformer/informer.go"}},
	{pkg: "08-workqueue-controller/workqueue", theirs: []string{"util/workqueue/queue.go", "util/workqueue/delaying_queue.go",
		"util/workqueue/rate_limiting_queue.go", "util/workqueue/default_rate_limiters.go", "util/workqueue/metrics.go"}},
	{pkg: "08-workqueue-controller/controller", files: []string{"controller.go", "handlers.go", "run.go", "sync.go", "lifecycle.go"},
		theirs: []string{"controller.go"}, sample: true, goal: 1.3},
}

// sampleControllerLines is sample-controller v0.37.1's controller.go,
// counted as codeLines counts, for a machine whose module cache lacks it
// (go mod download k8s.io/sample-controller@v0.37.1 fetches it; then the
// test counts it itself).
const sampleControllerLines = 264

var (
	aboutOurs  = regexp.MustCompile(`about ([\d,]+) lines of code`)
	theirCount = regexp.MustCompile(`([\d,]+) in (client-go v0\.37\.2|sample-controller v0\.37\.1)'s`)
)

// codeLines counts a file's lines that are neither blank nor only a
// comment.
func codeLines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "//") {
			n++
		}
	}
	return n
}

func oursLines(t *testing.T, c sizeClaim) int {
	t.Helper()
	files := c.files
	if files == nil {
		paths, _ := filepath.Glob(filepath.Join(root, c.pkg, "*.go"))
		for _, p := range paths {
			b, _ := os.ReadFile(p)
			if strings.HasSuffix(p, "_test.go") || strings.Contains(string(b), "\n// Code generated") || strings.HasPrefix(string(b), "// Code generated") {
				continue
			}
			files = append(files, filepath.Base(p))
		}
	}
	n := 0
	for _, f := range files {
		n += codeLines(t, filepath.Join(root, c.pkg, f))
	}
	return n
}

func moduleDir(t *testing.T, module string) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), module)
}

func theirLines(t *testing.T, c sizeClaim) (int, bool) {
	t.Helper()
	dir := moduleDir(t, "k8s.io/client-go@v0.37.2")
	if c.sample {
		dir = moduleDir(t, "k8s.io/sample-controller@v0.37.1")
		if _, err := os.Stat(filepath.Join(dir, "controller.go")); err != nil {
			return sampleControllerLines, false
		}
	}
	n := 0
	for _, f := range c.theirs {
		n += codeLines(t, filepath.Join(dir, f))
	}
	return n, true
}

func number(s string) int {
	n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return n
}

func TestStagesStateTheirSize(t *testing.T) {
	for _, c := range sizeClaims {
		t.Run(c.pkg, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(root, c.pkg, "doc.go"))
			if err != nil {
				t.Fatal(err)
			}
			doc := strings.Join(strings.Fields(strings.ReplaceAll(string(b), "//", "")), " ")
			ours := oursLines(t, c)
			theirs, counted := theirLines(t, c)
			stated := aboutOurs.FindStringSubmatch(doc)
			statedTheirs := theirCount.FindStringSubmatch(doc)
			want := fmt.Sprintf("about %s lines of code … %s in …'s", commas(ours), commas(theirs))
			switch {
			case stated == nil || statedTheirs == nil:
				t.Fatalf("doc.go states no size; measured: %s", want)
			case abs(number(stated[1])-ours)*20 > ours:
				t.Errorf("doc.go says about %s lines of code; there are %d (say about %s)", stated[1], ours, commas(ours))
			case counted && number(statedTheirs[1]) != theirs:
				t.Errorf("doc.go says %s in %s's files; there are %s", statedTheirs[1], statedTheirs[2], commas(theirs))
			}
			if c.goal > 0 && float64(ours) > c.goal*float64(theirs) {
				t.Errorf("%d lines of code, over the goal of %.1f times the %d it mirrors", ours, c.goal, theirs)
			}
		})
	}
}

// TestCodeLinesCountsCode: blank lines and comments are not code.
func TestCodeLinesCountsCode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.go")
	os.WriteFile(p, []byte("// Package x.\npackage x\n\n// f does.\nfunc f() {\n\t// why\n\tg() // inline\n}\n"), 0o644)
	if n := codeLines(t, p); n != 4 {
		t.Errorf("codeLines = %d, want 4 (package, func, g(), })", n)
	}
}

func commas(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
