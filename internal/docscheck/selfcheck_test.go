package docscheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// selfCheckHeading is the last section of a stage's chapter, per language,
// but for the chapter's lab (labHeading), which comes after it when the
// stage has one.
var (
	selfCheckHeading = map[string]string{"en": "## Self-check", "zh": "## 自测"}
	labHeading       = map[string]string{"en": "## Lab: ", "zh": "## 实验："}
)

// selfCheckPending names the chapters whose self-check is not written yet
// (none now: stage 08's two chapters, 08a and 08b, each have their own).
var selfCheckPending = map[string]bool{}

var (
	// A stage's chapter: 01-listwatch.md, or one of a stage's parts,
	// 08a-workqueue.md and 08b-controller.md.
	stageChapter     = regexp.MustCompile(`^0[1-8][a-z]?-[a-z-]+\.md$`)
	numberedQuestion = regexp.MustCompile(`(?m)^\*\*[1-5]\. `)
)

// TestStageChaptersEndWithAFiveQuestionSelfCheck checks that every stage's
// chapter, in both languages, ends with a self-check of five questions, each
// answer folded in a <details> block so that a learner tries first, and then,
// when the stage has a lab, with the lab alone.
func TestStageChaptersEndWithAFiveQuestionSelfCheck(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		for _, name := range markdownFiles(t, filepath.Join(root, "docs", lang)) {
			if !stageChapter.MatchString(name) || selfCheckPending[name] {
				continue
			}
			path := filepath.Join("docs", lang, name)
			b, err := os.ReadFile(filepath.Join(root, path))
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			i := strings.LastIndex(text, "\n"+selfCheckHeading[lang]+"\n")
			if i < 0 {
				t.Errorf("%s: no %q section", path, selfCheckHeading[lang])
				continue
			}
			section := text[i+1:]
			if j := strings.Index(section[len(selfCheckHeading[lang]):], "\n## "); j >= 0 {
				next := section[len(selfCheckHeading[lang])+j+1:]
				if !strings.HasPrefix(next, labHeading[lang]) || strings.Contains(next[3:], "\n## ") {
					t.Errorf("%s: %q is followed by a section other than the lab (%q...)", path, selfCheckHeading[lang], labHeading[lang])
				}
				section = section[:len(selfCheckHeading[lang])+j+1]
			}
			for _, tag := range []string{"<details>", "<summary>", "</details>"} {
				if n := strings.Count(section, tag); n != 5 {
					t.Errorf("%s: the self-check has %d %s, want 5 (one per question)", path, n, tag)
				}
			}
			questions := numberedQuestion.FindAllString(section, -1)
			if len(questions) != 5 {
				t.Errorf("%s: the self-check has %d numbered questions, want 5", path, len(questions))
			}
		}
	}
}

// TestChaptersLinkTheGlossary checks that the overview and every stage's
// chapter link terms to the glossary (their first uses of its terms).
func TestChaptersLinkTheGlossary(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		for _, name := range markdownFiles(t, filepath.Join(root, "docs", lang)) {
			if !strings.HasPrefix(name, "0") {
				continue
			}
			c, err := readChapter(filepath.Join(root, "docs", lang, name))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, l := range c.links {
				if strings.HasPrefix(l.text, "glossary.md#") {
					n++
				}
			}
			if n == 0 {
				t.Errorf("docs/%s/%s links no term to the glossary", lang, name)
			}
		}
	}
}
