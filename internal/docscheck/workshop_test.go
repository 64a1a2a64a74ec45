package docscheck

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// exercise is one "break it" step of the workshop guide: a diff against a
// file, the test that must then fail, and the paragraph after the command,
// which says what fails.
var exercise = regexp.MustCompile("(?s)(?:In|在) `([\\w./-]+\\.go)`[^`]*?\n```diff\n(.*?)```\n+```sh\ngo test (\\./[\\w./-]+) -run (\\w+)\n```\n+([^\n]+(?:\n[^\n]+)*)")

// workshopExercise is what one match of exercise says. failing is how many
// of the test's subtests the guide says fail ("Three cases fail", "两个场景
// 失败"), 0 when it names no number.
type workshopExercise struct {
	file, diff, pkg, test string
	failing               int
}

// A count of failing cases, as the guide words it in each language: the
// first number of the paragraph, before "cases", "scenarios" or "rules"
// and a "fail".
var (
	claimedFailures = map[string]*regexp.Regexp{
		"en": regexp.MustCompile(`(?i)\b(one|two|three|four|five|six|seven|eight|nine|ten)\b[^.:]*?\b(?:cases|scenarios|rules)\b[^.:]*?\bfail`),
		"zh": regexp.MustCompile(`([一两二三四五六七八九十])(?:个|条)[^。：]*?(?:用例|场景|规则)[^。：]*?失败`),
	}
	numberWords = map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
		"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}
)

// claimedFailing is the number of failing cases a paragraph of the guide
// states, or 0.
func claimedFailing(lang, paragraph string) int {
	m := claimedFailures[lang].FindStringSubmatch(paragraph)
	if m == nil {
		return 0
	}
	return numberWords[strings.ToLower(m[1])]
}

// workshopExercises reads the exercises of both languages' guides, each
// distinct one once, in the order the English guide has them. Where the
// guide says how many cases fail, both languages must say the same.
func workshopExercises(t *testing.T) []workshopExercise {
	t.Helper()
	var all []workshopExercise
	seen := map[workshopExercise]int{} // index in all
	for _, lang := range []string{"en", "zh"} {
		b, err := os.ReadFile(filepath.Join(root, "docs", lang, "workshop.md"))
		if err != nil {
			t.Fatal(err)
		}
		found := exercise.FindAllStringSubmatch(string(b), -1)
		// The full day has a module per stage, and each module at least one
		// exercise: a stage whose exercises the pattern no longer finds
		// (its format changed, or it was dropped) would go unchecked.
		perStage := map[string]int{}
		for _, m := range found {
			perStage[stageOf(m[3])]++
		}
		for _, stage := range workshopStages {
			if perStage[stage] == 0 {
				t.Errorf("docs/%s/workshop.md: found no break-it exercise for stage %s (did the format change?)", lang, stage)
			}
		}
		for _, m := range found {
			ex := workshopExercise{file: m[1], diff: m[2], pkg: m[3], test: m[4]}
			claim := claimedFailing(lang, m[5])
			i, ok := seen[ex]
			if !ok {
				seen[ex] = len(all)
				ex.failing = claim
				all = append(all, ex)
				continue
			}
			if all[i].failing != claim {
				t.Errorf("the workshop's exercise on %s (%s): the English guide says %d cases fail, docs/%s/workshop.md %d", ex.file, ex.test, all[i].failing, lang, claim)
			}
		}
	}
	return all
}

// workshopStages are the stages the full-day course has a module for.
var workshopStages = []string{"01", "02", "03", "04", "05", "06", "07", "08"}

// stageOf is the stage of a package path as the exercises write it,
// "./06-sharedinformer" → "06".
func stageOf(pkg string) string {
	dir, _, _ := strings.Cut(strings.TrimPrefix(pkg, "./"), "-")
	return dir
}

// TestWorkshopExercisesStillApply keeps the workshop guide in step with the
// code: every diff it tells participants to make must still match the file
// (its context and removed lines, in order), and the test it tells them to
// run must still exist.
func TestWorkshopExercisesStillApply(t *testing.T) {
	for _, ex := range workshopExercises(t) {
		src, err := os.ReadFile(filepath.Join(root, ex.file))
		if err != nil {
			t.Error(err)
			continue
		}
		if before := diffSide(ex.diff, '-'); strings.Count(string(src), before) != 1 {
			t.Errorf("the workshop's diff for %s no longer applies (once); %s lacks:\n%s", ex.file, ex.file, before)
		}
		if !packageDeclaresTest(t, filepath.Join(root, ex.pkg), ex.test) {
			t.Errorf("the workshop sends readers to %s in %s, which has no such test", ex.test, ex.pkg)
		}
	}
}

// TestWorkshopExercisesBreakTheirTest makes each exercise in a copy of the
// repository and runs the test it names, which must fail: an exercise
// whose break the test no longer sees would leave a room of participants
// staring at "ok". It builds each broken package once (about 15s each on two
// cores, warm).
func TestWorkshopExercisesBreakTheirTest(t *testing.T) {
	for _, ex := range workshopExercises(t) {
		t.Run(ex.test, func(t *testing.T) {
			dir := copyRepository(t)
			path := filepath.Join(dir, ex.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			before, after := diffSide(ex.diff, '-'), diffSide(ex.diff, '+')
			if strings.Count(string(src), before) != 1 {
				t.Fatalf("the diff for %s does not apply once (TestWorkshopExercisesStillApply says more)", ex.file)
			}
			if err := os.WriteFile(path, []byte(strings.Replace(string(src), before, after, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-vet=off", ex.pkg, "-run", "^"+ex.test+"$")
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			switch {
			case err == nil:
				t.Errorf("after the workshop's change to %s, go test %s -run %s still passes:\n%s", ex.file, ex.pkg, ex.test, out)
			case !strings.Contains(string(out), "--- FAIL: "+ex.test):
				t.Errorf("after the workshop's change to %s, go test %s -run %s failed without %s failing (a build error?):\n%s", ex.file, ex.pkg, ex.test, ex.test, out)
			case ex.failing > 0:
				if n := len(failedSubtests(string(out), ex.test)); n != ex.failing {
					t.Errorf("after the workshop's change to %s, %d cases of %s fail (%q); the guide says %d", ex.file, n, ex.test, failedSubtests(string(out), ex.test), ex.failing)
				}
			}
		})
	}
}

// failedSubtests lists the direct subtests of test that go test reports
// failed ("    --- FAIL: Test/name (0.00s)").
func failedSubtests(out, test string) []string {
	var names []string
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "    --- FAIL: "+test+"/"); ok {
			name, _, _ := strings.Cut(rest, " (")
			names = append(names, name)
		}
	}
	return names
}

func TestClaimedFailing(t *testing.T) {
	for _, tc := range []struct {
		lang, text string
		want       int
	}{
		{"en", "Two cases fail, among them \"resourceVersion and match are cleared\": the diff", 2},
		{"en", "The three \"two deletions in a row become one\" rules fail: a watch", 3},
		{"en", "Two scenarios fail. The diff shows", 2},
		{"en", "The diff shows `SamePodCache: false`, and two handlers with no calls", 0},
		{"en", "The random programs fail at the first `Add`", 0},
		{"zh", "有两个用例失败，其中之一是", 2},
		{"zh", "三条“two deletions in a row become one”规则会失败：watch", 3},
		{"zh", "两个场景失败。diff 显示", 2},
		{"zh", "diff 显示 `SamePodCache: false`，两部分的 Pod handler 一次调用都没收到", 0},
	} {
		if got := claimedFailing(tc.lang, tc.text); got != tc.want {
			t.Errorf("claimedFailing(%s, %q) = %d, want %d", tc.lang, tc.text, got, tc.want)
		}
	}
}

// copyRepository copies the repository's files (not .git, nor built
// binaries) into a temporary directory, so an exercise can be made there.
func copyRepository(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		// node_modules: tools/mermaid's, half a gigabyte no exercise needs.
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".bin" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil // the .git file of a worktree, sockets, links
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// diffSide returns the lines of a unified diff body as they are on one side:
// context lines and the lines marked with marker ('-' for before the
// change, '+' for after).
func diffSide(diff string, marker byte) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(diff, "\n"), "\n") {
		if l == "" {
			continue
		}
		if l[0] == ' ' || l[0] == marker {
			lines = append(lines, l[1:])
		}
	}
	return strings.Join(lines, "\n")
}

func packageDeclaresTest(t *testing.T, dir, name string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "func "+name+"(t *testing.T)") {
			return true
		}
	}
	return false
}
