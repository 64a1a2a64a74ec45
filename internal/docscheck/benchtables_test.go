package docscheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The scale benchmark's numbers live in one place: docs/bench/scale.md,
// which `make bench-scale` writes. The proof chapter on performance shows
// some of its tables inside generated blocks,
//
//	<!-- generated from docs/bench/scale.md, "Initial sync": make bench-scale rewrites it -->
//	| pods | encoding | … |
//	<!-- end of generated block -->
//
// holding the tables and mermaid charts of that section of the report, in
// order, without its prose. TestBenchTablesMatchTheReport fails when a block
// differs from the report; with UPDATE_BENCH_TABLES=1 it rewrites the blocks
// instead, which `make bench-scale` does after each run. The Chinese chapter
// holds the same rows and charts; only each table's header row is its own
// (translated, with the report's number of columns).

const (
	benchReport     = "docs/bench/scale.md"
	updateBenchEnv  = "UPDATE_BENCH_TABLES"
	generatedEndTag = "<!-- end of generated block -->"
)

// benchChapters are the chapters with generated blocks, by language.
var benchChapters = map[string]string{"en": "docs/en/proof/performance.md", "zh": "docs/zh/proof/performance.md"}

// generatedBlock is an opening marker, what follows it, and its end marker.
var generatedBlock = regexp.MustCompile(`(?s)<!-- generated from docs/bench/scale\.md, "([^"]+)": make bench-scale rewrites it -->\n(.*?)\n?` + regexp.QuoteMeta(generatedEndTag))

// reportSection returns the text of the section of a report under the
// heading "## name", up to the next heading of that level.
func reportSection(report, name string) (string, error) {
	start := strings.Index(report, "\n## "+name+"\n")
	if start < 0 {
		return "", fmt.Errorf("%s has no section %q", benchReport, name)
	}
	section := report[start+len("\n## "+name+"\n"):]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	return section, nil
}

// piece is one table or one fenced chart of a generated block.
type piece struct {
	table bool
	lines []string
}

// piecesOf splits text into its tables (runs of lines that start with "|")
// and its ```mermaid blocks; everything else, prose, is left out.
func piecesOf(text string) []piece {
	var pieces []piece
	var cur *piece
	inChart := false
	flush := func() {
		if cur != nil {
			pieces = append(pieces, *cur)
			cur = nil
		}
	}
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case inChart:
			cur.lines = append(cur.lines, line)
			if trimmed == "```" {
				inChart = false
				flush()
			}
		case strings.HasPrefix(trimmed, "```mermaid"):
			flush()
			cur = &piece{lines: []string{line}}
			inChart = true
		case strings.HasPrefix(trimmed, "|"):
			if cur == nil || !cur.table {
				flush()
				cur = &piece{table: true}
			}
			cur.lines = append(cur.lines, line)
		default:
			flush()
		}
	}
	flush()
	return pieces
}

func renderPieces(pieces []piece) string {
	var parts []string
	for _, p := range pieces {
		parts = append(parts, strings.Join(p.lines, "\n"))
	}
	return strings.Join(parts, "\n\n")
}

// columns is the number of cells of a table row.
func columns(row string) int {
	return strings.Count(strings.Trim(strings.TrimSpace(row), "|"), "|") + 1
}

// wantBlock is what the block for a section must hold in a language: the
// report's pieces, with the headers of the block's own tables kept in
// Chinese. It fails when the block's tables no longer line up with the
// report's (a table added or removed, a column added), which needs a
// translator.
func wantBlock(lang string, report, have []piece) (string, error) {
	if lang == "en" {
		return renderPieces(report), nil
	}
	want := make([]piece, len(report))
	copy(want, report)
	if len(have) != len(report) {
		return "", fmt.Errorf("the block has %d tables and charts, the report's section %d: copy the report's and translate their header rows", len(have), len(report))
	}
	for i, p := range report {
		if !p.table {
			continue
		}
		if !have[i].table || len(have[i].lines) == 0 {
			return "", fmt.Errorf("piece %d is a table in the report, not in the block", i+1)
		}
		header := have[i].lines[0]
		if columns(header) != columns(p.lines[0]) {
			return "", fmt.Errorf("table %d: the block's header row has %d columns, the report's %d: translate the report's header\n  %s", i+1, columns(header), columns(p.lines[0]), p.lines[0])
		}
		want[i] = piece{table: true, lines: append([]string{header}, p.lines[1:]...)}
	}
	return renderPieces(want), nil
}

// checkBenchBlocks compares (or, with update, rewrites) the generated
// blocks of one chapter, and returns the chapter's text as it should be,
// the sections it found, and what differs.
func checkBenchBlocks(lang, chapter, report string) (fixed string, sections []string, problems []string) {
	fixed = generatedBlock.ReplaceAllStringFunc(chapter, func(block string) string {
		m := generatedBlock.FindStringSubmatch(block)
		name, body := m[1], m[2]
		sections = append(sections, name)
		section, err := reportSection(report, name)
		if err != nil {
			problems = append(problems, err.Error())
			return block
		}
		want, err := wantBlock(lang, piecesOf(section), piecesOf(body))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%q: %v", name, err))
			return block
		}
		if strings.TrimSpace(body) != want {
			problems = append(problems, fmt.Sprintf("%q differs from the report (-chapter +report):\n%s", name, lineDiff(strings.TrimSpace(body), want)))
		}
		// Blank lines around the tables, so that markdown never reads a
		// marker as part of one.
		opening := block[:strings.Index(block, "\n")+1]
		return opening + "\n" + want + "\n\n" + generatedEndTag
	})
	return fixed, sections, problems
}

// lineDiff lists the lines only in a (-) and only in b (+), in order.
func lineDiff(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	inA, inB := in(a), in(b)
	var out []string
	for _, l := range strings.Split(a, "\n") {
		if !inB[l] {
			out = append(out, "-"+l)
		}
	}
	for _, l := range strings.Split(b, "\n") {
		if !inA[l] {
			out = append(out, "+"+l)
		}
	}
	return strings.Join(out, "\n")
}

// TestBenchTablesMatchTheReport keeps the performance chapter's tables one
// copy of docs/bench/scale.md's: the same rows and charts, in both languages.
func TestBenchTablesMatchTheReport(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, benchReport))
	if err != nil {
		t.Fatal(err)
	}
	report := string(b)
	update := os.Getenv(updateBenchEnv) == "1"
	var en []string
	for _, lang := range []string{"en", "zh"} {
		path := filepath.Join(root, benchChapters[lang])
		text, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fixed, sections, problems := checkBenchBlocks(lang, string(text), report)
		if len(sections) == 0 {
			t.Errorf("%s has no generated block of %s", benchChapters[lang], benchReport)
		}
		if lang == "en" {
			en = sections
		} else if strings.Join(sections, "|") != strings.Join(en, "|") {
			t.Errorf("%s shows the report's sections %q, the English chapter %q", benchChapters[lang], sections, en)
		}
		if update && fixed != string(text) {
			if err := os.WriteFile(path, []byte(fixed), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: generated blocks rewritten from %s", benchChapters[lang], benchReport)
			problems = slicesWithout(problems, "differs from the report")
		}
		for _, p := range problems {
			t.Errorf("%s: %s (UPDATE_BENCH_TABLES=1 go test ./internal/docscheck -run %s rewrites the blocks)", benchChapters[lang], p, t.Name())
		}
	}
}

// slicesWithout drops the problems that contain s.
func slicesWithout(problems []string, s string) []string {
	var kept []string
	for _, p := range problems {
		if !strings.Contains(p, s) {
			kept = append(kept, p)
		}
	}
	return kept
}

// TestBenchBlocksCatchADrift makes sure the check can fail: a block that
// lost a row, changed a number, or whose Chinese header lost a column is
// reported, and a Chinese header alone may differ.
func TestBenchBlocksCatchADrift(t *testing.T) {
	report := "# r\n\n## Initial sync\n\nProse.\n\n| a | b |\n| ---: | ---: |\n| 1 | 2 |\n| 3 | 4 |\n\n```mermaid\nchart\n```\n\n## Next\n"
	block := func(body string) string {
		return "before\n<!-- generated from docs/bench/scale.md, \"Initial sync\": make bench-scale rewrites it -->\n\n" + body + "\n\n" + generatedEndTag + "\nafter\n"
	}
	good := "| a | b |\n| ---: | ---: |\n| 1 | 2 |\n| 3 | 4 |\n\n```mermaid\nchart\n```"
	for _, tc := range []struct {
		name, lang, body string
		ok               bool
	}{
		{"the same", "en", good, true},
		{"a translated header", "zh", strings.Replace(good, "| a | b |", "| 甲 | 乙 |", 1), true},
		{"an English header translated", "en", strings.Replace(good, "| a | b |", "| 甲 | 乙 |", 1), false},
		{"a number changed", "en", strings.Replace(good, "| 3 | 4 |", "| 3 | 5 |", 1), false},
		{"a number changed, Chinese", "zh", strings.Replace(good, "| 3 | 4 |", "| 3 | 5 |", 1), false},
		{"a row lost", "en", strings.Replace(good, "| 3 | 4 |\n", "", 1), false},
		{"the chart changed", "zh", strings.Replace(good, "chart", "chart 2", 1), false},
		{"a header lost a column", "zh", strings.Replace(good, "| a | b |", "| 甲 |", 1), false},
	} {
		fixed, sections, problems := checkBenchBlocks(tc.lang, block(tc.body), report)
		if (len(problems) == 0) != tc.ok || len(sections) != 1 {
			t.Errorf("%s: problems %q, sections %q; want ok=%v", tc.name, problems, sections, tc.ok)
		}
		if tc.ok != (fixed == block(tc.body)) && !strings.Contains(tc.name, "header lost") {
			t.Errorf("%s: the rewrite gave\n%s", tc.name, fixed)
		}
	}
	if _, _, problems := checkBenchBlocks("en", strings.Replace(block(good), "Initial sync", "Initial sink", 1), report); len(problems) == 0 {
		t.Error("a block naming a section the report does not have passed")
	}
}
