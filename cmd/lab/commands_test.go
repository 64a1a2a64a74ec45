package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestEveryMarkedFunctionHasATODO: the markers in the stages and the labs'
// TODOs name the same functions, and no stage without a lab has markers.
func TestEveryMarkedFunctionHasATODO(t *testing.T) {
	stages, _ := filepath.Glob(filepath.Join(root, "0[1-8]-*"))
	for _, dir := range stages {
		stage := filepath.Base(dir)
		all, err := findMarked(root, stage)
		if err != nil {
			t.Fatal(err)
		}
		var lab *Lab
		for _, l := range labs {
			if l.Stage == stage {
				lab = l
			}
		}
		if lab == nil {
			if len(all) > 0 {
				t.Errorf("%s has lab markers but no lab: %v", stage, all)
			}
			continue
		}
		var marked, todos []string
		for n, fs := range all {
			if n != lab.N {
				t.Errorf("%s: functions marked //lab:%02d, but its lab is %d", stage, n, lab.N)
			}
			for _, f := range fs {
				marked = append(marked, f.Name)
			}
		}
		for name := range lab.TODO {
			todos = append(todos, name)
		}
		sort.Strings(marked)
		sort.Strings(todos)
		if !slices.Equal(marked, todos) {
			t.Errorf("lab %d: marked %v, TODOs for %v", lab.N, marked, todos)
		}
	}
}

// TestHintLaddersInBothLanguages: every marked function has a ladder of
// hints, in both languages, in the same order (the order the lab's page
// suggests writing them), with as many rungs in each.
func TestHintLaddersInBothLanguages(t *testing.T) {
	for _, l := range labs {
		funcs, err := l.marked(root)
		if err != nil {
			t.Fatal(err)
		}
		en, err := laddersOf(l.N, "en")
		if err != nil {
			t.Fatal(err)
		}
		zh, err := laddersOf(l.N, "zh")
		if err != nil {
			t.Fatal(err)
		}
		if len(en) != len(funcs) || len(zh) != len(funcs) {
			t.Errorf("lab %d: %d functions, %d ladders in English, %d in Chinese", l.N, len(funcs), len(en), len(zh))
			continue
		}
		isMarked := map[string]bool{}
		for _, f := range funcs {
			isMarked[f.Name] = true
		}
		for i := range en {
			if en[i].Func != zh[i].Func || !isMarked[en[i].Func] {
				t.Errorf("lab %d: ladder %d is for %s (en) and %s (zh); the lab's functions are %v", l.N, i+1, en[i].Func, zh[i].Func, funcs)
			}
			delete(isMarked, en[i].Func)
			if len(en[i].Hints) != len(zh[i].Hints) {
				t.Errorf("lab %d, %s: %d hints in English, %d in Chinese", l.N, en[i].Func, len(en[i].Hints), len(zh[i].Hints))
			}
		}
	}
}

func itoa(n int) string { return strings.TrimLeft(twoDigits(n), "0") }

// copyOfTree copies what the lab commands read (go.mod, the stage, the
// docs) into a new git checkout, so that start, hint and solution can run
// for real without touching the repository.
func copyOfTree(t *testing.T, l *Lab) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	var files []string
	for _, top := range []string{l.Stage, "docs"} {
		filepath.WalkDir(filepath.Join(root, top), func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, path)
				files = append(files, rel)
			}
			return err
		})
	}
	if err := copyFiles(root, dir, append(files, "go.mod")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=lab", "-c", "user.email=lab@example.com", "commit", "-qm", "solution"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

// TestStartHintSolutionInACopy runs the commands a learner runs, on a copy:
// start refuses a dirty file, then rewrites the marked bodies; start again
// says it is started; hints come one at a time; solution saves the attempt
// and puts back exactly the solution.
func TestStartHintSolutionInACopy(t *testing.T) {
	l := labs[0]
	dir := copyOfTree(t, l)
	files, err := l.files(dir)
	if err != nil {
		t.Fatal(err)
	}
	original := map[string][]byte{}
	for _, f := range files {
		original[f], _ = os.ReadFile(filepath.Join(dir, f))
	}
	cmd := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := run(append([]string{"--root", dir, "--lang", "en"}, args...), &out)
		return out.String(), err
	}

	// A change of the learner's own to a file the lab rewrites: refused.
	dirty := filepath.Join(dir, files[0])
	os.WriteFile(dirty, append(append([]byte(nil), original[files[0]]...), []byte("\n// mine\n")...), 0o644)
	if _, err := cmd("start", itoa(l.N)); err == nil || !strings.Contains(err.Error(), "git stash") {
		t.Fatalf("start with a changed %s: err=%v, want a refusal that says to commit or stash", files[0], err)
	}
	os.WriteFile(dirty, original[files[0]], 0o644)

	out, err := cmd("start", itoa(l.N))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		now, _ := os.ReadFile(filepath.Join(dir, f))
		if bytes.Equal(now, original[f]) {
			t.Errorf("start left %s as it was", f)
		}
		if !bytes.Contains(now, []byte("TODO(lab ")) {
			t.Errorf("%s has no TODO after start", f)
		}
	}
	if !strings.Contains(out, "make lab-check "+itoa(l.N)) {
		t.Errorf("start does not say how to check:\n%s", out)
	}
	if out, _ := cmd("start", itoa(l.N)); !strings.Contains(out, "already started") {
		t.Errorf("a second start: %q, want it to say the lab is started", out)
	}

	first, _ := cmd("hint", itoa(l.N), "list")
	second, _ := cmd("hint", itoa(l.N), "list")
	other, _ := cmd("hint", itoa(l.N), "eachListChunk")
	if !strings.Contains(first, "Hint 1 of") || !strings.Contains(second, "Hint 2 of") {
		t.Errorf("hints do not advance:\n%s\n---\n%s", first, second)
	}
	if !strings.Contains(other, "Hint 1 of") {
		t.Errorf("another function's ladder does not start at its first hint:\n%s", other)
	}
	if menu, _ := cmd("hint", itoa(l.N)); !strings.Contains(menu, "2 of") {
		t.Errorf("the menu does not count the hints seen:\n%s", menu)
	}
	var zh bytes.Buffer
	if err := run([]string{"--root", dir, "--lang", "zh", "hint", itoa(l.N), "list"}, &zh); err != nil || !strings.Contains(zh.String(), "提示") {
		t.Errorf("a hint in Chinese: err=%v\n%s", err, zh.String())
	}

	// The learner writes something, then asks for the solution.
	mine := []byte("package x // the learner's attempt\n")
	os.WriteFile(filepath.Join(dir, files[0]), mine, 0o644)
	out, err = cmd("solution", itoa(l.N))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		now, _ := os.ReadFile(filepath.Join(dir, f))
		if !bytes.Equal(now, original[f]) {
			t.Errorf("solution did not put %s back as it was", f)
		}
	}
	// Inside the git directory, where a grep of the tree does not look.
	if _, err := os.Stat(filepath.Join(dir, stateDir)); err == nil {
		t.Errorf("the lab left %s in the working tree", stateDir)
	}
	saved, _ := filepath.Glob(filepath.Join(dir, ".git", gitDirName, "attempts", "*", files[0]))
	if len(saved) != 1 {
		t.Fatalf("the attempt was not saved (found %v); solution said:\n%s", saved, out)
	}
	if b, _ := os.ReadFile(saved[0]); !bytes.Equal(b, mine) {
		t.Errorf("the saved attempt is not what the learner wrote: %q", b)
	}
	if !strings.Contains(out, filepath.Join(gitDirName, "attempts")) {
		t.Errorf("solution does not say where the attempt is:\n%s", out)
	}
	if d, err := cmd("diff", itoa(l.N)); err != nil || !strings.Contains(d, "--- solution") || !strings.Contains(d, "last attempt") {
		t.Errorf("diff after the lab ended: err=%v, want the last attempt beside the solution:\n%s", err, d)
	}
	if out, _ := cmd("solution", itoa(l.N)); !strings.Contains(out, "not started") {
		t.Errorf("solution again: %q, want it to say the lab is not started", out)
	}
}

// TestAnOlderLabDirectoryMovesIntoGit: a lab started with an older lab
// command (state in .lab/ at the root) can still be ended: the directory
// moves into the git directory the first time the command runs.
func TestAnOlderLabDirectoryMovesIntoGit(t *testing.T) {
	dir := copyOfTree(t, labs[0])
	old := filepath.Join(dir, stateDir)
	os.MkdirAll(filepath.Join(old, "attempts", "01-20260101-000000"), 0o755)
	os.WriteFile(filepath.Join(old, "state.json"), []byte(`{"labs":{}}`), 0o644)
	if err := run([]string{"--root", dir, "hint", "1", "list"}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); err == nil {
		t.Errorf("%s is still in the working tree", stateDir)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", gitDirName, "attempts", "01-20260101-000000")); err != nil {
		t.Errorf("the old attempt did not move into the git directory: %v", err)
	}
}

func TestBadLabNumbers(t *testing.T) {
	for _, args := range [][]string{{"start", "9"}, {"check", "x"}, {"hint"}, {"frobnicate", "3"}} {
		err := run(append([]string{"--root", root}, args...), &bytes.Buffer{})
		if err == nil || errors.Is(err, errFailed) {
			t.Errorf("lab %v: err=%v, want a usage error", args, err)
		}
	}
}

// TestChaptersCountTheWrongAnswers: each lab's chapter says, in both
// languages, how many wrong answers the grader is checked against ("Eight
// wrong answers are kept as fixtures", or chapter 06's one shown and "six
// more"); that number is the count of files in testdata/labNN, so a fixture
// added without its sentence turns this red.
func TestChaptersCountTheWrongAnswers(t *testing.T) {
	say := map[string][]*regexp.Regexp{
		"en": {
			regexp.MustCompile(`(\w+)\s+wrong\s+answers\s+are\s+kept\s+as\s+fixtures`),
			regexp.MustCompile(`checks\s+that\s+(\w+)\s+more\s+wrong\s+answers\s+fail`),
		},
		"zh": {
			regexp.MustCompile(`有\s*(\p{Han}+?)\s*个错误答案作为测试夹具保留着`),
			regexp.MustCompile(`还会检查另外\s*(\p{Han}+?)\s*个错误答案都通不过`),
		},
	}
	numbers := map[string]int{}
	for i, w := range []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"} {
		numbers[w] = i + 1
	}
	for i, w := range []string{"一", "二", "三", "四", "五", "六", "七", "八", "九", "十",
		"十一", "十二", "十三", "十四", "十五", "十六", "十七", "十八", "十九", "二十"} {
		numbers[w] = i + 1
	}
	for _, l := range labs {
		fixtures, _ := wrongAnswersOf(root, l.N)
		for lang, res := range say {
			b, err := os.ReadFile(l.pagePath(root, lang))
			if err != nil {
				t.Fatal(err)
			}
			said := -1
			for i, re := range res {
				if m := re.FindStringSubmatch(string(b)); m != nil {
					n, ok := numbers[strings.ToLower(m[1])]
					if !ok {
						t.Errorf("docs/%s/%s: %q is not a number this test reads", lang, l.page(), m[1])
					}
					said = n + i // the second form counts the one the chapter shows first
					break
				}
			}
			switch {
			case said < 0:
				t.Errorf("docs/%s/%s does not say how many wrong answers lab %d's grader rejects", lang, l.page(), l.N)
			case said != len(fixtures):
				t.Errorf("docs/%s/%s says lab %d's grader rejects %d wrong answers; testdata/%s holds %d", lang, l.page(), l.N, said, fmt_lab(l.N), len(fixtures))
			}
		}
	}
}
