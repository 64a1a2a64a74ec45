package docscheck

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The version timeline, docs/{en,zh}/versions.md, is a table whose rows are
// proved from the released modules (make versions; proving-ground/versions
// keeps the table equal to its probes). A chapter that says when something
// changed says it by linking the version to its row, [1.35](versions.md#watchlistclient-on),
// so that a reader can see what proves it and a correction to the table
// finds every sentence that repeats it. These checks hold the chapters,
// the proof chapters and the READMEs to that, in both languages:
//
//   - a link to a row whose text names a version names the row's version;
//   - a version claim ("since 1.35", "1.36 起", "new in v0.37") is the text
//     of such a link.

// versionRowAnchor is a row of the table: its anchor and its version.
var versionRowAnchor = regexp.MustCompile(`^\| <a id="([^"]+)"></a>(1\.\d+) \|`)

// versionRows reads a versions.md's rows: anchor to version.
func versionRows(t *testing.T, path string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if m := versionRowAnchor.FindStringSubmatch(line); m != nil {
			rows[m[1]] = m[2]
		}
	}
	if len(rows) == 0 {
		t.Fatalf("%s has no rows like | <a id=\"...\"></a>1.N |", path)
	}
	return rows
}

var (
	// versionNumber finds 1.NN and v0.NN; versionClaim decides which are
	// claims.
	versionNumber = regexp.MustCompile(`(v0|1)\.(\d\d)`)
	linkWithText  = regexp.MustCompile(`\[([^\]]*)\]\(([^)\s]+)\)`)
	// The words around a version that make it say when something changed.
	claimBefore = regexp.MustCompile(`(?i)(\b(since|in|until|before|after|from)|自|从|在|于)\s*(Kubernetes\s*|client-go\s*)?$`)
	// "1.36 起", "1.30 之前", "1.35 beta", "1.36 GA", "1.33 为 beta".
	claimAfter = regexp.MustCompile(`^\s*(起|之前|以前|之后|以后|新增|为|GA\b|beta\b|alpha\b)`)
	// "(1.33)", "(kubernetes#136008, 1.36)", "（1.33）", "（…，1.36）".
	claimInParens = regexp.MustCompile(`([(（]|[,，]\s*)(Kubernetes\s*)?$`)
	closingParen  = regexp.MustCompile(`^[)）]`)
	// "client-go v0.37.2 (Kubernetes 1.37)" names a release, it claims
	// nothing about a change.
	namingRelease = regexp.MustCompile(`v0\.\d+\.\d+\**\s*[(（]Kubernetes\s*$`)
	// A claim linked to its row reads "since [1.35](versions.md#...)": the
	// link's brackets are not context.
	linkClose = regexp.MustCompile(`^\]\([^)\s]*\)`)
)

// versionClaims finds the version claims of a line of prose (code spans
// already blanked): each as its offset, its end and its version, "1.N".
// prev is the line before in the same paragraph, whose end is the context
// of a version at the start of this one ("on by default in\n1.36").
func versionClaims(prev, line string) [][3]string {
	var out [][3]string
	for _, m := range versionNumber.FindAllStringSubmatchIndex(line, -1) {
		start, end := m[0], m[1]
		prefix, minor := line[m[2]:m[3]], line[m[4]:m[5]]
		before, after := line[:start], line[end:]
		if strings.TrimSpace(before) == "" && prev != "" {
			before = prev + " "
		}
		before = strings.ReplaceAll(before, "[", "")
		after = linkClose.ReplaceAllString(after, "")
		switch {
		case minor < "20" || minor > "39":
			continue // not a release this table covers
		case start > 0 && strings.ContainsAny(line[start-1:start], "0123456789.vV-"), strings.HasSuffix(before, "–"):
			continue // part of another number, a version like v1.37.1, a range 1.19-1.25
		case strings.HasPrefix(after, ".") && len(after) > 1 && after[1] >= '0' && after[1] <= '9':
			continue // 1.37.1, v0.37.2: a release, not a minor version
		case strings.HasPrefix(after, "-") || strings.HasPrefix(after, "–"):
			continue // a range: "about 1.19-1.25" dates an article
		case strings.HasSuffix(before, "Go "):
			continue // Go 1.26
		case namingRelease.MatchString(before):
			continue
		}
		claim := false
		if prefix == "v0" {
			// "in v0.37" is the version taught; only "new in v0.37" and
			// "since v0.37" say a change came.
			claim = regexp.MustCompile(`(?i)(new in|since)\s*(client-go\s*)?$`).MatchString(before) || strings.HasPrefix(strings.TrimSpace(after), "新增")
		} else {
			claim = claimBefore.MatchString(before) || claimAfter.MatchString(after) ||
				(claimInParens.MatchString(before) && closingParen.MatchString(after))
		}
		if claim {
			out = append(out, [3]string{fmt.Sprint(start), fmt.Sprint(end), "1." + minor})
		}
	}
	return out
}

// proseLines yields a markdown file's lines outside fenced code, with
// inline code blanked (a version in `code` is a name, not a claim), each
// with the line before it in its paragraph ("" for a paragraph's first).
// Headings are left out: a link in a heading would change its anchor, so a
// heading's version is linked in the text under it.
func proseLines(t *testing.T, path string, each func(n int, prev, line string)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	inCode, prev := false, ""
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inCode, prev = !inCode, ""
			continue
		}
		if inCode || headingLevel(line) > 0 {
			prev = ""
			continue
		}
		line = inlineCode.ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat(" ", len(s)) })
		each(n, prev, line)
		prev = line
	}
}

// versionClaimProblems checks one file's lines against the rows of its
// language's versions.md. self is true for versions.md itself, whose links
// to its rows are #id.
func versionClaimProblems(t *testing.T, path string, rows map[string]string, self bool) []string {
	t.Helper()
	var problems []string
	proseLines(t, path, func(n int, prev, line string) {
		if self && versionRowAnchor.MatchString(line) {
			return // the table itself
		}
		links := linkWithText.FindAllStringSubmatchIndex(line, -1)
		rowOf := func(target string) (string, bool) {
			file, id, _ := strings.Cut(target, "#")
			if !(self && file == "") && filepath.Base(file) != "versions.md" {
				return "", false
			}
			_, ok := rows[id]
			return id, ok
		}
		for _, l := range links {
			text, target := line[l[2]:l[3]], line[l[4]:l[5]]
			id, ok := rowOf(target)
			if !ok {
				continue
			}
			if m := versionNumber.FindStringSubmatch(text); m != nil && "1."+m[2] != rows[id] {
				problems = append(problems, fmt.Sprintf("%s:%d: [%s](%s): the row says %s", path, n, text, target, rows[id]))
			}
		}
		for _, c := range versionClaims(prev, line) {
			var start, end int
			fmt.Sscan(c[0], &start)
			fmt.Sscan(c[1], &end)
			linked := false
			for _, l := range links {
				if l[2] <= start && end <= l[3] {
					id, ok := rowOf(line[l[4]:l[5]])
					linked = ok && rows[id] == c[2]
				}
			}
			if !linked {
				var candidates []string
				for id, v := range rows {
					if v == c[2] {
						candidates = append(candidates, id)
					}
				}
				slices.Sort(candidates)
				if len(candidates) == 0 {
					candidates = []string{"none: no row names " + c[2] + ", so make versions shows no change then"}
				}
				context := []rune(line[:start])
				context = append(context[max(0, len(context)-25):], []rune(line[start:])[:min(len([]rune(line[start:])), 15)]...)
				problems = append(problems, fmt.Sprintf("%s:%d: %q claims a version: link %s to its row in versions.md (rows of %s: %s)",
					path, n, strings.TrimSpace(string(context)), line[start:end], c[2], strings.Join(candidates, ", ")))
			}
		}
	})
	return problems
}

// TestVersionClaimsLinkToTheirRow runs the check over every chapter, proof
// chapter and README, each against its language's table.
func TestVersionClaimsLinkToTheirRow(t *testing.T) {
	files := map[string]string{"README.md": "en", "README.zh-CN.md": "zh"}
	for _, lang := range []string{"en", "zh"} {
		for _, f := range markdownFiles(t, filepath.Join(root, "docs", lang)) {
			files[filepath.Join("docs", lang, f)] = lang
		}
	}
	rows := map[string]map[string]string{
		"en": versionRows(t, filepath.Join(root, "docs/en/versions.md")),
		"zh": versionRows(t, filepath.Join(root, "docs/zh/versions.md")),
	}
	var problems []string
	for f, lang := range files {
		problems = append(problems, versionClaimProblems(t, filepath.Join(root, f), rows[lang], filepath.Base(f) == "versions.md")...)
	}
	slices.Sort(problems)
	for _, p := range problems {
		t.Error(strings.TrimPrefix(p, root+"/"))
	}
}

// TestVersionClaimsAreFound keeps the claim finder honest on the phrasings
// the chapters use, and on the numbers that are no claim.
func TestVersionClaimsAreFound(t *testing.T) {
	for line, want := range map[string][]string{
		"WatchList is the default since 1.35, and":                                                          {"1.35"},
		"This changed in Kubernetes 1.30 (kubernetes#117046)":                                               {"1.30"},
		"beta and on by default in 1.33, GA and locked on in":                                               {"1.33"},
		"`InOrderInformers` (1.33) it creates a RealFIFO":                                                   {"1.33"},
		"(kubernetes#136008, 1.36). Run the demo":                                                           {"1.36"},
		"True until 1.30; now `AddIndexers` works":                                                          {"1.30"},
		"`TypedInformer` (new in v0.37) returns":                                                            {"1.37"},
		"（`InOrderInformersBatchProcess` 特性（1.35 起默认开启）下，":                                                  {"1.35"},
		"1.33 为 beta 且默认开启，1.36 GA 并锁定为开启":                                                                  {"1.33", "1.36"},
		"从 Kubernetes 1.30 起：`AddIndexers` 会":                                                               {"1.30"},
		"而 `ShutDownWithDrain` 在 1.22 之前并不存在。":                                                              {"1.22"},
		"`TypedInformer`（v0.37 新增）给 informer":                                                               {"1.37"},
		"the default since [1.35](versions.md#watchlistclient-on)":                                          {"1.35"}, // found, and linked
		"([kubernetes#101928](https://github.com/kubernetes/kubernetes/pull/101928), Kubernetes 1.22) does": {"1.22"},
		"GA and locked on in":                                                                               nil,
		"client-go v0.37.2 (Kubernetes 1.37) by tests":                                                      nil,
		"对照 **client-go v0.37.2**（Kubernetes 1.37）逐一验证":                                                     nil,
		"the playground's kube-apiserver v1.37.1 (watch cache on)":                                          nil,
		"AMD EPYC, Go 1.26.":                                     nil,
		"| 002 | an article | about 1.19-1.25 |":                 nil,
		"Ours ÷ client-go runs from 0.84 to 1.30 with a":         nil,
		"the largest, 1.30 (1.14 to 1.51) at 1,000 pods":         nil,
		"ours 1.4 ms against 1.2 ms with one handler (1.23, its": nil,
		"（client-go：0.97 到 1.23）；50,000 个":                       nil,
		"In v0.37 its `InOrderInformers` gate is":                nil,
		"what a v0.37 reflector sends first":                     nil,
	} {
		var got []string
		for _, c := range versionClaims("", line) {
			got = append(got, c[2])
		}
		if !slices.Equal(got, want) {
			t.Errorf("versionClaims(%q) = %v, want %v", line, got, want)
		}
	}
	// A version at the start of a line has the end of the line before as
	// its context.
	if got := versionClaims("beta and on by default in 1.33, GA and locked on in", "1.36, so in v0.37 the"); len(got) != 1 || got[0][2] != "1.36" {
		t.Errorf("a claim wrapped after \"in\": %v, want 1.36", got)
	}
}

// TestVersionClaimProblemsCatchesEachMistake: an unlinked claim, a claim
// linked to a row of another version, and a link whose text names another
// version than its row are each reported; a claim linked right is not.
func TestVersionClaimProblemsCatchesEachMistake(t *testing.T) {
	rows := map[string]string{"watchlistclient-on": "1.35", "shutdownwithdrain": "1.23"}
	for text, want := range map[string]int{
		"WatchList is the default since [1.35](versions.md#watchlistclient-on).": 0,
		"WatchList is the default since 1.35.":                                   1,
		"It came in [1.22](versions.md#shutdownwithdrain).":                      2, // the link's text, and the claim
		"It came in [Kubernetes 1.23](versions.md#watchlistclient-on).":          2,
		"See [the row](versions.md#shutdownwithdrain).":                          0,
	} {
		path := filepath.Join(t.TempDir(), "chapter.md")
		if err := os.WriteFile(path, []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := versionClaimProblems(t, path, rows, false); len(got) != want {
			t.Errorf("%q: %d problems %v, want %d", text, len(got), got, want)
		}
	}
}
