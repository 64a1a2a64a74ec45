package docscheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// exercise is one "break it" step of the workshop guide: a diff against a
// file, and the test that must then fail.
var exercise = regexp.MustCompile("(?s)(?:In|在) `([\\w./-]+\\.go)`[^`]*?\n```diff\n(.*?)```\n+```sh\ngo test (\\./[\\w./-]+) -run (\\w+)\n```")

// TestWorkshopExercisesStillApply keeps the workshop guide in step with the
// code: every diff it tells participants to make must still match the file
// (its context and removed lines, in order), and the test it tells them to
// run must still exist. Whether that test then fails was checked by hand
// when the exercise was written; this catches the exercise going stale.
func TestWorkshopExercisesStillApply(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		b, err := os.ReadFile(filepath.Join(root, "docs", lang, "workshop.md"))
		if err != nil {
			t.Fatal(err)
		}
		found := exercise.FindAllStringSubmatch(string(b), -1)
		if len(found) < 5 {
			t.Errorf("docs/%s/workshop.md: found %d break-it exercises, want 5 (did the format change?)", lang, len(found))
		}
		for _, m := range found {
			file, diff, pkg, test := m[1], m[2], m[3], m[4]
			src, err := os.ReadFile(filepath.Join(root, file))
			if err != nil {
				t.Errorf("docs/%s/workshop.md: %v", lang, err)
				continue
			}
			if before := diffSide(diff, '-'); !strings.Contains(string(src), before) {
				t.Errorf("docs/%s/workshop.md: the diff for %s no longer applies; %s lacks:\n%s", lang, file, file, before)
			}
			if !packageDeclaresTest(t, filepath.Join(root, pkg), test) {
				t.Errorf("docs/%s/workshop.md: %s has no %s", lang, pkg, test)
			}
		}
	}
}

// diffSide returns the lines of a unified diff body as they are before the
// change: context lines and the lines marked with removed ('-').
func diffSide(diff string, removed byte) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(diff, "\n"), "\n") {
		if l == "" {
			continue
		}
		if l[0] == ' ' || l[0] == removed {
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
