package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// diffAttempt shows, function by function, where the learner's code differs
// from the solution: their code in the tree while the lab is started, their
// latest saved attempt once it has ended. The workshop's debrief reads it.
func diffAttempt(w io.Writer, root string, l *Lab, m messages) error {
	s, err := loadState(root)
	if err != nil {
		return err
	}
	var mineRoot, solutionRoot string
	var files []string
	if st := s.lab(l.N); st != nil {
		mineRoot, solutionRoot, files = root, s.solutionDir(l.N), st.Files
		fmt.Fprintf(w, m.diffCurrent+"\n\n", l.N)
	} else {
		attempt := s.latestAttempt(l.N)
		if attempt == "" {
			fmt.Fprintf(w, m.diffNothing+"\n", l.N, l.N)
			return nil
		}
		if files, err = l.files(root); err != nil {
			return err
		}
		mineRoot, solutionRoot = attempt, root
		fmt.Fprintf(w, m.diffAttempt+"\n\n", l.N, attempt)
	}
	same := true
	for _, f := range files {
		mine, err := os.ReadFile(filepath.Join(mineRoot, f))
		if err != nil {
			return err
		}
		sol, err := os.ReadFile(filepath.Join(solutionRoot, f))
		if err != nil {
			return err
		}
		mineFuncs, err := funcTexts(f, mine)
		if err != nil {
			fmt.Fprintf(w, m.diffUnparsed+"\n", f, err)
			same = false
			continue
		}
		solFuncs, err := funcTexts(f, sol)
		if err != nil {
			return err
		}
		for _, name := range solFuncs.order {
			if !solFuncs.marked[name] {
				continue
			}
			d := unifiedDiff(solFuncs.text[name], mineFuncs.text[name], 3)
			if d == "" {
				continue
			}
			same = false
			fmt.Fprintf(w, "== %s (%s)\n--- %s\n+++ %s\n%s\n", name, f, m.diffSolution, m.diffYours, d)
		}
	}
	if same {
		fmt.Fprintln(w, m.diffSame)
	}
	return nil
}

// funcs are a file's functions as written, in order, and which are marked.
type funcs struct {
	order  []string
	text   map[string]string
	marked map[string]bool
}

func funcTexts(path string, src []byte) (*funcs, error) {
	decls, fset, err := funcDecls(path, src)
	if err != nil {
		return nil, err
	}
	out := &funcs{text: map[string]string{}, marked: map[string]bool{}}
	for name, fd := range decls {
		out.order = append(out.order, name)
		out.text[name] = string(src[fset.Position(fd.Type.Pos()).Offset:fset.Position(fd.End()).Offset])
		out.marked[name] = labOf(fd) != 0
	}
	sortByPos(out.order, func(name string) int { return fset.Position(decls[name].Pos()).Offset })
	return out, nil
}

func sortByPos(names []string, pos func(string) int) {
	for i := 1; i < len(names); i++ {
		for j := i; j > 0 && pos(names[j]) < pos(names[j-1]); j-- {
			names[j], names[j-1] = names[j-1], names[j]
		}
	}
}

// unifiedDiff is the lines of a and b that differ, with context lines
// around each change, in diff -u's notation; "" when they are the same.
func unifiedDiff(a, b string, context int) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte // ' ', '-', '+'
		text string
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, op{' ', x[i]})
			i, j = i+1, j+1
		case j >= m || (i < n && lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', x[i]})
			i++
		default:
			ops = append(ops, op{'+', y[j]})
			j++
		}
	}
	// Keep the changed lines and context lines around them.
	keep := make([]bool, len(ops))
	changed := false
	for k, o := range ops {
		if o.kind != ' ' {
			changed = true
			for c := max(0, k-context); c <= min(len(ops)-1, k+context); c++ {
				keep[c] = true
			}
		}
	}
	if !changed {
		return ""
	}
	var out strings.Builder
	for k, o := range ops {
		if !keep[k] {
			if k > 0 && keep[k-1] {
				out.WriteString("@@\n")
			}
			continue
		}
		out.WriteByte(o.kind)
		out.WriteString(o.text)
		out.WriteByte('\n')
	}
	return strings.TrimSuffix(out.String(), "@@\n")
}
