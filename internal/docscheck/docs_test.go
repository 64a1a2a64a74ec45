package docscheck

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
)

const root = "../.."

// markdownFiles lists the .md files under dir, relative to it.
func markdownFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(dir, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

func TestEnglishAndChineseHaveTheSameChapters(t *testing.T) {
	en := markdownFiles(t, filepath.Join(root, "docs/en"))
	zh := markdownFiles(t, filepath.Join(root, "docs/zh"))
	if len(en) == 0 {
		t.Fatal("docs/en has no chapters")
	}
	if diff := cmp.Diff(en, zh); diff != "" {
		t.Errorf("docs/en and docs/zh hold different files (-en +zh):\n%s", diff)
	}
}

func TestChapterPairsHaveTheSameHeadingsAndCode(t *testing.T) {
	for _, name := range markdownFiles(t, filepath.Join(root, "docs/en")) {
		t.Run(name, func(t *testing.T) {
			en, err := readChapter(filepath.Join(root, "docs/en", name))
			if err != nil {
				t.Fatal(err)
			}
			zh, err := readChapter(filepath.Join(root, "docs/zh", name))
			if err != nil {
				t.Fatalf("no Chinese twin: %v", err)
			}
			if diff := cmp.Diff(headingShape(en), headingShape(zh)); diff != "" {
				t.Errorf("headings differ in number or level (-en +zh):\n%s", diff)
			}
			if len(en.codeBlocks) != len(zh.codeBlocks) {
				t.Errorf("%d code blocks in English, %d in Chinese (-en +zh):\n%s", len(en.codeBlocks), len(zh.codeBlocks), cmp.Diff(codeOf(en), codeOf(zh)))
				return
			}
			for i := range en.codeBlocks {
				if err := sameCode(en.codeBlocks[i], zh.codeBlocks[i]); err != nil {
					t.Errorf("code block %d (line %d in English, %d in Chinese): %v", i+1, en.codeBlocks[i].line, zh.codeBlocks[i].line, err)
				}
			}
		})
	}
}

// sameCode is the rule for a pair of code blocks: identical, except a demo's
// transcript (a text block with timeline rows), which narrates in the
// chapter's language. A Chinese transcript lines up with the English one
// row by row: the same event rows in the same order, and the same steps;
// its headings, explanations and notes are the Chinese demo's, and so are
// the words of its rows (protocolOf): each row's protocol is the English
// one's.
func sameCode(en, zh codeBlock) error {
	if en.info != zh.info || !isTranscript(en) {
		if diff := cmp.Diff(codeOf(&chapter{codeBlocks: []codeBlock{en}}), codeOf(&chapter{codeBlocks: []codeBlock{zh}})); diff != "" {
			return fmt.Errorf("the blocks differ; they must be identical in both languages (-en +zh):\n%s", diff)
		}
		return nil
	}
	enRows, zhRows := transcriptRows(en), transcriptRows(zh)
	if len(enRows) != len(zhRows) {
		return fmt.Errorf("the transcripts' rows differ; a Chinese transcript has the English one's rows, in order (-en +zh):\n%s", cmp.Diff(enRows, zhRows))
	}
	for i := range enRows {
		if err := sameRow(enRows[i], zhRows[i]); err != nil {
			return fmt.Errorf("row %d: %v; a Chinese transcript has the English one's rows, in order, their words said in Chinese:\n-en %s\n+zh %s", i+1, err, enRows[i], zhRows[i])
		}
	}
	if diff := cmp.Diff(stepNumbers(en), stepNumbers(zh)); diff != "" {
		return fmt.Errorf("the transcripts show different steps (-en +zh):\n%s", diff)
	}
	return nil
}

var (
	// timelineRow is an event row: internal/timeline prints a time offset,
	// signed, with three decimals, after two spaces.
	timelineRow = regexp.MustCompile(`^ *[+-]\d+\.\d{3}s  `)
	// stepHeading is a step's heading, in either language: "── Step 3:",
	// "── 第 3 步：".
	stepHeading = regexp.MustCompile(`^── \D*(\d+)`)
)

// eventRow is a transcript's event row in its columns, as
// internal/timeline prints it: the offset, the layer, what, the object, and
// the detail's protocol, then whether an explanation follows it (after
// timeline.Explains).
type eventRow struct {
	head      string // the offset, the layer and what, single-spaced
	object    string
	protocol  string
	explained bool
}

// detailColumn is the display column where internal/timeline starts an
// event row's detail, whatever the widths of the columns before it.
const detailColumn = 63

func parseRow(row string) eventRow {
	head, detail := row, ""
	if w := 0; lang.Width(row) > detailColumn {
		for i, r := range row {
			if w == detailColumn-1 && r == ' ' { // the space before the detail
				head, detail = row[:i], row[i+1:]
				break
			}
			if w >= detailColumn-1 {
				break // an object wider than its column: no split
			}
			w += lang.Width(string(r))
		}
	}
	fields := strings.Fields(head)
	n := 3 // offset, layer, what
	if len(fields) > 3 && fields[2] == "←" {
		n = 4 // "← CREATE"
	}
	r := eventRow{head: strings.Join(fields[:min(n, len(fields))], " ")}
	if len(fields) > n {
		r.object = strings.Join(fields[n:], " ")
	}
	r.protocol, _, r.explained = strings.Cut(detail, timeline.Explains)
	if strings.HasPrefix(detail, strings.TrimPrefix(timeline.Explains, " ")) {
		r.protocol, r.explained = "", true // an explanation alone
	}
	if !r.explained { // no detail column: the explanation may follow the object
		var explained bool
		r.object, _, explained = strings.Cut(r.object, timeline.Explains)
		r.explained = r.explained || explained
	}
	return r
}

var digits = regexp.MustCompile(`\d+`)

// sameRow is the rule for a row of a Chinese transcript beside the English
// one's: the same head and protocol, an explanation in both or in neither,
// and the same object, or an object of words said in Chinese with the same
// numbers in it ("3 pods", "3 个 Pod").
func sameRow(en, zh string) error {
	e, z := parseRow(en), parseRow(zh)
	switch {
	case e.head != z.head:
		return fmt.Errorf("another time, layer or what")
	case e.protocol != z.protocol:
		return fmt.Errorf("another protocol: %q, %q", e.protocol, z.protocol)
	case e.explained != z.explained:
		return fmt.Errorf("an explanation in one language only")
	case e.object == z.object:
		return nil
	case !lang.HasHan(z.object) || lang.HasHan(e.object) || !slices.Equal(digits.FindAllString(e.object, -1), digits.FindAllString(z.object, -1)):
		return fmt.Errorf("another object: %q, %q", e.object, z.object)
	}
	return nil
}

func isTranscript(b codeBlock) bool {
	return b.info == "text" && len(transcriptRows(b)) > 0
}

func transcriptRows(b codeBlock) []string {
	var rows []string
	for _, line := range strings.Split(b.content, "\n") {
		if timelineRow.MatchString(line) {
			rows = append(rows, line)
		}
	}
	return rows
}

func stepNumbers(b codeBlock) []string {
	var steps []string
	for _, line := range strings.Split(b.content, "\n") {
		if m := stepHeading.FindStringSubmatch(line); m != nil {
			steps = append(steps, m[1])
		}
	}
	return steps
}

// TestTranscriptsMayNarrateInTheirLanguage: the rule for code blocks
// lets a transcript's narration differ, and the words of its rows (an
// object of words, the explanation after a row's protocol), and nothing
// else.
func TestTranscriptsMayNarrateInTheirLanguage(t *testing.T) {
	en := codeBlock{info: "text", content: "── Step 2: LIST in pages ────\n   The pager asks.\n" +
		"  +0.031s  http       GET       /api/v1/pods limit=2\n" +
		"  +0.040s  pager      PAGE      page 1: 2 pods                 rv=74 continue=\"\" — no continue token: the last page\n" +
		"  +0.041s  demo       CUT       the informer's connection      — its watch ends\n" +
		"  +0.042s  demo       ← DELETE  stage06/web-2                  rv=77\n"}
	zh := func(rows ...string) codeBlock {
		return codeBlock{info: "text", content: "── 第 2 步：分页 LIST ────\n   分页器每次要两个。\n" + strings.Join(rows, "\n") + "\n"}
	}
	get := "  +0.031s  http       GET       /api/v1/pods limit=2"
	page := "  +0.040s  pager      PAGE      第 1 页：2 个 Pod              rv=74 continue=\"\" — 没有 continue token：这是最后一页"
	cut := "  +0.041s  demo       CUT       informer 的连接                — 它的 watch 断开"
	del := "  +0.042s  demo       ← DELETE  stage06/web-2                  rv=77"
	for _, tc := range []struct {
		name string
		zh   codeBlock
		ok   bool
	}{
		{"Chinese narration, the rows' words in Chinese, the same protocol", zh(get, page, cut, del), true},
		{"the rows as in English", zh(strings.Split(strings.TrimSpace(en.content), "\n")[2:]...), true},
		{"another resourceVersion", zh(get, strings.Replace(page, "rv=74", "rv=75", 1), cut, del), false},
		{"another count in an object of words", zh(get, strings.Replace(page, "2 个 Pod", "3 个 Pod", 1), cut, del), false},
		{"an explanation dropped", zh(get, strings.Split(page, " — ")[0], cut, del), false},
		{"an object that is a name, changed", zh(get, page, cut, strings.Replace(del, "stage06/web-2", "stage06/web-3", 1)), false},
		{"a row missing", zh(get, page, cut), false},
		{"the rows reordered", zh(page, get, cut, del), false},
		{"another step", codeBlock{info: "text", content: strings.Replace(zh(get, page, cut, del).content, "第 2 步", "第 3 步", 1)}, false},
		{"another kind of block", codeBlock{info: "sh", content: en.content}, false},
	} {
		if err := sameCode(en, tc.zh); (err == nil) != tc.ok {
			t.Errorf("%s: sameCode = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
	// A text block without rows (a test's output) stays identical.
	out := codeBlock{info: "text", content: "  ✗ TestListMatchesClientGo: 1 of 13 cases fail\n"}
	if err := sameCode(out, codeBlock{info: "text", content: "  ✗ TestListMatchesClientGo：13 个用例中 1 个失败\n"}); err == nil {
		t.Error("a text block with no timeline rows was allowed to differ")
	}
}

// headingShape is the level of each heading, in order. The text differs by
// language; the structure must not.
func headingShape(c *chapter) []string {
	var s []string
	for _, h := range c.headings {
		s = append(s, strings.Repeat("#", h.level))
	}
	return s
}

func codeOf(c *chapter) []string {
	var s []string
	for _, b := range c.codeBlocks {
		s = append(s, "```"+b.info+"\n"+b.content)
	}
	return s
}

func TestRelativeLinksResolve(t *testing.T) {
	files := []string{"README.md", "README.zh-CN.md"}
	for _, lang := range []string{"en", "zh"} {
		for _, f := range markdownFiles(t, filepath.Join(root, "docs", lang)) {
			files = append(files, filepath.Join("docs", lang, f))
		}
	}
	for _, f := range files {
		c, err := readChapter(filepath.Join(root, f))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, l := range c.links {
			target, _, _ := strings.Cut(l.text, "#")
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path := filepath.Join(root, filepath.Dir(f), target)
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s:%d: link to %s, which does not exist", f, l.line, l.text)
			}
		}
	}
}

var (
	citedFile = regexp.MustCompile(`^(?:k8s\.io/client-go/)?((?:tools|util|rest|informers|listers|kubernetes|dynamic|metadata)/[\w./-]+\.go)$`)
	// pkg.Name, pkg.Type.Member, either as a call: pkg.F() or pkg.F(a, b).
	citedIdentifier = regexp.MustCompile(`^([a-z][a-z0-9]*)\.([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?(?:\([^()]*\))?$`)
	// A client-go path in a Go file's header: one of client-go's top
	// directories the stages mirror, alone or after k8s.io/client-go/, but
	// not the tail of another module's path such as apimachinery's
	// pkg/util/wait/backoff.go.
	citedFileInGo = regexp.MustCompile(`(?:^|[\s(])(?:k8s\.io/client-go/)?((?:tools|util|rest|informers|listers|kubernetes|dynamic|metadata)/[\w/-]+\.go)\b`)
)

func TestChaptersCiteOnlyWhatClientGoHas(t *testing.T) {
	dir, err := clientGoDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "zh"} {
		for _, name := range markdownFiles(t, filepath.Join(root, "docs", lang)) {
			path := filepath.Join("docs", lang, name)
			c, err := readChapter(filepath.Join(root, path))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range c.spans {
				if err := checkCitation(dir, s.text); err != nil {
					t.Errorf("%s:%d: %v", path, s.line, err)
				}
			}
		}
	}
}

// checkCitation checks one inline code span; spans that are not citations
// (flags, our own identifiers, shell commands) pass.
func checkCitation(clientGo, text string) error {
	if m := citedFile.FindStringSubmatch(text); m != nil {
		if _, err := os.Stat(filepath.Join(clientGo, m[1])); err != nil {
			return fmt.Errorf("`%s`: no such file in client-go %s", text, clientGoVersion)
		}
		return nil
	}
	m := citedIdentifier.FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	pkg, ok := packageDirs[m[1]]
	if !ok || (m[2] == "go" && m[3] == "") {
		return nil // not a package we cite, or a file name such as `pager.go`
	}
	modDir, err := moduleDir(pkg.module)
	if err != nil {
		return err
	}
	decls, err := packageDeclarations(filepath.Join(modDir, pkg.dir))
	if err != nil {
		return err
	}
	name := m[2]
	if m[3] != "" {
		name += "." + m[3]
	}
	if !decls[name] {
		if pkg.module == clientGoModule {
			return fmt.Errorf("`%s`: client-go %s declares no %s in %s", text, clientGoVersion, name, pkg.dir)
		}
		return fmt.Errorf("`%s`: %s declares no %s in %s", text, pkg.module, name, pkg.dir)
	}
	return nil
}

// TestStageSourcesCiteRealClientGoFiles checks the opening comments of the
// stages' Go files: every client-go file they say they mirror must exist,
// and every name their "Mirrors" sentence lists after a file must be
// declared in that file's package (mirrors.go).
func TestStageSourcesCiteRealClientGoFiles(t *testing.T) {
	dir, err := clientGoDir()
	if err != nil {
		t.Fatal(err)
	}
	stages, _ := filepath.Glob(filepath.Join(root, "0[1-8]-*"))
	names := 0
	for _, stage := range stages {
		filepath.WalkDir(stage, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			header, _, _ := strings.Cut(string(b), "\npackage ")
			rel, _ := filepath.Rel(root, path)
			for _, m := range citedFileInGo.FindAllStringSubmatch(header, -1) {
				if _, err := os.Stat(filepath.Join(dir, m[1])); err != nil {
					t.Errorf("%s cites %s, which client-go %s does not have", rel, m[1], clientGoVersion)
				}
			}
			for _, n := range mirroredNames(header) {
				names++
				decls, err := packageDeclarations(filepath.Join(dir, n.dir))
				if err != nil {
					continue // the file check above reports a directory that is not there
				}
				if !decls.declares(n.name) {
					t.Errorf("%s says it mirrors %s of %s, which client-go %s does not declare there", rel, n.name, n.dir, clientGoVersion)
				}
			}
			return nil
		})
	}
	// The stages' headers list over 450 names; far fewer means the reading
	// of them broke, and the check above passes for want of anything to check.
	if names < 300 {
		t.Errorf("the stages' headers list %d client-go names after the files they mirror; want 300 or more (did mirroredNames or the headers' form change?)", names)
	}
}
