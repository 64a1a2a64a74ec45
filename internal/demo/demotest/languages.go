package demotest

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

// InBothLanguages runs the demo twice on a playground, with --lang=en and
// with --lang=zh, and checks that the Chinese transcript lines up with the
// English one, as the chapters promise: as many steps, notes and event
// rows, and the event rows, the protocol, the same row by row (layer, what,
// object and detail; the numbers in the detail are masked, since two
// playgrounds need not hand out the same resourceVersions); every step's
// title and explanation in Chinese, with Han characters, and the English
// ones without. Pick a demo whose rows come out in one order, one printed
// from a single goroutine (stage 03's). It returns both transcripts.
func InBothLanguages(t *testing.T, opts demo.Options, script func(*demo.Env) error) (en, zh Transcript) {
	t.Helper()
	en = RunTranscript(t, opts, []string{"--lang=en"}, script)
	zh = RunTranscript(t, opts, []string{"--lang=zh"}, script)
	if diff := cmp.Diff(protocol(en.Rows), protocol(zh.Rows)); diff != "" {
		t.Errorf("the Chinese transcript's rows are not the English one's (-en +zh):\n%s", diff)
	}
	for _, r := range zh.Rows {
		if r.Kind != timeline.KindStep {
			continue
		}
		for _, line := range append([]string{r.Title}, r.Why...) {
			if !lang.HasHan(line) {
				t.Errorf("--lang=zh: step %d says %q, with no Chinese in it", r.Step, line)
			}
		}
	}
	for _, r := range en.Rows {
		if r.Kind == timeline.KindStep && lang.HasHan(r.Title+strings.Join(r.Why, "")) {
			t.Errorf("--lang=en: step %d is Chinese: %q %q", r.Step, r.Title, r.Why)
		}
	}
	if t.Failed() {
		t.Logf("English:\n%s\nChinese:\n%s", en.Out, zh.Out)
	}
	return en, zh
}

// number is any run of digits: a resourceVersion, a duration, a count.
var number = regexp.MustCompile(`\d+`)

// protocol is what must not change with the language: each event row's
// columns, numbers masked; a step or a note is only counted, by kind.
func protocol(rows []timeline.Row) []string {
	var out []string
	for _, r := range rows {
		switch r.Kind {
		case timeline.KindEvent:
			out = append(out, fmt.Sprintf("%s | %s | %s | %s", r.Layer, r.What, r.Object, number.ReplaceAllString(r.Detail, "N")))
		case timeline.KindStep:
			out = append(out, fmt.Sprintf("step %d", r.Step))
		default:
			out = append(out, string(r.Kind))
		}
	}
	return out
}

// NarratesInChinese fails the test unless every step of a transcript run
// with --lang=zh (its title and each line of its explanation) and every
// note says something in Chinese: a text left in English, or a note
// printed with Timeline.NoteEN, has no Han character. For a demo whose
// notes all have words (stage 03's Pop tables, notes of columns only,
// would not pass).
func NarratesInChinese(t *testing.T, tr Transcript) {
	t.Helper()
	steps := 0
	for _, r := range tr.Rows {
		var lines []string
		switch r.Kind {
		case timeline.KindStep:
			steps++
			lines = append([]string{r.Title}, r.Why...)
		case timeline.KindNote:
			lines = strings.Split(r.Detail, "\n")
		}
		for _, line := range lines {
			if !lang.HasHan(line) {
				t.Errorf("--lang=zh: a %s of step %d says %q, with no Chinese in it", r.Kind, r.Step, line)
			}
		}
	}
	if steps == 0 {
		t.Errorf("--lang=zh: the transcript has no step to check:\n%s", tr.Out)
	}
}
