package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestHintReadsWellInBothLanguages: the hint command prints its header with
// the lab's number, the hint's title and its whole body, and no fmt error
// (%!), in English and in Chinese.
func TestHintReadsWellInBothLanguages(t *testing.T) {
	l := labs[0]
	for _, lang := range []string{"en", "zh"} {
		hints, err := hintsOf(l.chapterPath(root, lang))
		if err != nil || len(hints) == 0 {
			t.Fatalf("%s: no hints: %v", lang, err)
		}
		var out bytes.Buffer
		if err := run([]string{"--root", root, "--lang", lang, "hint", itoa(l.N)}, &out); err != nil {
			t.Fatal(err)
		}
		header := map[string]string{"en": "Hint 1 of " + itoa(len(hints)) + " for lab " + twoDigits(l.N),
			"zh": "实验 " + twoDigits(l.N) + " 的第 1 / " + itoa(len(hints)) + " 条提示"}[lang]
		for _, want := range []string{header, hints[0].Title, hints[0].Body} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: the hint does not show %q:\n%s", lang, want, out.String())
			}
		}
		if strings.Contains(out.String(), "%!") {
			t.Errorf("%s: the hint has a formatting error:\n%s", lang, out.String())
		}
	}
}
