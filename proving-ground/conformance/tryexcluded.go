package main

// tryexcluded.go is -excluded: it tries every excluded test and case of the
// built stages against our code, one at a time, and reports which of them
// pass today. An exclusion is a claim that a test cannot say anything about
// our code; a test that compiles and passes disproves it, and its exclusion
// could go. The ordinary run never does this (it would compile and run
// tests that are expected to fail), so it is an option.
//
// For each stage, the client-go files are rewritten again with nothing
// excluded. Where an excluded test does not compile against our package
// (it names something we leave out), the compiler's errors (-gcflags=-e
// lists them all) are traced back to the declaration they are in, and the
// excluded tests that reach that declaration are dropped and reported with
// the error; then it compiles again. The test binary is built once
// (go test -c) and each excluded test, benchmark or case runs on its own
// with its own time limit, so one that hangs does not hide the others.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// tried is what became of one excluded test or case.
type tried struct {
	x      *exclusion
	result string // passes, fails, skips itself, does not build, not tried
	detail string // the compiler error, or the end of the failure's output
}

// stageTry is what -excluded needs of the ordinary run.
type stageTry struct {
	root, tmp, modfile string
	fset               *token.FileSet
	pkgNames           map[string]string
	ex                 *exclusions
	o                  options
}

// tryExcluded tries the excluded tests of every built stage and prints what
// became of each; it returns how many pass.
func (st *stageTry) tryExcluded(ctx context.Context, w io.Writer, bs []*built) (int, error) {
	var all []tried
	for _, b := range bs {
		ts, err := st.tryStage(ctx, b)
		if err != nil {
			return 0, err
		}
		all = append(all, ts...)
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i].x, all[j].x
		if a.line != b.line {
			return a.line < b.line
		}
		return a.test+"/"+a.subtest < b.test+"/"+b.subtest
	})
	fmt.Fprintln(w, "Excluded tests, each tried on its own against our code (-excluded):")
	passing := 0
	for _, t := range all {
		name := t.x.test
		if t.x.subtest != "" {
			name += fmt.Sprintf(", case %q", t.x.subtest)
		}
		fmt.Fprintf(w, "  exclusions.txt:%-4d %-15s %s %s\n", t.x.line, t.result, t.x.file, name)
		if t.detail != "" {
			for _, l := range strings.Split(strings.TrimRight(t.detail, "\n"), "\n") {
				fmt.Fprintf(w, "        %s\n", l)
			}
		}
		if t.result == "passes" {
			passing++
		}
	}
	fmt.Fprintln(w, "(Files excluded as a whole are not tried: no stage runs them.)")
	if passing > 0 {
		fmt.Fprintf(w, "%d excluded tests pass against our code: their exclusions could go (port them, or say in the reason why a pass proves nothing).\n", passing)
	} else {
		fmt.Fprintln(w, "No excluded test passes against our code.")
	}
	return passing, nil
}

// tryStage compiles b's test package with its excluded tests back in, as
// many of them as compile, and runs each of those on its own.
func (st *stageTry) tryStage(ctx context.Context, b *built) ([]tried, error) {
	var results []tried
	xs := b.excludedToTry(st.ex, st.o.run)
	if len(xs) == 0 {
		return nil, nil
	}

	// The declarations of every file, to trace a compiler error back to the
	// excluded tests that reach it. A test that runs anyway (TestMain, init,
	// tests not excluded) reaches what it reaches whatever is excluded.
	var units []*unit
	byFile := map[string][]*unit{}
	for _, f := range b.files {
		us := unitsOf(f)
		byFile[overlayName(f.rel)] = us
		units = append(units, us...)
	}
	always := reach(units, func(u *unit) bool {
		if u.recv != "" || len(u.names) != 1 {
			return false
		}
		n := u.names[0]
		if n == "TestMain" || n == "init" {
			return true
		}
		return u.file.tested && testKind(n) != "" && b.runsHere(n) && b.excluded(st.ex, u.file.rel, n) == nil
	})

	broken := map[string]string{} // file + " " + test → the compiler error that keeps it out
	key := func(file, test string) string { return file + " " + test }
	binary := filepath.Join(st.tmp, strings.ReplaceAll(b.dir, "/", "_")+".excluded.test")
	for attempt := 0; ; attempt++ {
		runs := b.triedBuild(st.ex, xs, func(file, name string) bool { return broken[key(file, name)] != "" })
		p, err := prepare(st.fset, b.files, b.target(), runs, st.pkgNames)
		if err != nil {
			return nil, err
		}
		overlay := map[string]string{}
		if err := b.writeOverlay(st.root, st.tmp, ".excluded", p, overlay); err != nil {
			return nil, err
		}
		overlayFile := filepath.Join(st.tmp, strings.ReplaceAll(b.dir, "/", "_")+".excluded.json")
		data, err := json.Marshal(map[string]any{"Replace": overlay})
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(overlayFile, data, 0o644); err != nil {
			return nil, err
		}
		cmd := exec.CommandContext(ctx, goBinary(), "test", "-c", "-race", "-vet=off", "-gcflags=-e",
			"-overlay", overlayFile, "-mod=mod", "-modfile", st.modfile, "-o", binary, "./"+b.dir)
		cmd.Dir = st.root
		out, err := cmd.CombinedOutput()
		if ctx.Err() != nil {
			return nil, fmt.Errorf("interrupted")
		}
		if err == nil {
			break
		}
		// Drop every excluded test that reaches a declaration with an error.
		dropped := false
		for _, e := range compileErrors(out) {
			var candidates []*exclusion
			for _, x := range xs {
				if x.subtest == "" && broken[key(x.file, x.test)] == "" {
					candidates = append(candidates, x)
				}
			}
			for _, x := range blame(units, always, unitAt(st.fset, byFile[e.file], e.line), candidates) {
				broken[key(x.file, x.test)] = e.text
				dropped = true
			}
		}
		if !dropped || attempt > 20 {
			return nil, fmt.Errorf("%s does not build with its excluded tests, and the errors are not in an excluded test:\n%s", b.dir, out)
		}
	}

	for _, x := range xs {
		t := tried{x: x}
		if e := broken[key(x.file, x.test)]; e != "" {
			t.result, t.detail = "does not build", e
			results = append(results, t)
			continue
		}
		t.result, t.detail = st.runOne(ctx, binary, filepath.Join(st.root, b.dir), x)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("interrupted")
		}
		results = append(results, t)
	}
	return results, nil
}

// excludedToTry is every excluded test and case of the files the stage runs
// that go test -run run would reach (all of them when run is empty).
func (b *built) excludedToTry(ex *exclusions, run string) []*exclusion {
	var xs []*exclusion
	for _, file := range b.tests {
		for _, t := range b.prepared.tests[file] {
			if !b.runsHere(t) {
				continue
			}
			if x := b.excluded(ex, file, t); x != nil && selectedCase(run, t, "") {
				xs = append(xs, x)
			}
			for _, x := range ex.subtests[file][t] {
				if selectedCase(run, t, x.subtest) {
					xs = append(xs, x)
				}
			}
		}
	}
	return xs
}

// triedBuild says which tests the binary of -excluded compiles: those that
// run anyway and the excluded ones to try (xs), less those broken keeps out
// because they do not compile. An excluded test that -run left out stays
// out, as in the ordinary run: compiled in, an error of its own could only be
// blamed on a test nobody asked to try, and would stop the rest.
func (b *built) triedBuild(ex *exclusions, xs []*exclusion, broken func(file, name string) bool) func(file, name string) bool {
	try := map[[2]string]bool{}
	for _, x := range xs {
		try[[2]string{x.file, x.test}] = true
	}
	return func(file, name string) bool {
		if !b.runsHere(name) || broken(file, name) {
			return false
		}
		return b.excluded(ex, file, name) == nil || try[[2]string{file, name}]
	}
}

// runOne runs one excluded test, benchmark or case in the test binary, in
// the package's directory as go test would, and says how it ended.
func (st *stageTry) runOne(ctx context.Context, binary, dir string, x *exclusion) (string, string) {
	name := x.test
	args := []string{"-test.v", "-test.count=1", "-test.timeout=" + st.o.excludedTimeout.String()}
	if strings.HasPrefix(x.test, "Benchmark") {
		args = append(args, "-test.run=^$", "-test.bench=^"+regexp.QuoteMeta(x.test)+"$", "-test.benchtime=1x")
	} else {
		pattern := "^" + regexp.QuoteMeta(x.test) + "$"
		if x.subtest != "" {
			name += "/" + runName(x.subtest)
			for _, level := range strings.Split(runName(x.subtest), "/") {
				pattern += "/^" + regexp.QuoteMeta(level) + "$"
			}
		}
		args = append(args, "-test.run="+pattern)
	}
	// -test.timeout stops a test that hangs, but go test's alarm is off
	// while benchmarks run (BenchmarkSharedIndexInformer waits for ever
	// for a sync), so the binary gets a limit of its own too.
	limit := st.o.excludedTimeout + 10*time.Second
	runCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(runCtx, binary, args...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	text := out.String()
	took := time.Since(start).Round(100 * time.Millisecond)
	switch {
	case strings.Contains(text, "--- FAIL: "+name+" "):
		if p := panicLine(text); p != "" {
			return "fails", strings.TrimPrefix(p, ", ") + "\n" + lastLines(text, 6)
		}
		return "fails", lastLines(text, 6)
	case ctx.Err() == nil && runCtx.Err() != nil:
		return "fails", fmt.Sprintf("still running after %s: stopped\n%s", limit, lastLines(text, 6))
	case err != nil:
		return "fails", fmt.Sprintf("after %s: %v%s\n%s", took, err, panicLine(text), lastLines(text, 6))
	case strings.Contains(text, "--- SKIP: "+name+" "):
		return "skips itself", ""
	case strings.Contains(text, "--- PASS: "+name+" "):
		return "passes", ""
	case strings.HasPrefix(x.test, "Benchmark") && regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(x.test)+`(-\d+)?\s+\d+`).MatchString(text):
		return "passes", "" // a benchmark that ran prints its result line, not PASS
	}
	return "not tried", "go test ran no test of that name:\n" + lastLines(text, 3)
}

// blame returns the excluded tests among candidates that reach u, a
// declaration the compiler found an error in, when what always runs (always)
// does not reach it: those tests are what brought it into the build.
func blame(units []*unit, always map[*unit]bool, u *unit, candidates []*exclusion) []*exclusion {
	if u == nil || always[u] {
		return nil
	}
	var out []*exclusion
	for _, x := range candidates {
		reached := reach(units, func(v *unit) bool {
			return always[v] || (v.recv == "" && v.file.tested && v.file.rel == x.file && len(v.names) == 1 && v.names[0] == x.test)
		})
		if reached[u] {
			out = append(out, x)
		}
	}
	return out
}

// compileError is one error of the compiler, in one of the rewritten files.
type compileError struct {
	file string // its name in the overlay (clientgo_…_test.go)
	line int
	text string
}

var compileErrorLine = regexp.MustCompile(`^(?:.*/)?([^/\s]+\.go):(\d+):\d+: (.*)$`)

func compileErrors(out []byte) []compileError {
	var errs []compileError
	for _, l := range strings.Split(string(out), "\n") {
		m := compileErrorLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		errs = append(errs, compileError{file: m[1], line: n, text: m[1] + ":" + m[2] + ": " + m[3]})
	}
	return errs
}

// unitAt is the declaration of us that holds line.
func unitAt(fset *token.FileSet, us []*unit, line int) *unit {
	for _, u := range us {
		if fset.Position(u.node.Pos()).Line <= line && line <= fset.Position(u.node.End()).Line {
			return u
		}
	}
	return nil
}

// unitsOf is every top-level declaration of f; which of them run does not
// matter here (reach is given its roots).
func unitsOf(f *cgFile) []*unit { return units(f, func(string) bool { return false }) }

// panicLine is ", panic: …" when the output holds a panic (or a test
// binary's timeout, which panics): the line that says why, which the end of
// the output (a goroutine's stack) does not.
func panicLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "panic: ") {
			return ", " + l
		}
	}
	return ""
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
