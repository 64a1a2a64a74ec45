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
	"regexp"
	"slices"
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
// excluded cases. -skip splits on "/" and matches level by level, so the
// cases are grouped into one alternation per level; that matches the cross
// product of the levels, which must be the cases themselves and no more.
func (e *exclusions) skipPattern() (string, error) {
	var paths [][]string
	seen := map[string]bool{}
	for _, tests := range e.subtests {
		for _, xs := range tests {
			for _, x := range xs {
				p := append([]string{x.test}, strings.Split(runName(x.subtest), "/")...)
				paths = append(paths, p)
				seen[strings.Join(p, "/")] = true
			}
		}
	}
	if len(paths) == 0 {
		return "", nil
	}
	var levels [][]string
	for _, p := range paths {
		if len(p) != len(paths[0]) {
			return "", fmt.Errorf("excluded cases at different depths cannot share one -skip expression")
		}
		for i, el := range p {
			if len(levels) <= i {
				levels = append(levels, nil)
			}
			if !slices.Contains(levels[i], el) {
				levels[i] = append(levels[i], el)
			}
		}
	}
	product := 1
	for _, l := range levels {
		product *= len(l)
	}
	if product != len(seen) {
		return "", fmt.Errorf("the excluded cases cannot be skipped exactly by one -skip expression (it would skip %d cases for %d)", product, len(seen))
	}
	var parts []string
	for _, l := range levels {
		var quoted []string
		for _, el := range l {
			quoted = append(quoted, regexp.QuoteMeta(el))
		}
		parts = append(parts, "^("+strings.Join(quoted, "|")+")$")
	}
	return strings.Join(parts, "/"), nil
}

// runName is the name go test gives a t.Run case: spaces become
// underscores (testing's rewrite, for the printable names tests use).
func runName(s string) string { return strings.ReplaceAll(s, " ", "_") }
