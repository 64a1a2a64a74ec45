package demotest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

// TestNoteArgsReadsANoteBack: a note's numbers come back in the order of
// the format's arguments, in either language, a Chinese format that picks
// them by index included; notes of other formats are not read.
func TestNoteArgsReadsANoteBack(t *testing.T) {
	format := lang.T("%d Adds came while a worker held %s, in %d holds.\n%d reconciles.",
		"worker 拿着 %[2]s 期间来了 %[1]d 次 Add，分布在 %[3]d 次持有里。\n%[4]d 次 reconcile。")
	tr := Transcript{Rows: []timeline.Row{
		{Kind: timeline.KindNote, Detail: format.Format(4, "ns/a", 2, 5).EN},
		{Kind: timeline.KindEvent, Detail: "4 Adds came"},
		{Kind: timeline.KindNote, Detail: "something else: 3"},
		{Kind: timeline.KindNote, Detail: format.Format(3, "ns/b", 1, 2).ZH},
	}}
	want := [][]string{{"4", "ns/a", "2", "5"}, {"3", "ns/b", "1", "2"}}
	if diff := cmp.Diff(want, NoteArgs(tr, format)); diff != "" {
		t.Errorf("NoteArgs (-want +got):\n%s", diff)
	}
	if got := NoteArgs(tr, lang.T("100%% of %d pods", "全部 %d 个 Pod")); got != nil {
		t.Errorf("a format no note was printed with read %q", got)
	}
}

// TestEnglishProseFindsWordsLeftInAProtocol: protocol reads as protocol;
// two English words in a row do not, unless quoted or in an error.
func TestEnglishProseFindsWordsLeftInAProtocol(t *testing.T) {
	for protocol, want := range map[string]string{
		"410 Expired":                                  "",
		"rv=80 → rv=81 isInInitialList=true":           "",
		"key stage08/example; rv=1":                    "",
		"worker 1; Forget":                             "",
		"spec.replicas 3 → 4":                          "",
		`continue=""`:                                  "",
		"[blog/web-1 shop/web-2]":                      "",
		"slow: rv=5":                                   "",
		"error: Operation cannot be fulfilled on foos": "",
		`deployment "x" exists`:                        "",
		"410 Expired: the reflector will list again":   "the reflector",
		"rv=81 from rv 80":                             "from rv",
		"grace period 0":                               "grace period",
		"(same rv: a sync)":                            "same rv",
		"(deleted while no watch)":                     "deleted while",
	} {
		if got := EnglishProse(protocol); got != want {
			t.Errorf("EnglishProse(%q) = %q, want %q", protocol, got, want)
		}
	}
}
