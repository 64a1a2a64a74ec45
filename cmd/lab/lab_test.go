package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var root = filepath.Join("..", "..")

// overlayFor writes v's files to a temporary directory and returns a go
// build -overlay file that puts them in place of the tree's, so a variant
// is compiled and tested without touching the tree.
func overlayFor(t *testing.T, v variant) string {
	t.Helper()
	dir := t.TempDir()
	replace := map[string]string{}
	absRoot, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	for file, src := range v {
		p := filepath.Join(dir, strings.ReplaceAll(file, "/", "_"))
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		replace[filepath.Join(absRoot, file)] = p
	}
	b, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		t.Fatal(err)
	}
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlay, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return overlay
}

// TestLabs grades, for every lab, its skeleton (must compile and fail with
// the messages a learner is promised), each plausible wrong answer under
// testdata/labNN (must fail), and the solution (must pass, with every graded
// test run).
func TestLabs(t *testing.T) {
	for _, l := range labs {
		t.Run(l.Stage, func(t *testing.T) {
			t.Parallel()
			skeleton, err := l.skeleton(root)
			if err != nil {
				t.Fatal(err)
			}
			// The skeleton and the wrong answers are checked without the
			// lab's flags (-race costs a minute of builds), but for a wrong
			// answer that says it needs them ("//lab:flags -race"): each
			// fails without them, and -race only adds failures. The
			// solution is checked as the learner's code is.
			g, out, err := runChecksWith(root, l, nil, overlayFor(t, skeleton))
			if err != nil {
				t.Fatal(err)
			}
			if len(g.buildError) > 0 {
				t.Fatalf("the skeleton does not compile:\n%s", strings.Join(g.buildError, "\n"))
			}
			if g.passed(l) {
				t.Fatalf("the skeleton passes the graded tests: they grade nothing")
			}
			var report bytes.Buffer
			g.report(&report, l, english)
			for _, want := range l.Expect {
				if !strings.Contains(report.String(), want) {
					t.Errorf("a learner who starts lab %d does not see %q; the check says:\n%s\n(go test said:\n%s)", l.N, want, report.String(), out)
				}
			}

			fixtures, _ := filepath.Glob(filepath.Join("testdata", fmt_lab(l.N), "*.go"))
			if len(fixtures) == 0 {
				t.Errorf("lab %d has no plausible wrong answer in testdata/%s", l.N, fmt_lab(l.N))
			}
			for _, fx := range fixtures {
				wrong, err := l.withBodiesFrom(root, fx)
				if err != nil {
					t.Fatal(err)
				}
				// -failfast: a wrong answer only has to fail once.
				g, out, err := runChecksWith(root, l, fixtureFlags(t, fx), overlayFor(t, wrong), "-failfast")
				if err != nil {
					t.Fatal(err)
				}
				if len(g.buildError) > 0 {
					t.Errorf("%s does not compile:\n%s", fx, strings.Join(g.buildError, "\n"))
					continue
				}
				if g.passed(l) {
					t.Errorf("%s passes lab %d's check: the grader misses that wrong answer\n%s", fx, l.N, out)
				} else {
					t.Logf("%s fails, as it must: %v", filepath.Base(fx), g.failedNames())
				}
			}

			g, out, err = runChecks(root, l, "")
			if err != nil {
				t.Fatal(err)
			}
			if !g.passed(l) {
				t.Errorf("the solution does not pass lab %d's check (ran %d of %d graded tests):\n%s", l.N, g.ran, len(l.Tests), out)
			}
		})
	}
}

func fmt_lab(n int) string { return "lab" + twoDigits(n) }

func twoDigits(n int) string {
	if n < 10 {
		return "0" + string(rune('0'+n))
	}
	return string(rune('0'+n/10)) + string(rune('0'+n%10))
}

// fixtureFlags are the go test flags a wrong answer asks to be checked
// with, on a line "//lab:flags -race" of its own.
func fixtureFlags(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "//lab:flags "); ok {
			return strings.Fields(rest)
		}
	}
	return nil
}
