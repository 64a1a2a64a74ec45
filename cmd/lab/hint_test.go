package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestHintsArePrintedWholeInBothLanguages: the header numbers the hint and
// the lab, and the hint's title and text follow, in either language (the
// Chinese header names its arguments out of order).
func TestHintsArePrintedWholeInBothLanguages(t *testing.T) {
	for _, tc := range []struct{ lang, header string }{
		{"en", "Hint 1 of 5 for lab 04"},
		{"zh", "实验 04 的第 1 / 5 条提示"},
	} {
		hints, err := hintsOf(lab04.chapterPath(root, tc.lang))
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := run([]string{"--root", root, "--lang", tc.lang, "hint", "4"}, &out); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		firstLine, _, _ := strings.Cut(hints[0].Body, "\n")
		for _, want := range []string{tc.header, hints[0].Title, firstLine} {
			if !strings.Contains(got, want) {
				t.Errorf("%s: the hint lacks %q:\n%s", tc.lang, want, got)
			}
		}
		if strings.Contains(got, "%!") {
			t.Errorf("%s: a bad format verb:\n%s", tc.lang, got)
		}
	}
}
