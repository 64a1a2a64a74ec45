package main

// report.go reads go test -json and prints the table.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

type event struct {
	Action, Package, Test, Output, ImportPath string
}

type results struct {
	status map[string]map[string]string           // package → top-level test → pass, fail or skip
	output map[string]map[string]*strings.Builder // package → test ("" for the package) → output
	failed map[string]bool                        // package → its binary failed (or did not build)
	build  map[string]*strings.Builder            // package → compiler output
}

func parseEvents(data []byte) (*results, error) {
	r := &results{
		status: map[string]map[string]string{},
		output: map[string]map[string]*strings.Builder{},
		failed: map[string]bool{},
		build:  map[string]*strings.Builder{},
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return nil, fmt.Errorf("%v in %q", err, sc.Text())
		}
		if e.Action == "build-output" || e.Action == "build-fail" {
			// ImportPath is "pkg [pkg.test]" for the test build.
			pkg, _, _ := strings.Cut(e.ImportPath, " ")
			if r.build[pkg] == nil {
				r.build[pkg] = &strings.Builder{}
			}
			r.build[pkg].WriteString(e.Output)
			if e.Action == "build-fail" {
				r.failed[pkg] = true
			}
			continue
		}
		if e.Package == "" {
			continue
		}
		top, _, _ := strings.Cut(e.Test, "/")
		if r.output[e.Package] == nil {
			r.output[e.Package] = map[string]*strings.Builder{}
			r.status[e.Package] = map[string]string{}
		}
		switch e.Action {
		case "output":
			b := r.output[e.Package][top]
			if b == nil {
				b = &strings.Builder{}
				r.output[e.Package][top] = b
			}
			b.WriteString(e.Output)
		case "run":
			// go test -json reports a benchmark that succeeds with its
			// run event and output only: no pass event follows.
			if e.Test == top && r.status[e.Package][top] == "" {
				r.status[e.Package][top] = "started" // until it ends, if it ever does
				if strings.HasPrefix(e.Test, "Benchmark") {
					r.status[e.Package][top] = "pass"
				}
			}
		case "pass", "fail", "skip":
			if e.Test == "" {
				if e.Action == "fail" {
					r.failed[e.Package] = true
				}
			} else if e.Test == top {
				r.status[e.Package][top] = e.Action
			}
		}
	}
	return r, sc.Err()
}

// row is one client-go file's line of the table.
type row struct {
	stage, file                      string
	run, passed, failed, excluded    int
	skipped, benchmarks, notSelected int
	failures                         []string
}

const modulePath = "informer-from-scratch/"

// report prints the table and what the reader needs to act on a failure; it
// returns whether anything failed.
func report(w io.Writer, o options, root string, bs []*built, pending []stage, ex *exclusions, res *results, fset *token.FileSet, cgDir string) bool {
	var rows []*row
	anyFailed := false
	var details, outside []string
	for _, b := range bs {
		pkg := modulePath + b.dir
		status := res.status[pkg]
		testFailed := false
		for _, file := range b.tests {
			r := &row{stage: b.dir, file: file}
			for _, t := range b.prepared.tests[file] {
				if !b.runsHere(t) {
					continue // another stage's (stage.only)
				}
				if b.excluded(ex, file, t) != nil {
					r.excluded++
					continue
				}
				r.excluded += len(ex.subtests[file][t]) // cases skipped in a test that runs
				if strings.HasPrefix(t, "Benchmark") && !o.bench {
					r.benchmarks++
					continue
				}
				switch status[t] {
				case "pass":
					r.run++
					r.passed++
				case "skip":
					r.run++
					r.skipped++
				case "fail":
					r.run++
					r.failed++
					r.failures = append(r.failures, t)
				case "started":
					// It began and never ended: the binary died in it (a
					// hang that reached the timeout, a panic elsewhere).
					r.run++
					r.failed++
					r.failures = append(r.failures, t+" (started, never finished: it hung or crashed; its output is below)")
				default:
					if !strings.HasPrefix(t, "Benchmark") && !selectedBy(o.run, t) {
						r.notSelected++ // -run left it out
						continue
					}
					// It never began: the package did not build, or its
					// binary died before reaching it.
					r.run++
					r.failed++
					r.failures = append(r.failures, t+" (never started)")
				}
				if o.verbose {
					fmt.Fprintf(w, "  %-5s %s %s\n", orNone(status[t]), file, t)
				}
			}
			if r.failed > 0 {
				testFailed = true
				for _, t := range r.failures {
					name, _, _ := strings.Cut(t, " ")
					if out := res.output[pkg][name]; out != nil {
						details = append(details, fmt.Sprintf("--- %s %s %s\n%s", b.dir, file, name, tail(out.String(), o.verbose)))
					}
				}
			}
			rows = append(rows, r)
		}
		if build := res.build[pkg]; build != nil && build.Len() > 0 {
			anyFailed = true
			details = append(details, fmt.Sprintf("--- %s does not build with client-go's tests:\n%s", b.dir, build.String()))
		} else if res.failed[pkg] && !testFailed {
			// The binary failed with every test passing: goleak's TestMain
			// found a goroutine left behind, or the binary crashed.
			anyFailed = true
			out := ""
			if o := res.output[pkg][""]; o != nil {
				out = o.String()
			}
			outside = append(outside, b.dir+": failed outside its tests (goleak found a goroutine left behind, or the binary crashed)")
			details = append(details, fmt.Sprintf("--- %s failed outside any test:\n%s", b.dir, tail(out, true)))
		}
	}

	stageW, fileW := len("stage"), len("client-go file")
	for _, r := range rows {
		stageW, fileW = max(stageW, len(r.stage)), max(fileW, len(r.file))
	}
	line := func(stage, file string, run, passed, failed, excluded any) {
		fmt.Fprintf(w, "%-*s  %-*s  %4v  %6v  %6v  %8v\n", stageW, stage, fileW, file, run, passed, failed, excluded)
	}
	line("stage", "client-go file", "run", "passed", "failed", "excluded")
	var total row
	for _, r := range rows {
		line(r.stage, r.file, r.run, r.passed, r.failed, r.excluded)
		total.run += r.run
		total.passed += r.passed
		total.failed += r.failed
		total.excluded += r.excluded
		total.skipped += r.skipped
		total.benchmarks += r.benchmarks
		total.notSelected += r.notSelected
	}
	line("total", "", total.run, total.passed, total.failed, total.excluded)
	fmt.Fprintln(w)
	if total.skipped > 0 {
		fmt.Fprintf(w, "%d tests skipped themselves (t.Skip): counted as run, not as passed.\n", total.skipped)
	}
	if total.benchmarks > 0 {
		fmt.Fprintf(w, "%d benchmarks compiled, not run (-bench runs each once).\n", total.benchmarks)
	}
	if total.notSelected > 0 {
		fmt.Fprintf(w, "%d tests not selected by -run %q.\n", total.notSelected, o.run)
	}

	for _, b := range bs {
		var fixtures []string // client-go's own non-test files, compiled into the tests
		for _, rel := range b.support {
			if !strings.HasSuffix(rel, "_test.go") {
				fixtures = append(fixtures, rel)
			}
		}
		if len(fixtures) > 0 {
			fmt.Fprintf(w, "%s: client-go's %s compiled in as test fixtures, from the module cache (stages.go says why).\n", b.dir, strings.Join(fixtures, ", "))
		}
		if len(b.replaces) > 0 {
			fmt.Fprintf(w, "%s: its adapter declares client-go's helpers %s itself (stages.go says why).\n", b.dir, strings.Join(b.replaces, ", "))
		}
		if len(b.renames) > 0 {
			var calls []string
			for _, old := range sortedKeys(b.renames) {
				calls = append(calls, old+" → "+b.renames[old])
			}
			fmt.Fprintf(w, "%s: calls renamed to the adapter's wrappers: %s (stages.go says why).\n", b.dir, strings.Join(calls, ", "))
		}
		if len(b.prepared.changed) > 0 {
			fmt.Fprintf(w, "%s: rewritten to reach the adapter (stages.go says why), and nothing else:\n  %s\n", b.dir, strings.Join(b.prepared.changed, "\n  "))
		}
		if len(b.imports) > 0 {
			fmt.Fprintf(w, "%s: imports of %s point at our package, where the adapter declares their names (stages.go says why).\n", b.dir, strings.Join(b.imports, ", "))
		}
		if len(b.only) > 0 {
			fmt.Fprintf(w, "%s: runs only %s of %s; the rest is another stage's (stages.go says why).\n", b.dir, strings.Join(b.only, ", "), strings.Join(b.tests, ", "))
		}
	}
	for _, s := range pending {
		tests, benchmarks := 0, 0
		for _, file := range s.tests {
			f, err := readClientGoFile(fset, cgDir, file, true)
			if err != nil {
				continue
			}
			for _, u := range units(f, func(string) bool { return true }) {
				if u.recv == "" && len(u.names) == 1 {
					switch testKind(u.names[0]) {
					case "Test":
						tests++
					case "Benchmark":
						benchmarks++
					}
				}
			}
		}
		why := "not built yet"
		if _, err := os.Stat(filepath.Join(root, s.dir)); err == nil {
			why = "built; its adapter is not written yet"
		}
		fmt.Fprintf(w, "Waiting for %s (%s): %d tests and %d benchmarks in %s.\n",
			s.dir, why, tests, benchmarks, strings.Join(s.tests, ", "))
	}
	var whole []string
	for file := range ex.byFile {
		if x := ex.wholeFile(file); x != nil {
			whole = append(whole, file)
		}
	}
	sort.Strings(whole)
	fmt.Fprintf(w, "Not ported (exclusions.txt says why): %s.\n", strings.Join(whole, ", "))

	if o.verbose {
		fmt.Fprintln(w, "excluded tests:")
		for _, b := range bs {
			for _, file := range b.tests {
				for _, t := range b.prepared.tests[file] {
					if !b.runsHere(t) {
						continue
					}
					if x := b.excluded(ex, file, t); x != nil {
						fmt.Fprintf(w, "  %s %s: %s\n", file, t, x.reason)
					}
					for _, x := range ex.subtests[file][t] {
						fmt.Fprintf(w, "  %s %s, case %q: %s\n", file, t, x.subtest, x.reason)
					}
				}
			}
		}
	}

	// Failures first, then the tests a failure kept from starting.
	failures := outside
	var notStarted []string
	for _, r := range rows {
		for _, t := range r.failures {
			if strings.HasSuffix(t, "(never started)") {
				notStarted = append(notStarted, r.file+": "+t)
			} else {
				failures = append(failures, r.file+": "+t)
			}
		}
	}
	failures = append(failures, notStarted...)
	if len(failures) > 0 {
		anyFailed = true
		fmt.Fprintf(w, "FAILED:\n  %s\n", strings.Join(failures, "\n  "))
	}
	for _, d := range details {
		fmt.Fprint(w, d)
		if !strings.HasSuffix(d, "\n") {
			fmt.Fprintln(w)
		}
	}
	return anyFailed
}

// selectedBy reports whether go test -run run runs the top-level test name.
// An empty run selects all.
func selectedBy(run, name string) bool { return selectedCase(run, name, "") }

// selectedCase reports whether go test -run run reaches case sub of test
// (sub "" for the test itself), as the testing package decides it: the
// expression is split at each slash outside brackets and parentheses, and
// each level must match the name's level at the same depth. A name with
// fewer levels than the expression is reached (go test runs it to look for
// the rest); a bad expression selects all (go test reports it itself).
func selectedCase(run, test, sub string) bool {
	names := []string{test}
	if sub != "" {
		names = append(names, strings.Split(runName(sub), "/")...)
	}
	for i, level := range runLevels(run) {
		if i == len(names) {
			break
		}
		re, err := regexp.Compile(level)
		if err != nil {
			return true
		}
		if !re.MatchString(names[i]) {
			return false
		}
	}
	return true
}

// runLevels splits a -run expression into its levels, as the testing package
// does: at each slash outside brackets and parentheses.
func runLevels(run string) []string {
	var levels []string
	depth, escaped, from := 0, false, 0
	for i, c := range run {
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == '[' || c == '(':
			depth++
		case c == ']' || c == ')':
			depth--
		case c == '/' && depth == 0:
			levels = append(levels, run[from:i])
			from = i + 1
		}
	}
	return append(levels, run[from:])
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// tail keeps the last 40 lines of a failure's output, unless all is set.
func tail(s string, all bool) string {
	lines := strings.SplitAfter(s, "\n")
	if all || len(lines) <= 40 {
		return s
	}
	return fmt.Sprintf("[… %d lines; -v prints them all]\n", len(lines)-40) + strings.Join(lines[len(lines)-40:], "")
}
