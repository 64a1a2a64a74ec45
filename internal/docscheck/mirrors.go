package docscheck

import (
	"path"
	"regexp"
	"strings"
)

// A stage file's header says what it mirrors, in one sentence:
//
//	// Mirrors k8s.io/client-go v0.37.2 tools/cache/reflector.go: list and
//	// syncWith. …
//	// Mirrors k8s.io/client-go v0.37.2 tools/cache/store.go (KeyFunc,
//	// KeyError), controller.go (DeletionHandlingMetaNamespaceKeyFunc) and …
//
// mirroredNames reads that sentence: each client-go file it cites (a bare
// file name is in the directory of the one before), and the names listed
// after it. A name is one word between commas, parentheses, colons,
// semicolons and "and", with a capital, a dot or an underscore in it:
// ListWatch, processorListener.pop, Add, checkSynced_locked. Anything longer
// ("the Lister", "its methods") is prose, and so is a lower-case word
// ("and backoff", "from"): neither is checked, at the price of names such as
// list and watch.

// mirrorsSentence is that sentence: from "Mirrors k8s.io/client-go
// v0.37.2" to the first full stop followed by a space or the end.
var mirrorsSentence = regexp.MustCompile(`Mirrors k8s\.io/client-go ` + regexp.QuoteMeta(clientGoVersion) + ` (.*?)(?:\.\s|\.$|$)`)

var (
	mirroredFile = regexp.MustCompile(`(?:k8s\.io/client-go/)?((?:[\w-]+/)*[\w-]+\.go)\b`)
	goName       = regexp.MustCompile(`^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?$`)
	nameBreak    = regexp.MustCompile(`[(),;:]|\band\b`)
)

// mirroredName is one name a header lists, and the client-go directory of
// the file it is listed under.
type mirroredName struct{ dir, name string }

// mirroredNames returns the names a Go file's header (its comment lines
// before the package clause) lists after the client-go files it mirrors.
func mirroredNames(header string) []mirroredName {
	var lines []string
	for _, l := range strings.Split(header, "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(l), "//"); ok {
			lines = append(lines, strings.TrimSpace(t))
		}
	}
	m := mirrorsSentence.FindStringSubmatch(strings.Join(lines, " "))
	if m == nil {
		return nil
	}
	text := m[1]
	var out []mirroredName
	dir := ""
	files := mirroredFile.FindAllStringSubmatchIndex(text, -1)
	for i, f := range files {
		cited := text[f[2]:f[3]]
		if strings.Contains(cited, "/") {
			dir = path.Dir(cited)
		}
		if dir == "" {
			continue // a bare file name with no directory before it
		}
		end := len(text)
		if i+1 < len(files) {
			end = files[i+1][0]
		}
		for _, word := range nameBreak.Split(text[f[1]:end], -1) {
			if word = strings.TrimSpace(word); goName.MatchString(word) && (strings.ToLower(word) != word || strings.ContainsAny(word, "._")) {
				out = append(out, mirroredName{dir, word})
			}
		}
	}
	return out
}

// declares reports whether decls holds name: a top-level name, Type.Member,
// or, for a bare name, any type's member of that name (headers list methods
// after their file: "DeltaFIFO, Add, Update").
func (d declarations) declares(name string) bool {
	if d[name] {
		return true
	}
	if strings.Contains(name, ".") {
		return false
	}
	for k := range d {
		if strings.HasSuffix(k, "."+name) {
			return true
		}
	}
	return false
}
