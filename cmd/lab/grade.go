package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
)

// A check runs the lab's graded tests with go test -json and turns the
// stream into a report a learner can act on: which graded test and which
// scenario failed, with the test's own message (they print what client-go
// did and what ours did, -client-go +ours), the first failures in full and
// the rest by name, and a last line that says what to do next.

// testEvent is one line of go test -json (cmd/test2json).
type testEvent struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// result is what happened to one test or subtest.
type result struct {
	name   string
	failed bool
	passed bool
	// hung: still running when go test's timeout fired (counted as failed).
	hung   bool
	output []string
}

// grade is a check's outcome.
type grade struct {
	tests      map[string]*result // by full name ("TestX/case")
	order      []string
	buildError []string // a build that failed: the compiler's messages
	ran        int      // graded top-level tests that ran
	timedOut   bool
	raced      bool // the second run, under -race, after a plain pass
}

func (g *grade) passed(l *Lab) bool {
	if len(g.buildError) > 0 || g.timedOut || g.ran < len(l.Tests) {
		return false
	}
	for _, name := range l.Tests {
		if r := g.tests[name]; r == nil || !r.passed {
			return false
		}
	}
	return true
}

// grade runs the lab's check as it grades a learner: the graded tests, and
// when they pass and the lab asks for it, the same again under -race.
func (l *Lab) grade(root, overlay string, extra ...string) (*grade, error) {
	g, _, err := runChecksWith(root, l, l.Flags, overlay, extra...)
	if err != nil || !l.Race || !g.passed(l) {
		return g, err
	}
	g, _, err = runChecksWith(root, l, append(slices.Clone(l.Flags), "-race"), overlay, extra...)
	if g != nil {
		g.raced = true
	}
	return g, err
}

// runChecksWith runs the graded tests in root with flags in place of the
// lab's own, with an overlay file when given (grading a version without
// writing it into the tree), and returns the outcome and go test's output.
func runChecksWith(root string, l *Lab, flags []string, overlay string, extra ...string) (*grade, string, error) {
	args := append(append([]string{"test", "-json", "-timeout", l.Timeout}, l.goTestArgsWith(flags)...), extra...)
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	args = append(args, l.Packages...)
	cmd := exec.Command(goCommand(), args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
		return nil, "", fmt.Errorf("running go test: %w", err)
	}
	g := parseEvents(bytes.NewReader(out), l)
	// Build errors come on stderr when go test could not even start.
	if s := strings.TrimSpace(stderr.String()); s != "" && len(g.order) == 0 && len(g.buildError) == 0 {
		g.buildError = strings.Split(s, "\n")
	}
	return g, string(out) + stderr.String(), nil
}

func goCommand() string {
	if g := os.Getenv("GO"); g != "" {
		return g
	}
	return "go"
}

func parseEvents(r io.Reader, l *Lab) *grade {
	g := &grade{tests: map[string]*result{}}
	graded := map[string]bool{}
	for _, t := range l.Tests {
		graded[t] = true
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var e testEvent
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		if e.Action == "build-output" {
			g.buildError = append(g.buildError, strings.TrimRight(e.Output, "\n"))
			continue
		}
		// The timeout's panic comes as the output of the test that was
		// running, or of none.
		if e.Action == "output" && strings.Contains(e.Output, "panic: test timed out") {
			g.timedOut = true
		}
		if e.Test == "" {
			if e.Action == "output" && (strings.Contains(e.Output, "[build failed]") || strings.HasPrefix(e.Output, "# ")) && len(g.order) == 0 {
				g.buildError = append(g.buildError, strings.TrimRight(e.Output, "\n"))
			}
			continue
		}
		r := g.tests[e.Test]
		if r == nil {
			r = &result{name: e.Test}
			g.tests[e.Test] = r
			g.order = append(g.order, e.Test)
		}
		switch e.Action {
		case "run":
			if graded[e.Test] {
				g.ran++
			}
		case "pass":
			r.passed = true
		case "fail":
			r.failed = true
		case "output":
			line := strings.TrimRight(e.Output, "\n")
			if strings.HasPrefix(strings.TrimSpace(line), "=== ") || strings.HasPrefix(strings.TrimSpace(line), "--- ") {
				continue
			}
			r.output = append(r.output, line)
		}
	}
	if g.timedOut {
		// The tests that started and never ended are the ones that hung.
		for _, r := range g.tests {
			if !r.passed && !r.failed {
				r.failed, r.hung = true, true
			}
		}
	}
	return g
}

// How much of a failure to show: the first failures in full, the rest by
// name, so that the first thing to fix is on the screen.
const (
	fullFailures  = 2
	linesAFailure = 30
)

// report writes the outcome for a person.
func (g *grade) report(w io.Writer, l *Lab, m messages) {
	fmt.Fprintf(w, "%s %02d: %s\n\n", m.lab, l.N, l.Title)
	if g.raced && !g.passed(l) {
		fmt.Fprintln(w, m.raceFails)
		fmt.Fprintln(w)
	}
	if len(g.buildError) > 0 {
		fmt.Fprintln(w, m.doesNotCompile)
		for _, line := range g.buildError {
			fmt.Fprintln(w, "  "+line)
		}
		return
	}
	shown := 0
	failedTop, notRun := 0, 0
	for _, top := range l.Tests {
		r := g.tests[top]
		switch {
		case r == nil:
			fmt.Fprintf(w, "  ? %s: %s\n", top, m.didNotRun)
			notRun++
			continue
		case r.passed:
			fmt.Fprintf(w, "  ✓ %s\n", top)
			continue
		}
		failedTop++
		subs := g.failedSubtests(top)
		if len(subs) == 0 {
			subs = []*result{r}
			fmt.Fprintf(w, "  ✗ %s\n", top)
		} else {
			fmt.Fprintf(w, "  ✗ %s: %s\n", top, fmt.Sprintf(m.casesFail, len(subs), g.subtestCount(top)))
		}
		for _, s := range subs {
			if s.name != top {
				fmt.Fprintf(w, "      ✗ %s%s\n", caseName(s.name), hungNote(s, m))
			} else if s.hung {
				fmt.Fprintf(w, "      %s\n", m.hung)
			}
			if shown >= fullFailures {
				// Past the budget, still the panic: it is why the tests
				// after it did not run, and their lines say "see above".
				printLines(w, condensePanic(panicPart(s.output), l.Stage), m)
				continue
			}
			shown++
			printLines(w, condensePanic(condenseLogs(trimOutput(s.output), m), l.Stage), m)
		}
		if subs[0] != r {
			// A panic in a subtest (a deadlock under synctest) is printed
			// after the subtest's failure, as the output of the test around it.
			printLines(w, condensePanic(panicPart(r.output), l.Stage), m)
		}
	}
	fmt.Fprintln(w)
	if g.timedOut {
		fmt.Fprintln(w, m.timedOut)
	}
	switch {
	case failedTop+notRun == 0 && !g.timedOut && g.raced:
		fmt.Fprintf(w, m.allPassRaced+"\n", len(l.Tests), l.N)
	case failedTop+notRun == 0 && !g.timedOut:
		fmt.Fprintf(w, m.allPass+"\n", len(l.Tests), l.N)
	case notRun > 0:
		fmt.Fprintf(w, m.notYetNotRun+"\n", failedTop, len(l.Tests), notRun, l.N)
	default:
		fmt.Fprintf(w, m.notYet+"\n", failedTop, len(l.Tests), l.N)
	}
}

func printLines(w io.Writer, lines []string, m messages) {
	for i, line := range lines {
		if i == linesAFailure {
			fmt.Fprintf(w, "          … %s\n", fmt.Sprintf(m.moreLines, len(lines)-linesAFailure))
			break
		}
		fmt.Fprintln(w, "        "+line)
	}
}

func hungNote(r *result, m messages) string {
	if r.hung {
		return ": " + m.hung
	}
	return ""
}

// failedSubtests are the deepest failed subtests under top, in run order.
func (g *grade) failedSubtests(top string) []*result {
	var out []*result
	for _, name := range g.order {
		r := g.tests[name]
		if !r.failed || !strings.HasPrefix(name, top+"/") {
			continue
		}
		deeper := false
		for _, other := range g.order {
			if strings.HasPrefix(other, name+"/") && g.tests[other].failed {
				deeper = true
				break
			}
		}
		if !deeper {
			out = append(out, r)
		}
	}
	return out
}

// subtestCount is how many cases top has: its subtests without subtests of
// their own, as failedSubtests counts them (a name with a slash,
// "initial=0/pWrite=0.5", is a subtest in a subtest).
func (g *grade) subtestCount(top string) int {
	n := 0
	for _, name := range g.order {
		if !strings.HasPrefix(name, top+"/") {
			continue
		}
		leaf := true
		for _, other := range g.order {
			if strings.HasPrefix(other, name+"/") {
				leaf = false
				break
			}
		}
		if leaf {
			n++
		}
	}
	return n
}

// caseName turns a subtest's name back into the words it was given.
func caseName(full string) string {
	_, sub, _ := strings.Cut(full, "/")
	return strings.ReplaceAll(sub, "_", " ")
}

// trimOutput drops go test's indentation and empty leading lines.
func trimOutput(lines []string) []string {
	var out []string
	for _, l := range lines {
		l = strings.TrimPrefix(l, "    ")
		if len(out) == 0 && strings.TrimSpace(l) == "" {
			continue
		}
		out = append(out, l)
	}
	return out
}

// failedNames lists failed graded tests and cases, for tests of the grader.
func (g *grade) failedNames() []string {
	var out []string
	for name, r := range g.tests {
		if r.failed {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
