package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// wrongAnswers lists lab l's wrong answers, or shows one (what it changes,
// as a diff against the solution) and grades it as make lab-check would,
// without writing it into the tree: a pair that finishes early predicts
// what the check will say, then reads it.
func wrongAnswers(w io.Writer, root string, l *Lab, name string, m messages) error {
	paths, err := wrongAnswersOf(root, l.N)
	if err != nil {
		return err
	}
	if name == "" {
		fmt.Fprintf(w, m.wrongHeader+"\n\n", l.N, len(paths))
		for _, p := range paths {
			wa, err := parseWrongAnswer(p)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "  %s\n", wa.Name)
			for _, line := range wrap(aboutOnly(wa.About), 88) {
				fmt.Fprintf(w, "      %s\n", line)
			}
		}
		fmt.Fprintf(w, "\n"+m.wrongFooter+"\n", l.N)
		return nil
	}
	s, err := loadState(root)
	if err != nil {
		return err
	}
	if s.lab(l.N) != nil {
		return fmt.Errorf(m.wrongWhileStarted, l.N, l.N)
	}
	var wa *wrongAnswer
	for _, p := range paths {
		if strings.TrimSuffix(filepath.Base(p), ".wrong") == name {
			if wa, err = parseWrongAnswer(p); err != nil {
				return err
			}
		}
	}
	if wa == nil {
		return fmt.Errorf(m.noSuchWrong, l.N, name, l.N)
	}
	solution, err := l.solutionBodies(root)
	if err != nil {
		return err
	}
	wrong, err := wa.apply(solution)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s\n\n", wa.About)
	for _, fn := range wa.Funcs {
		fmt.Fprintf(w, "== %s\n--- %s\n+++ %s\n%s\n", fn, m.diffSolution, wa.Name, unifiedDiff(solution[fn], wrong[fn], 2))
	}
	v, err := l.withBodies(root, wrong)
	if err != nil {
		return err
	}
	overlay, cleanup, err := writeOverlay(root, v)
	if err != nil {
		return err
	}
	defer cleanup()
	g, _, err := runChecksWith(root, l, wa.Flags, overlay)
	if err != nil {
		return err
	}
	g.report(w, l, m)
	return nil
}

// writeOverlay writes v's files to a temporary directory and a go build
// -overlay file that puts them in place of the tree's: a variant is compiled
// and graded without touching the tree.
func writeOverlay(root string, v variant) (string, func(), error) {
	dir, err := os.MkdirTemp("", "lab-overlay-")
	if err != nil {
		return "", nil, err
	}
	return writeOverlayIn(root, dir, v)
}

// writeOverlayIn is writeOverlay in a directory of the caller's; the
// cleanup removes it.
func writeOverlayIn(root, dir string, v variant) (string, func(), error) {
	cleanup := func() { os.RemoveAll(dir) }
	absRoot, err := filepath.Abs(root)
	if err != nil {
		cleanup()
		return "", nil, err
	}
	replace := map[string]string{}
	for file, src := range v {
		p := filepath.Join(dir, strings.ReplaceAll(file, "/", "_"))
		if err := os.WriteFile(p, src, 0o644); err != nil {
			cleanup()
			return "", nil, err
		}
		replace[filepath.Join(absRoot, file)] = p
	}
	b, _ := json.Marshal(map[string]any{"Replace": replace})
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlay, b, 0o644); err != nil {
		cleanup()
		return "", nil, err
	}
	return overlay, cleanup, nil
}

// wrongAnswerFrom prints the edit script of a wrong answer written as whole
// functions in a Go file (its comment before the package clause says what
// is wrong; a line "//lab:flags -race" asks for flags).
func wrongAnswerFrom(w io.Writer, root string, l *Lab, file string) error {
	src, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	decls, fset, err := funcDecls(file, src)
	if err != nil {
		return err
	}
	solution, err := l.solutionBodies(root)
	if err != nil {
		return err
	}
	index := map[string]*bodyLines{}
	for name, body := range solution {
		index[name] = newBodyLines(body)
	}
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "package ") {
			break
		}
		switch {
		case strings.HasPrefix(line, "//go:build"):
		case strings.HasPrefix(line, "//lab:flags "):
			fmt.Fprintf(w, "flags: %s\n", strings.TrimPrefix(line, "//lab:flags "))
		case strings.HasPrefix(line, "//"):
			fmt.Fprintf(w, "# %s\n", strings.TrimSpace(strings.TrimPrefix(line, "//")))
		}
	}
	src2 := source{src, fset}
	var names []string
	for name := range decls {
		names = append(names, name)
	}
	sortByPos(names, func(n string) int { return fset.Position(decls[n].Pos()).Offset })
	used := 0
	for _, name := range names {
		if _, ok := solution[name]; !ok {
			continue
		}
		used++
		script := editScript(name, solution[name], src2.body(decls[name]), index)
		if script == "" {
			continue
		}
		fmt.Fprintf(w, "func %s\n%s", name, script)
	}
	if used == 0 {
		return fmt.Errorf("%s replaces none of lab %d's functions", file, l.N)
	}
	return nil
}

// exportWrongAnswers writes each of lab l's wrong answers as whole
// functions in DIR/NAME.go, the form wrong-answer-from reads: before a
// change to the solution that an edit script cannot follow (a line it names
// is rewritten), export them, change the solution, mend the Go files where
// the change reaches them, and turn each back into its edit script.
func exportWrongAnswers(root string, l *Lab, dir string) error {
	paths, err := wrongAnswersOf(root, l.N)
	if err != nil {
		return err
	}
	solution, err := l.solutionBodies(root)
	if err != nil {
		return err
	}
	funcs, err := l.marked(root)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, p := range paths {
		wa, err := parseWrongAnswer(p)
		if err != nil {
			return err
		}
		wrong, err := wa.apply(solution)
		if err != nil {
			return err
		}
		var b strings.Builder
		b.WriteString("//go:build ignore\n\n")
		for _, line := range strings.Split(wa.About, "\n") {
			fmt.Fprintf(&b, "// %s\n", line)
		}
		if len(wa.Flags) > 0 {
			fmt.Fprintf(&b, "//lab:flags %s\n", strings.Join(wa.Flags, " "))
		}
		b.WriteString("\npackage wrong\n")
		for _, fn := range wa.Funcs {
			text, err := funcDeclText(root, funcs, fn)
			if err != nil {
				return err
			}
			// The declaration as the solution has it, with the wrong body.
			head := text[:len(text)-len(solution[fn])-1] // up to the body's brace
			fmt.Fprintf(&b, "\n%s%s}\n", head, wrong[fn])
		}
		if err := os.WriteFile(filepath.Join(dir, wa.Name+".go"), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// funcDeclText is a marked function's declaration as written, from func
// to its closing brace, without its doc comment.
func funcDeclText(root string, funcs []marked, name string) (string, error) {
	for _, f := range funcs {
		if f.Name != name {
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, f.File))
		if err != nil {
			return "", err
		}
		ft, err := funcTexts(f.File, src)
		if err != nil {
			return "", err
		}
		return ft.text[name], nil
	}
	return "", fmt.Errorf("no marked function %s", name)
}

// aboutOnly is a wrong answer's comment without its opening words, which
// every one shares ("A plausible wrong answer to lab 03:").
func aboutOnly(about string) string {
	about = strings.Join(strings.Fields(about), " ")
	if rest, ok := strings.CutPrefix(about, "A plausible wrong answer to lab "); ok {
		if i := strings.IndexAny(rest, ":,"); i >= 0 && i < 4 {
			rest = strings.TrimSpace(rest[i+1:])
			return strings.ToUpper(rest[:1]) + rest[1:]
		}
	}
	return about
}
