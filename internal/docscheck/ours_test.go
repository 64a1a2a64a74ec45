package docscheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A learner of client-go reads our chapters to learn client-go, so a
// sentence about this repository alone (a teaching switch, a seam, a view
// for the demo, an option or a helper client-go does not have) must not pass
// for client-go's. The convention, defined in the overview: a paragraph or
// list item that describes ours only starts with a tag, oursTag; everything
// else describes what client-go does, which the stage mirrors, and says
// "ours" in so many words where it mentions ours in passing. A chapter's
// "Differences from client-go" (or "from sample-controller") is all about
// ours and needs no tag; nor does its lab section. These checks hold:
//
//   - the overview and the glossary define the tag, in both languages;
//   - in a stage's chapter, every paragraph or list item that names a thing
//     of ours alone (oursOnly) starts with the tag, or is an item of a list
//     whose lead-in paragraph does, in both languages;
//   - each page has as many tags in Chinese as in English.

// oursTag opens a paragraph or list item that describes this repository
// only, per language.
var oursTag = map[string]string{"en": "**Ours:**", "zh": "**本仓库独有：**"}

// untaggedSections are the level-2 sections of a stage's chapter whose
// paragraphs need no tag: the differences, which are all about ours, and
// the lab, which is about the learner's code.
var untaggedSections = map[string][]string{
	"en": {"## Differences from ", "## Lab: "},
	"zh": {"## 与 ", "## 实验："},
}

// oursOnly names things client-go v0.37.2 (and, in stage 08b,
// sample-controller) does not have: a paragraph that names one is about
// ours. Names client-go has unexported and ours exports
// (SharedProcessor, ReconcileReplacement…) are not here: they name
// client-go's mechanism.
var oursOnly = []struct {
	what string
	re   *regexp.Regexp
}{
	{"stage 02's UseWatchList, where client-go reads a feature gate", regexp.MustCompile(`\bUseWatchList\b`)},
	{"stage 05's teaching switch WithoutBuffer", regexp.MustCompile(`\bWithoutBuffer\b`)},
	{"stage 05's views for the demo, PendingNotifications and BufferCapacity", regexp.MustCompile(`\b(PendingNotifications|BufferCapacity)\b`)},
	{"stage 05's seam WrapHandler", regexp.MustCompile(`\bWrapHandler\b`)},
	{"the opt-in OnHandlerPanic and LogAndContinue", regexp.MustCompile(`\b(OnHandlerPanic|LogAndContinue)\b`)},
	{"stage 05's AddLateListener", regexp.MustCompile(`\bAddLateListener\b`)},
	{"stage 05's HandlerResyncPeriod, inline in client-go's informer", regexp.MustCompile(`\bHandlerResyncPeriod\b`)},
	{"the informer's and the controller's Seams", regexp.MustCompile(`\bSeams\b`)},
	{"stage 06's teaching switches, Breaks", regexp.MustCompile(`\b(Breaks|NoTombstones|BlockingListeners)\b`)},
	{"the observe packages", regexp.MustCompile("\\bobserve\\.[A-Z]|`observe`|/observe/|\\bTracer\\b")},
	{"stage 06's queue option", regexp.MustCompile(`\bQueue(RealFIFO|DeltaFIFO|Kind)\b|\bSharedIndexInformerOptions\.Queue\b`)},
	{"stage 06's HandlerOptions.Name", regexp.MustCompile(`\bHandlerOptions[.{]Name\b`)},
	{"stage 07's NewListWatch and ErrNilClient", regexp.MustCompile(`\b(NewListWatch|ErrNilClient)\b`)},
	{"stage 08a's refusal of what cannot be a key", regexp.MustCompile(`\bhashable\.go\b`)},
	{"stage 08b's DrainTimeout, IsFooOwner and fooFromUnstructured", regexp.MustCompile(`\b(DrainTimeout|IsFooOwner|fooFromUnstructured)\b`)},
}

// proseBlock is a paragraph or a list item of a chapter, outside code
// blocks, tables, headings, quotes and HTML.
type proseBlock struct {
	section string // the level-2 heading it is under
	line    int
	text    string // without the list marker
	item    bool
	// covered: the block starts with the tag, or is an item of a list
	// whose lead-in paragraph does.
	tagged, covered bool
}

var listMarker = regexp.MustCompile(`^\s*(?:[-*]|\d+\.)\s+`)

// proseBlocks splits a chapter into paragraphs and list items.
func proseBlocks(text, tag string) []proseBlock {
	var (
		blocks     []proseBlock
		cur        *proseBlock
		section    string
		inCode     bool
		inComment  bool
		leadTagged bool // the paragraph before the current list started with the tag
	)
	flush := func() {
		if cur != nil {
			cur.tagged = strings.HasPrefix(cur.text, tag)
			cur.covered = cur.tagged || (cur.item && leadTagged)
			if !cur.item {
				leadTagged = cur.tagged
			}
			blocks = append(blocks, *cur)
			cur = nil
		}
	}
	for n, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case inCode:
			if strings.HasPrefix(trimmed, "```") {
				inCode = false
			}
			continue
		case inComment:
			inComment = !strings.Contains(trimmed, "-->")
			continue
		case strings.HasPrefix(trimmed, "```"):
			flush()
			inCode = true
			leadTagged = false
			continue
		case strings.HasPrefix(trimmed, "<!--"):
			flush()
			inComment = !strings.Contains(trimmed, "-->")
			continue
		case trimmed == "":
			flush()
			continue
		case headingLevel(line) > 0:
			flush()
			leadTagged = false
			if headingLevel(line) == 2 {
				section = trimmed
			}
			continue
		case strings.HasPrefix(trimmed, "|"), strings.HasPrefix(trimmed, ">"), strings.HasPrefix(trimmed, "<"):
			flush()
			leadTagged = false
			continue
		}
		if m := listMarker.FindString(line); m != "" {
			flush()
			cur = &proseBlock{section: section, line: n + 1, text: line[len(m):], item: true}
			continue
		}
		if cur == nil {
			cur = &proseBlock{section: section, line: n + 1, text: trimmed}
			continue
		}
		cur.text += " " + trimmed
	}
	flush()
	return blocks
}

// untagged reports whether a block's section needs no tag.
func untagged(lang, section string) bool {
	for _, prefix := range untaggedSections[lang] {
		if strings.HasPrefix(section, prefix) {
			return true
		}
	}
	return false
}

func TestProseBlocksSeeTheTag(t *testing.T) {
	text := "## How ours works\n\n" +
		"client-go's loop,\nin two lines.\n\n" +
		"**Ours:** a switch, and its steps:\n\n1. one;\n2. two.\n\n" +
		"```go\n**Ours:** in code\n```\n\n" +
		"- **Ours:** an item\n- another item, with `WithoutBuffer`\n  on two lines\n\n" +
		"| a | table |\n\n" +
		"<details>\n<summary>x</summary>\n\n</details>\n"
	type got struct {
		Line            int
		Text            string
		Item            bool
		Tagged, Covered bool
	}
	var blocks []got
	for _, b := range proseBlocks(text, "**Ours:**") {
		blocks = append(blocks, got{b.line, b.text, b.item, b.tagged, b.covered})
	}
	want := []got{
		{3, "client-go's loop, in two lines.", false, false, false},
		{6, "**Ours:** a switch, and its steps:", false, true, true},
		{8, "one;", true, false, true},
		{9, "two.", true, false, true},
		{15, "**Ours:** an item", true, true, true},
		{16, "another item, with `WithoutBuffer` on two lines", true, false, false},
	}
	if diff := cmp.Diff(want, blocks); diff != "" {
		t.Errorf("proseBlocks (-want +got):\n%s", diff)
	}
}

// TestTheOverviewAndTheGlossaryDefineTheOursTag: the tag is defined where
// the overview explains the chapters' sections, and in the glossary's
// opening, in both languages.
func TestTheOverviewAndTheGlossaryDefineTheOursTag(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		for _, name := range []string{"00-overview.md", "glossary.md"} {
			b, err := os.ReadFile(filepath.Join(root, "docs", lang, name))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), oursTag[lang]) {
				t.Errorf("docs/%s/%s does not define the tag %s that opens a paragraph about ours only", lang, name, oursTag[lang])
			}
		}
	}
}

// TestParagraphsAboutOursCarryTheTag: a paragraph or list item of a stage's
// chapter that names a thing client-go does not have starts with the tag
// (outside the differences and the lab).
func TestParagraphsAboutOursCarryTheTag(t *testing.T) {
	checked := 0
	for _, lang := range []string{"en", "zh"} {
		for _, name := range markdownFiles(t, filepath.Join(root, "docs", lang)) {
			if !stageChapter.MatchString(name) {
				continue
			}
			path := filepath.Join("docs", lang, name)
			b, err := os.ReadFile(filepath.Join(root, path))
			if err != nil {
				t.Fatal(err)
			}
			for _, block := range proseBlocks(string(b), oursTag[lang]) {
				if block.covered || untagged(lang, block.section) {
					continue
				}
				checked++
				for _, o := range oursOnly {
					if m := o.re.FindString(block.text); m != "" {
						t.Errorf("%s:%d names %s (%s), which client-go does not have, but does not start with %s: tag it, or leave ours out of a paragraph about client-go", path, block.line, m, o.what, oursTag[lang])
						break
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Errorf("checked %d paragraphs and items of the stage chapters; want over a thousand (did proseBlocks or stageChapter change?)", checked)
	}
}

// TestEnglishAndChineseCarryTheSameOursTags: a page tags as many paragraphs
// in Chinese as in English.
func TestEnglishAndChineseCarryTheSameOursTags(t *testing.T) {
	for _, name := range markdownFiles(t, filepath.Join(root, "docs/en")) {
		count := map[string]int{}
		for _, lang := range []string{"en", "zh"} {
			b, err := os.ReadFile(filepath.Join(root, "docs", lang, name))
			if err != nil {
				t.Fatal(err)
			}
			for _, block := range proseBlocks(string(b), oursTag[lang]) {
				if block.tagged {
					count[lang]++
				}
			}
		}
		if count["en"] != count["zh"] {
			t.Errorf("%s: %d paragraphs start with %s in English, %d with %s in Chinese", name, count["en"], oursTag["en"], count["zh"], oursTag["zh"])
		}
	}
}
