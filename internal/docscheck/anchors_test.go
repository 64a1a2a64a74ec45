package docscheck

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// githubAnchor is the fragment GitHub gives a heading: the text in lower
// case, every character that is not a letter, a mark, a digit, a connector
// (`_`), a space or a hyphen dropped, and each space turned into a hyphen
// (github-slugger's rule). So "Stage 01: ListWatch — LIST" becomes
// "stage-01-listwatch--list", and "队列：dirty 与 processing" becomes
// "队列dirty-与-processing".
func githubAnchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.Pc):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchorsOf is the set of fragments a file's headings answer to, with
// GitHub's "-1", "-2" suffixes for repeated headings, and its <a id="...">
// anchors (GitHub renders the id as user-content-..., and its page script
// scrolls a #... link to it).
func anchorsOf(c *chapter) map[string]bool {
	seen := map[string]int{}
	anchors := map[string]bool{}
	for _, h := range c.headings {
		a := githubAnchor(h.text)
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	for _, a := range c.htmlAnchors {
		anchors[a.text] = true
	}
	return anchors
}

func TestGitHubAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		"Stage 01: ListWatch — LIST, WATCH and the pager": "stage-01-listwatch--list-watch-and-the-pager",
		"Pop, isInInitialList and HasSynced":              "pop-isininitiallist-and-hassynced",
		"The accessors: Core().V1().Pods()":               "the-accessors-corev1pods",
		"队列：dirty 与 processing":                           "队列dirty-与-processing",
		"410 Gone (Expired)":                              "410-gone-expired",
		"`Done` and `Forget`":                             "done-and-forget",
	} {
		if got := githubAnchor(heading); got != want {
			t.Errorf("githubAnchor(%q) = %q, want %q", heading, got, want)
		}
	}
}

// TestLinkAnchorsResolve checks every link with a #fragment to a markdown file
// (another chapter, or the same one): the fragment must be the anchor of one
// of that file's headings, as GitHub renders it. The glossary's links and the
// chapters' links to it depend on this.
func TestLinkAnchorsResolve(t *testing.T) {
	files := []string{"README.md", "README.zh-CN.md"}
	for _, lang := range []string{"en", "zh"} {
		for _, f := range markdownFiles(t, filepath.Join(root, "docs", lang)) {
			files = append(files, filepath.Join("docs", lang, f))
		}
	}
	cache := map[string]map[string]bool{}
	anchorsIn := func(path string) (map[string]bool, error) {
		if a, ok := cache[path]; ok {
			return a, nil
		}
		c, err := readChapter(path)
		if err != nil {
			return nil, err
		}
		cache[path] = anchorsOf(c)
		return cache[path], nil
	}
	checked := 0
	for _, f := range files {
		c, err := readChapter(filepath.Join(root, f))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, l := range c.links {
			target, fragment, ok := strings.Cut(l.text, "#")
			if !ok || fragment == "" || strings.Contains(target, "://") {
				continue
			}
			path := filepath.Join(root, f)
			if target != "" {
				path = filepath.Join(root, filepath.Dir(f), target)
			}
			if !strings.HasSuffix(path, ".md") {
				continue
			}
			if _, err := os.Stat(path); err != nil {
				continue // TestRelativeLinksResolve reports it
			}
			anchors, err := anchorsIn(path)
			if err != nil {
				t.Errorf("%s:%d: %v", f, l.line, err)
				continue
			}
			checked++
			if !anchors[fragment] {
				t.Errorf("%s:%d: link to %s: %s has no heading (or <a id>) with the anchor #%s", f, l.line, l.text, target, fragment)
			}
		}
	}
	if checked == 0 {
		t.Error("no link with an anchor was checked: the glossary's links should be")
	}
}
