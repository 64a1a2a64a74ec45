package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoSolutionLinesInTheLabTool: a learner who greps the tree for a line
// they half remember (a log message, a call) while writing a lab must not
// find the solution in the lab's own files: the tool, its hints, its wrong
// answers and its list of equivalent mutants. Every line of a marked body
// that says something (not a brace or a bare return) is looked for, as grep
// would, in every file under cmd/lab. The saved solution and attempts are
// inside the git directory, which this does not search (see state.go).
func TestNoSolutionLinesInTheLabTool(t *testing.T) {
	var files []string
	filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	})
	contents := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		contents[f] = string(b)
	}
	for _, l := range labs {
		bodies, err := l.solutionBodies(root)
		if err != nil {
			t.Fatal(err)
		}
		for fn, body := range bodies {
			for _, line := range strings.Split(body, "\n") {
				line = strings.TrimSpace(line)
				if trivialLine(line) || len(line) < 12 {
					continue
				}
				for _, f := range files {
					if found(contents[f], line, strings.HasSuffix(f, ".wrong")) {
						t.Errorf("lab %d: a line of %s is in %s, where a learner's grep finds it: %s", l.N, fn, f, line)
					}
				}
			}
		}
	}
}

// found says whether line is in content: anywhere in it, as grep finds a
// string, or for a wrong answer as one of its lines (a wrong line may hold a
// solution's line inside it, "if err := c.sync(...); err != nil {", and is
// still a wrong line).
func found(content, line string, wholeLines bool) bool {
	if !wholeLines {
		return strings.Contains(content, line)
	}
	for _, l := range strings.Split(content, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(l, "+"))
		if l == line || (squeeze(line) != "" && squeeze(l) == squeeze(line)) {
			return true
		}
	}
	return false
}

// TestChaptersPrintNoLabAnswerUnmarked: a chapter may show a lab's function
// (the reader who does not take the lab learns from it), but only in a
// block a learner can see coming and skip: inside
//
//	<details>
//	<summary>The lab's answer: ...</summary>   (实验答案 in Chinese)
//
// A code block outside one that holds three or more lines of one marked
// body that say something (not a brace, not a bare return) prints it.
func TestChaptersPrintNoLabAnswerUnmarked(t *testing.T) {
	for _, l := range labs {
		bodies, err := l.solutionBodies(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range []string{"en", "zh"} {
			pages, _ := filepath.Glob(filepath.Join(root, "docs", lang, "*.md"))
			more, _ := filepath.Glob(filepath.Join(root, "docs", lang, "*", "*.md"))
			for _, page := range append(pages, more...) {
				b, err := os.ReadFile(page)
				if err != nil {
					t.Fatal(err)
				}
				for _, blk := range unmarkedCodeBlocks(string(b)) {
					for fn, body := range bodies {
						if n := linesOf(body, blk.text); n >= 3 {
							rel, _ := filepath.Rel(root, page)
							t.Errorf("%s:%d prints %d lines of lab %d's %s outside a block marked as the lab's answer (<details><summary>The lab's answer: ...)", rel, blk.line, n, l.N, fn)
						}
					}
				}
			}
		}
	}
}

type codeBlock struct {
	line int
	text string
}

// unmarkedCodeBlocks are the fenced code blocks of a markdown page that are
// not inside a <details> whose summary says it is a lab's answer.
func unmarkedCodeBlocks(page string) []codeBlock {
	var out []codeBlock
	inAnswer, inCode := false, false
	var cur []string
	start := 0
	for i, line := range strings.Split(page, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case inCode && strings.HasPrefix(t, "```"):
			inCode = false
			if !inAnswer {
				out = append(out, codeBlock{start, strings.Join(cur, "\n")})
			}
			cur = nil
		case inCode:
			cur = append(cur, line)
		case strings.HasPrefix(t, "```"):
			inCode, start = true, i+1
		case strings.HasPrefix(t, "<summary>") && (strings.Contains(t, "lab's answer") || strings.Contains(t, "实验答案")):
			inAnswer = true
		case t == "</details>":
			inAnswer = false
		}
	}
	return out
}

// linesOf counts the lines of body that say something and are in text.
func linesOf(body, text string) int {
	in := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		in[squeeze(l)] = true
	}
	n := 0
	for _, l := range strings.Split(body, "\n") {
		if s := squeeze(l); s != "" && !trivialLine(l) && len(s) >= 12 && in[s] {
			n++
		}
	}
	return n
}
