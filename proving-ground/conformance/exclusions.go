package main

// exclusions.go reads exclusions.txt: which client-go tests do not run
// against our code, and why. The format, one directive per line:
//
//	file tools/cache/fifo_test.go      the client-go file the next lines are about
//	exclude TestFIFO_basic TestFIFO_x  tests (or benchmarks) that do not run
//	exclude *                          the whole file is not ported
//	subtest TestX the case's name      one case (t.Run name, as written in the
//	                                   test) of a test that otherwise runs
//	because <reason>                   why, for the excludes since the last because;
//	    <more reason>                  an indented line continues it
//
// Blank lines and lines starting with # are comments.

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// exclusion is why one test, one case of a test, or one whole file ("*"),
// does not run.
type exclusion struct {
	file, test, reason string
	subtest            string // the t.Run name as written, for a case
	line               int
}

type exclusions struct {
	byFile   map[string]map[string]*exclusion   // file → test (or "*") → why
	subtests map[string]map[string][]*exclusion // file → test → its excluded cases
}

func (e *exclusions) excluded(file, test string) *exclusion {
	if x := e.byFile[file]["*"]; x != nil {
		return x
	}
	return e.byFile[file][test]
}

// wholeFile returns why file is not ported at all, or nil.
func (e *exclusions) wholeFile(file string) *exclusion { return e.byFile[file]["*"] }

func readExclusions(path string) (*exclusions, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	e := &exclusions{byFile: map[string]map[string]*exclusion{}, subtests: map[string]map[string][]*exclusion{}}
	var file string
	var pending, last []*exclusion // excludes waiting for their reason; those that got the last one
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(last) == 0 || len(pending) > 0 {
				return nil, fmt.Errorf("%s:%d: an indented line continues a because line", path, n)
			}
			for _, x := range last {
				x.reason += " " + trimmed
			}
			continue
		}
		verb, rest, _ := strings.Cut(trimmed, " ")
		rest = strings.TrimSpace(rest)
		switch verb {
		case "file":
			if len(pending) > 0 {
				return nil, fmt.Errorf("%s:%d: the excludes above have no because line", path, n)
			}
			file, last = rest, nil
			if e.byFile[file] == nil {
				e.byFile[file] = map[string]*exclusion{}
			}
		case "exclude":
			if file == "" {
				return nil, fmt.Errorf("%s:%d: exclude before any file line", path, n)
			}
			last = nil
			for _, t := range strings.Fields(rest) {
				if e.byFile[file][t] != nil {
					return nil, fmt.Errorf("%s:%d: %s %s is excluded twice", path, n, file, t)
				}
				x := &exclusion{file: file, test: t, line: n}
				e.byFile[file][t] = x
				pending = append(pending, x)
			}
		case "subtest":
			test, sub, _ := strings.Cut(rest, " ")
			sub = strings.TrimSpace(sub)
			if file == "" || sub == "" {
				return nil, fmt.Errorf("%s:%d: subtest needs a file line before it, a test and a case name", path, n)
			}
			last = nil
			if e.subtests[file] == nil {
				e.subtests[file] = map[string][]*exclusion{}
			}
			x := &exclusion{file: file, test: test, subtest: sub, line: n}
			e.subtests[file][test] = append(e.subtests[file][test], x)
			pending = append(pending, x)
		case "because":
			if len(pending) == 0 || rest == "" {
				return nil, fmt.Errorf("%s:%d: a because line needs excludes before it and a reason", path, n)
			}
			for _, x := range pending {
				x.reason = rest
			}
			last, pending = pending, nil
		default:
			return nil, fmt.Errorf("%s:%d: unknown directive %q (want file, exclude, subtest or because)", path, n, verb)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(pending) > 0 {
		return nil, fmt.Errorf("%s: the last excludes have no because line", path)
	}
	for file, tests := range e.byFile {
		if tests["*"] != nil && (len(tests) > 1 || len(e.subtests[file]) > 0) {
			return nil, fmt.Errorf("%s: %s is excluded as a whole and test by test", path, file)
		}
		for test := range e.subtests[file] {
			if tests[test] != nil {
				return nil, fmt.Errorf("%s: %s %s is excluded, and cases of it too", path, file, test)
			}
		}
	}
	return e, nil
}

// skipPattern is the go test -skip expression that skips exactly the
// excluded cases. The testing package splits -skip at each top-level "|"
// into alternatives and each alternative at each "/" into levels, matched
// level by level against a test's name; so each case is one alternative
// that matches its test and every level of its name, whole, and nothing
// else. Each level is quoted (regexp.QuoteMeta escapes "|" and the
// brackets), so a case's name cannot split the expression.
func (e *exclusions) skipPattern() string {
	var alternatives []string
	for _, tests := range e.subtests {
		for _, xs := range tests {
			for _, x := range xs {
				var levels []string
				for _, el := range append([]string{x.test}, strings.Split(runName(x.subtest), "/")...) {
					levels = append(levels, "^"+regexp.QuoteMeta(el)+"$")
				}
				alternatives = append(alternatives, strings.Join(levels, "/"))
			}
		}
	}
	sort.Strings(alternatives) // the same expression every run, so go test's cache holds
	return strings.Join(alternatives, "|")
}

// runName is the name go test gives a t.Run case: spaces become
// underscores (testing's rewrite, for the printable names tests use).
func runName(s string) string { return strings.ReplaceAll(s, " ", "_") }

// What a reason cites: a stage's directory or a file in it, a chapter, and
// the section of the chapter.
var (
	citedPath    = regexp.MustCompile(`\b(?:0[1-8]-[a-z-]+(?:/[a-z_]+)*(?:\.go)?|docs/(?:en|zh)/[0-9a-z-]+\.md)\b`)
	citedStage   = regexp.MustCompile(`^0[1-8]-[a-z-]+$`)
	citedSection = "Differences from client-go"
)

// hasAdapter reports whether stages.go gives the stage in dir an adapter.
func hasAdapter(dir string) bool {
	for _, s := range stages {
		if strings.HasPrefix(s.dir, dir) && s.adapter != "" {
			return true
		}
	}
	return false
}

// checkReasons reads what each reason cites, which is all of a reason that
// a program can check. It returns an error for a citation that points
// nowhere (a file that is gone, a chapter without the section named), and a
// notice for a reason that waits for a stage ("not built yet") which has
// since been built, or for a stage's adapter ("adapter is not written yet")
// which stages.go now names: the tests it keeps out may run now (-excluded
// tries them).
func checkReasons(root string, ex *exclusions) (notices []string, err error) {
	var bad []string
	seen := map[*exclusion]bool{}
	check := func(x *exclusion) {
		if seen[x] {
			return
		}
		seen[x] = true
		for _, p := range citedPath.FindAllString(x.reason, -1) {
			info, statErr := os.Stat(filepath.Join(root, p))
			waits := citedStage.MatchString(p) && strings.Contains(x.reason, "not built yet")
			waitsAdapter := citedStage.MatchString(p) && strings.Contains(x.reason, "adapter is not written yet")
			switch {
			case statErr != nil && waits:
				// A stage still to come: the reason is true.
			case waitsAdapter && hasAdapter(p):
				notices = append(notices, fmt.Sprintf("exclusions.txt:%d says %s's adapter is not written yet, but it is: run with -excluded to see whether its tests run now", x.line, p))
			case statErr != nil:
				bad = append(bad, fmt.Sprintf("exclusions.txt:%d: the reason cites %s, which does not exist", x.line, p))
			case strings.HasSuffix(p, ".md") && strings.Contains(x.reason, citedSection):
				text, readErr := os.ReadFile(filepath.Join(root, p))
				if readErr != nil || !strings.Contains(string(text), "\n## "+citedSection+"\n") {
					bad = append(bad, fmt.Sprintf("exclusions.txt:%d: the reason cites %s, %q, which has no such section", x.line, p, citedSection))
				}
			case info.IsDir() && waits:
				notices = append(notices, fmt.Sprintf("exclusions.txt:%d says %s is not built yet, but it is: run with -excluded to see whether its tests run now", x.line, p))
			}
		}
	}
	for _, tests := range ex.byFile {
		for _, x := range tests {
			check(x)
		}
	}
	for _, tests := range ex.subtests {
		for _, xs := range tests {
			for _, x := range xs {
				check(x)
			}
		}
	}
	sort.Strings(bad)
	sort.Strings(notices)
	notices = slices.Compact(notices) // one line per line of exclusions.txt
	if len(bad) > 0 {
		return nil, fmt.Errorf("exclusions whose reasons cite what is not there:\n  %s", strings.Join(bad, "\n  "))
	}
	return notices, nil
}
