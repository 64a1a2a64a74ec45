package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrongAnswersRoundTrip: a wrong answer exported as whole functions and
// turned back into an edit script makes the same files; so a maintainer can
// mend wrong answers after changing the solution without losing one.
func TestWrongAnswersRoundTrip(t *testing.T) {
	for _, l := range labs {
		dir := t.TempDir()
		if err := exportWrongAnswers(root, l, dir); err != nil {
			t.Fatal(err)
		}
		paths, _ := wrongAnswersOf(root, l.N)
		for _, p := range paths {
			wa, err := parseWrongAnswer(p)
			if err != nil {
				t.Fatal(err)
			}
			var script bytes.Buffer
			if err := wrongAnswerFrom(&script, root, l, filepath.Join(dir, wa.Name+".go")); err != nil {
				t.Fatal(err)
			}
			again := filepath.Join(dir, wa.Name+".wrong")
			if err := os.WriteFile(again, script.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			wa2, err := parseWrongAnswer(again)
			if err != nil {
				t.Fatalf("%s: %v\n%s", wa.Name, err, script.String())
			}
			v1, err := l.withWrongAnswer(root, wa)
			if err != nil {
				t.Fatal(err)
			}
			v2, err := l.withWrongAnswer(root, wa2)
			if err != nil {
				t.Fatal(err)
			}
			for file := range v1 {
				if !bytes.Equal(withoutComments(v1[file]), withoutComments(v2[file])) {
					t.Errorf("lab %d, %s: %s differs after the round trip:\n%s", l.N, wa.Name, file,
						unifiedDiff(string(withoutComments(v1[file])), string(withoutComments(v2[file])), 2))
				}
			}
			if wa.About != wa2.About || strings.Join(wa.Flags, " ") != strings.Join(wa2.Flags, " ") {
				t.Errorf("lab %d, %s: the comment or the flags changed in the round trip", l.N, wa.Name)
			}
		}
	}
}

// withoutComments drops comment-only lines: the edit scripts keep the
// solution's comments, the whole functions may carry their own.
func withoutComments(src []byte) []byte {
	var out []string
	for _, l := range strings.Split(string(src), "\n") {
		if !commentLine(l) {
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, "\n"))
}

// TestEditScriptErrors: a wrong answer whose line is gone from the solution,
// or names a line that is not unique, says so instead of editing elsewhere.
func TestEditScriptErrors(t *testing.T) {
	body := "\n\tx := 1\n\t}\n\ty := 2\n\t}\n"
	index := map[string]*bodyLines{"f": newBodyLines(body)}
	for script, want := range map[string]string{
		"func f\ndelete 00000000\n":                               "solution changed",
		"func f\ndelete " + lineHash("}") + "\n":                  "not unique",
		"func f\nreplace " + lineHash("y := 2") + "\n+\ty := 3\n": "",
	} {
		p := filepath.Join(t.TempDir(), "w.wrong")
		os.WriteFile(p, []byte(script), 0o644)
		wa, err := parseWrongAnswer(p)
		if err != nil {
			t.Fatal(err)
		}
		out, err := wa.applyTo("f", index["f"], index)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", script, err)
		case want == "" && !strings.Contains(out, "y := 3") || strings.Contains(out, "y := 2"):
			t.Errorf("%q: gave %q", script, out)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: err=%v, want %q", script, err, want)
		}
	}
}
