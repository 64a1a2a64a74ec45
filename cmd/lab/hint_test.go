package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestHintReadsWellInBothLanguages: the hint command prints its header with
// the function and the lab, the hint's title and its whole body, and no fmt
// error (%!), in English and in Chinese; asked for by the method's name
// alone, and in any case.
func TestHintReadsWellInBothLanguages(t *testing.T) {
	l := labs[2] // lab 03: isDeletionDup, DeltaFIFO.Pop, DeltaFIFO.Replace
	for _, lang := range []string{"en", "zh"} {
		ladders, err := laddersOf(l.N, lang)
		if err != nil {
			t.Fatal(err)
		}
		var pop *ladder
		for i := range ladders {
			if ladders[i].Func == "DeltaFIFO.Pop" {
				pop = &ladders[i]
			}
		}
		if pop == nil {
			t.Fatalf("%s: no ladder for DeltaFIFO.Pop", lang)
		}
		var out bytes.Buffer
		if err := run([]string{"--root", root, "--lang", lang, "hint", itoa(l.N), "pop"}, &out); err != nil {
			t.Fatal(err)
		}
		header := map[string]string{"en": "Hint 1 of " + itoa(len(pop.Hints)) + " for DeltaFIFO.Pop (lab " + twoDigits(l.N) + ")",
			"zh": "实验 " + twoDigits(l.N) + " · DeltaFIFO.Pop 的第 1 / " + itoa(len(pop.Hints)) + " 条提示"}[lang]
		for _, want := range []string{header, pop.Hints[0].Title, pop.Hints[0].Body} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("%s: the hint does not show %q:\n%s", lang, want, out.String())
			}
		}
		if strings.Contains(out.String(), "%!") {
			t.Errorf("%s: the hint has a formatting error:\n%s", lang, out.String())
		}
	}
}

// TestHintWithoutAFunctionListsTheLadders: a lab of several functions does
// not guess which one the learner is stuck on; it lists each with the
// command that asks for it, and every listed command works.
func TestHintWithoutAFunctionListsTheLadders(t *testing.T) {
	l := labs[2]
	var out bytes.Buffer
	if err := run([]string{"--root", root, "--lang", "en", "hint", itoa(l.N)}, &out); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"isDeletionDup", "Pop", "Replace"} {
		cmd := "make lab-hint " + itoa(l.N) + " " + name
		if !strings.Contains(out.String(), cmd) {
			t.Errorf("the menu does not offer %q:\n%s", cmd, out.String())
		}
		if err := run([]string{"--root", root, "--lang", "en", "hint", itoa(l.N), name}, &bytes.Buffer{}); err != nil {
			t.Errorf("%s: %v", cmd, err)
		}
	}
	if err := run([]string{"--root", root, "hint", itoa(l.N), "Frobnicate"}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "DeltaFIFO.Pop") {
		t.Errorf("a function the lab does not have: err=%v, want one that lists the lab's functions", err)
	}
}

// TestHintsRoundTrip: what hints-unpack writes, hints-pack encodes back to
// the same files, so that editing a hint changes only that hint.
func TestHintsRoundTrip(t *testing.T) {
	for _, l := range labs {
		for _, lang := range []string{"en", "zh"} {
			ladders, err := laddersOf(l.N, lang)
			if err != nil {
				t.Fatal(err)
			}
			enc, err := hintFiles.ReadFile("hints/" + hintFileName(l.N, lang) + ".b64")
			if err != nil {
				t.Fatal(err)
			}
			text, err := decodeHints(enc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(encodeHints(l.N, lang, text), enc) {
				t.Errorf("lab %d (%s): encoding the decoded hints does not give the file back", l.N, lang)
			}
			if len(ladders) == 0 {
				t.Errorf("lab %d (%s): no ladders", l.N, lang)
			}
		}
	}
}
