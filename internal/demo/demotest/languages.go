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
// rows, and the event rows the same row by row in their protocol (layer,
// what, the object, the detail's protocol: the numbers masked, since two
// playgrounds need not hand out the same resourceVersions) and explaining
// the same things, each in its language (RowsSayNoEnglish); every step's
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
	RowsSayNoEnglish(t, zh)
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
// layer, what, object and detail's protocol, and the English of its words
// (an object of words, an explanation), which both runs hand the timeline
// in both languages, numbers masked; a step or a note is only counted, by
// kind.
func protocol(rows []timeline.Row) []string {
	var out []string
	for _, r := range rows {
		switch r.Kind {
		case timeline.KindEvent:
			object, why := r.Object, ""
			if r.ObjectText != nil {
				object = "(" + r.ObjectText.EN + ")"
			}
			if r.Explanation != nil {
				why = timeline.Explains + r.Explanation.EN
			}
			out = append(out, number.ReplaceAllString(fmt.Sprintf("%s | %s | %s | %s%s", r.Layer, r.What, object, r.Protocol, why), "N"))
		case timeline.KindStep:
			out = append(out, fmt.Sprintf("step %d", r.Step))
		default:
			out = append(out, string(r.Kind))
		}
	}
	return out
}

// NarratesInChinese fails the test unless every step of a transcript run
// with --lang=zh (its title and each line of its explanation) says
// something in Chinese, and every line of every note either does or has no
// words to translate (a table's row of names and numbers): a text left in
// English, or a note printed with Timeline.NoteEN, fails it.
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
			for _, line := range strings.Split(r.Detail, "\n") {
				if !lang.HasHan(line) && EnglishProse(line) != "" {
					t.Errorf("--lang=zh: a note of step %d says %q, in English", r.Step, line)
				}
			}
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

// InChinese runs the demo with args and --lang=zh, as RunTranscript does,
// and checks that it speaks Chinese all the way into its rows
// (NarratesInChinese, RowsSayNoEnglish). It returns the transcript.
func InChinese(t *testing.T, opts demo.Options, args []string, script func(*demo.Env) error, want ...string) Transcript {
	t.Helper()
	tr := RunTranscript(t, opts, append(args, "--lang=zh"), script, want...)
	NarratesInChinese(t, tr)
	RowsSayNoEnglish(t, tr)
	return tr
}

// RowsSayNoEnglish fails the test unless every event row of a transcript
// run with --lang=zh says its words in Chinese: an object of words and an
// explanation with Han characters in them, and no English prose left in a
// row's protocol (two lowercase words in a row, "the reflector", "from
// rv"), which is where a demo that forgot to say an explanation leaves it.
// What a row quotes is exempt, as the timeline may quote it in English:
// a quoted string, and an error from "error: " on (the API server's, a
// lister's).
func RowsSayNoEnglish(t *testing.T, tr Transcript) {
	t.Helper()
	rows := 0
	for _, r := range tr.Rows {
		if r.Kind != timeline.KindEvent {
			continue
		}
		rows++
		if r.ObjectText != nil && !lang.HasHan(r.Object) {
			t.Errorf("--lang=zh: the object of a row of step %d is words, in English: %q", r.Step, strings.TrimSpace(r.Text))
		}
		if r.Explanation != nil && !lang.HasHan(r.Explanation.ZH) {
			t.Errorf("--lang=zh: the explanation of a row of step %d has no Chinese: %q", r.Step, strings.TrimSpace(r.Text))
		}
		if w := EnglishProse(r.Protocol); w != "" {
			t.Errorf("--lang=zh: a row of step %d holds English words, %q, in its protocol: say them with the row's explanation: %q", r.Step, w, strings.TrimSpace(r.Text))
		}
	}
	if rows == 0 {
		t.Errorf("--lang=zh: the transcript has no row to check:\n%s", tr.Out)
	}
}

var (
	// prose is two lowercase words in a row, each of two letters or more
	// and nothing else: "the reflector", "from rv", "grace period".
	prose = regexp.MustCompile(`(?:^|[\s(\[])([a-z]{2,} [a-z]{2,})(?:$|[\s,;:.)\]])`)
	// quoted is a quoted string: a name, or a message the row quotes.
	quoted = regexp.MustCompile(`"[^"]*"`)
)

// EnglishProse is the first English prose of a row's protocol, or "": see
// RowsSayNoEnglish.
func EnglishProse(protocol string) string {
	if i := strings.Index(protocol, "error: "); i >= 0 {
		protocol = protocol[:i]
	}
	protocol = quoted.ReplaceAllString(protocol, `""`)
	if m := prose.FindStringSubmatch(protocol); m != nil {
		return m[1]
	}
	return ""
}
