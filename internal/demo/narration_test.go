package demo_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"informer-from-scratch/internal/lang"
)

// TestEveryNarratedTextHasItsChinese reads the sources of the harness and
// of every stage's demo and checks each text they narrate: every lang.T
// has an English and a Chinese side, the Chinese one in Chinese (Han
// characters, not the English copied), the English one without, and the
// same format verbs in both; every lang.Verbatim has no words to
// translate; every text of a demo is in its narration.go, beside the
// others; no demo calls StepEN or NoteEN (English only: for tests and
// diagrams). The live view's package (its flags and refusals) is held to
// the same rules.
func TestEveryNarratedTextHasItsChinese(t *testing.T) {
	dirs, _ := filepath.Glob("../../0[1-8]-*/demo")
	dirs = append(dirs, ".", "../webview")
	texts := 0
	for _, dir := range dirs {
		name := filepath.ToSlash(strings.TrimPrefix(dir, "../../"))
		switch dir {
		case ".":
			name = "internal/demo"
		case "../webview":
			name = "internal/webview" // the live view's flags and refusals
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			file := name + "/" + filepath.Base(path)
			ast.Inspect(f, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CompositeLit:
					// lang.Text{} says nothing: an action's answer beside its error.
					if isSel(n.Type, "lang", "Text") && len(n.Elts) > 0 {
						t.Errorf("%s: a lang.Text literal: write lang.T(en, zh), which this test reads", file)
					}
				case *ast.CallExpr:
					sel, ok := n.Fun.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					switch {
					case sel.Sel.Name == "StepEN" || sel.Sel.Name == "NoteEN":
						t.Errorf("%s: %s narrates in English only: use Step or Note with a lang.T in narration.go", file, sel.Sel.Name)
					case isSel(sel, "lang", "T") || isSel(sel, "lang", "Verbatim"):
						texts++
						if filepath.Base(path) != "narration.go" {
							t.Errorf("%s: lang.%s outside narration.go: keep the demo's texts in one table", file, sel.Sel.Name)
						}
						args, err := literals(n.Args)
						if err != nil {
							t.Errorf("%s: lang.%s: %v", file, sel.Sel.Name, err)
							return true
						}
						if sel.Sel.Name == "Verbatim" {
							err = checkVerbatim(args[0])
						} else {
							err = checkText(args[0], args[1])
						}
						if err != nil {
							t.Errorf("%s: %v", file, err)
						}
					}
				}
				return true
			})
		}
	}
	// The harness, the live view and the eight demos hold about 350 texts;
	// far fewer means this test stopped finding them and passes for want
	// of anything to check.
	if texts < 280 {
		t.Errorf("found %d narrated texts, want 280 or more: did the way they are written change?", texts)
	}
}

func isSel(e ast.Expr, pkg, name string) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == pkg && sel.Sel.Name == name
}

// literals are the values of string literal arguments: a text must be
// written out where the test can read it.
func literals(args []ast.Expr) ([]string, error) {
	var out []string
	for _, a := range args {
		lit, ok := a.(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			return nil, fmt.Errorf("an argument that is not a string literal: the texts must be written out")
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// checkText is the rule for one lang.T.
func checkText(en, zh string) error {
	switch {
	case en == "" || zh == "":
		return fmt.Errorf("lang.T(%q, %q): a side is empty", en, zh)
	case en == zh:
		return fmt.Errorf("lang.T(%q, ...): the Chinese is the English (lang.Verbatim is for what has no words)", en)
	case !lang.HasWide(zh):
		return fmt.Errorf("lang.T(%q, %q): the Chinese has no Chinese in it (no Han character, no fullwidth punctuation)", en, zh)
	case lang.HasHan(en):
		return fmt.Errorf("lang.T(%q, %q): the English has Chinese in it", en, zh)
	}
	if ve, vz := verbLetters(en), verbLetters(zh); !slices.Equal(ve, vz) {
		return fmt.Errorf("lang.T(%q, %q): the formats differ: %v in English, %v in Chinese", en, zh, ve, vz)
	}
	return nil
}

// verbLetters are a format's verbs without their flags and widths ("%02d"
// and "%d" print the same argument), in the order of the arguments they
// print: a format that picks its arguments by index (Chinese may put them
// in another order) is read back into that order.
func verbLetters(s string) []string {
	byArg := map[int]string{}
	next, last := 0, -1
	for _, v := range lang.Verbs(s) {
		arg := next
		if i := strings.Index(v, "["); i >= 0 {
			n, _ := strconv.Atoi(v[i+1 : strings.Index(v, "]")])
			arg = n - 1
		}
		byArg[arg] = v[len(v)-1:]
		next = arg + 1
		last = max(last, arg)
	}
	out := make([]string, last+1)
	for i := range out {
		out[i] = byArg[i]
	}
	return out
}

var word = regexp.MustCompile(`[A-Za-z]{3,}`)

// checkVerbatim is the rule for one lang.Verbatim: nothing to translate.
func checkVerbatim(s string) error {
	rest := s
	for _, v := range lang.Verbs(s) {
		rest = strings.Replace(rest, v, "", 1)
	}
	if w := word.FindString(rest); w != "" {
		return fmt.Errorf("lang.Verbatim(%q) has a word, %q: a narrated text is lang.T(en, zh)", s, w)
	}
	return nil
}

// TestTheParityRulesRefuseWhatTheyShould: each rule can fail.
func TestTheParityRulesRefuseWhatTheyShould(t *testing.T) {
	for _, tc := range []struct {
		en, zh string
		ok     bool
	}{
		{"Stop the reflector", "停掉 reflector", true},
		{"%d pods in %s", "%s 里有 %d 个 Pod", false},               // the arguments swapped
		{"%d pods in %s", "%[2]s 里有 %[1]d 个 Pod", true},          // picked by index
		{"Stage %02d: %s", "第 %d 阶段：%s", true},                   // a width is not a verb
		{"%d request(s)", "%d 个请求，共 %d 次", false},                // one verb more
		{"Stop the reflector", "Stop the reflector", false},      // copied
		{"Stop the reflector", "Stop the reflector (ZH)", false}, // no Chinese
		{"Stop the reflector", "", false},                        // missing
		{"停掉 reflector", "停掉 reflector。", false},                 // Chinese on the English side
		{"100%% of the pods", "全部（100%%）Pod", true},              // %% is not a verb
		{"… and %d more %s values", "……%[2]s 还有 %[1]d 个值", true}, //
		{"%d in %s, %d ways: %s", "%[2]s 里 %[1]d 个，%[3]d 种：%[4]s", true},
		{"%d in %s, %d ways: %s", "%[2]d 里 %[1]s 个，%[3]d 种：%[4]s", false}, // each index its verb
	} {
		if err := checkText(tc.en, tc.zh); (err == nil) != tc.ok {
			t.Errorf("checkText(%q, %q) = %v, want ok=%v", tc.en, tc.zh, err, tc.ok)
		}
	}
	for s, ok := range map[string]bool{"%-48s │ %s": true, "  %-14s %5d %6d": true, "  (none)": false, "rv=%s": true} {
		if err := checkVerbatim(s); (err == nil) != ok {
			t.Errorf("checkVerbatim(%q) = %v, want ok=%v", s, err, ok)
		}
	}
}
