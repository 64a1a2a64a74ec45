package main

import (
	"bytes"
	"go/ast"
	"path/filepath"
	"strings"
	"testing"
)

var root = filepath.Join("..", "..")

// TestLabs grades, for every lab, its skeleton (must compile and fail with
// the messages a learner is promised), each plausible wrong answer under
// testdata/labNN (must compile and fail), and the solution (must pass, with
// every graded test run), all in one batch build per lab (batch.go).
func TestLabs(t *testing.T) {
	for _, l := range labs {
		t.Run(l.Stage, func(t *testing.T) {
			t.Parallel()
			skeleton := map[string]string{}
			_, err := l.substitute(root, func(_ source, fd *ast.FuncDecl, name string) (string, error) {
				skeleton[name] = stubBody(l.N, name, l.todo(name), fd)
				return "", nil
			})
			if err != nil {
				t.Fatal(err)
			}
			solution, err := l.solutionBodies(root)
			if err != nil {
				t.Fatal(err)
			}
			// Each is graded as the learner's code is: a version that
			// passes the plain run runs again under -race when the lab
			// asks for it (only the solution should get that far).
			versions := []version{{Bodies: skeleton}, {}}
			names := []string{"the skeleton", "the solution"}
			paths, err := wrongAnswersOf(root, l.N)
			if err != nil {
				t.Fatal(err)
			}
			if len(paths) == 0 {
				t.Errorf("lab %d has no plausible wrong answer in testdata/%s", l.N, fmt_lab(l.N))
			}
			for _, p := range paths {
				wa, err := parseWrongAnswer(p)
				if err != nil {
					t.Fatal(err)
				}
				bodies, err := wa.apply(solution)
				if err != nil {
					t.Fatal(err)
				}
				versions = append(versions, version{Bodies: bodies, Flags: wa.Flags, FailFast: true})
				names = append(names, p)
			}
			// Graded as the check grades, but for the check's second run
			// under -race: the graded tests are the stage's own, and make
			// test runs every package under -race already, the solution
			// included (a race build of each lab's batch doubled this
			// test's time). A wrong answer that needs -race to fail says
			// so ("flags: -race") and gets it.
			lab := *l
			lab.Race = false
			results, err := lab.gradeBatch(root, versions, 1)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range results {
				if len(r.Invalid) > 0 {
					t.Errorf("%s does not compile:\n%s", names[i], strings.Join(r.Invalid, "\n"))
				}
			}
			if t.Failed() {
				return
			}

			var report bytes.Buffer
			results[0].Grade.report(&report, l, english)
			if results[0].Grade.passed(l) {
				t.Errorf("the skeleton passes the graded tests: they grade nothing")
			}
			for _, want := range l.Expect {
				if !strings.Contains(report.String(), want) {
					t.Errorf("a learner who starts lab %d does not see %q; the check says:\n%s", l.N, want, report.String())
				}
			}
			for i := 2; i < len(results); i++ {
				if g := results[i].Grade; g.passed(l) {
					t.Errorf("%s passes lab %d's check: the grader misses that wrong answer", names[i], l.N)
				} else {
					t.Logf("%s fails, as it must: %v", filepath.Base(names[i]), g.failedNames())
				}
			}

			if g := results[1].Grade; !g.passed(l) {
				var report bytes.Buffer
				g.report(&report, l, english)
				t.Errorf("the solution does not pass lab %d's check (ran %d of %d graded tests):\n%s", l.N, g.ran, len(l.Tests), report.String())
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
