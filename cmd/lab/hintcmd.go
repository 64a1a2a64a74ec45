package main

import (
	"fmt"
	"io"
	"strings"
)

// nextHint shows the next rung of one function's ladder. A lab of several
// functions asks which one: the learner stuck on Pop wants Pop's next hint,
// not the next of a ladder that runs through the lab in order.
func nextHint(w io.Writer, root string, l *Lab, fn, language string, m messages) error {
	ladders, err := laddersOf(l.N, language)
	if err != nil {
		return err
	}
	s, err := loadState(root)
	if err != nil {
		return err
	}
	st := s.lab(l.N)
	if fn == "" && len(ladders) > 1 {
		return hintMenu(w, l, ladders, st, m)
	}
	lad, err := pickLadder(ladders, fn, l, m)
	if err != nil {
		return err
	}
	seen := 0
	if st != nil {
		seen = st.Seen[lad.Func]
	}
	i := min(seen, len(lad.Hints)-1)
	h := lad.Hints[i]
	// The header's arguments apart: a translation may take them in
	// another order.
	fmt.Fprintf(w, m.hintHeader, i+1, len(lad.Hints), lad.Func, l.N)
	fmt.Fprintf(w, "\n\n%s\n\n%s\n", h.Title, h.Body)
	if i == len(lad.Hints)-1 {
		fmt.Fprintf(w, "\n"+m.noMoreHints+"\n", l.N)
	}
	if st == nil {
		fmt.Fprintf(w, "\n"+m.hintNotStarted+"\n", l.N)
		return nil
	}
	if st.Seen == nil {
		st.Seen = map[string]int{}
	}
	st.Seen[lad.Func] = i + 1
	return s.save()
}

// hintMenu lists the lab's ladders and how to ask for one.
func hintMenu(w io.Writer, l *Lab, ladders []ladder, st *labState, m messages) error {
	fmt.Fprintf(w, m.hintMenu+"\n\n", l.N)
	for _, lad := range ladders {
		seen := 0
		if st != nil {
			seen = st.Seen[lad.Func]
		}
		fmt.Fprintf(w, "  %-40s %s\n", fmt.Sprintf("make lab-hint %d %s", l.N, shortName(lad.Func, ladders)),
			fmt.Sprintf(m.hintMenuLine, min(seen, len(lad.Hints)), len(lad.Hints)))
	}
	return nil
}

// allHints prints every ladder of the lab whole: for an instructor
// preparing the day, never counted as seen.
func allHints(w io.Writer, l *Lab, language string, m messages) error {
	ladders, err := laddersOf(l.N, language)
	if err != nil {
		return err
	}
	for _, lad := range ladders {
		fmt.Fprintf(w, "# %s\n\n", lad.Func)
		for i, h := range lad.Hints {
			fmt.Fprintf(w, m.hintHeader, i+1, len(lad.Hints), lad.Func, l.N)
			fmt.Fprintf(w, "\n\n%s\n\n%s\n\n", h.Title, h.Body)
		}
	}
	return nil
}

// pickLadder finds the ladder fn names: the function's whole name
// ("DeltaFIFO.Pop") or its name after the dot ("Pop"), in any case.
func pickLadder(ladders []ladder, fn string, l *Lab, m messages) (*ladder, error) {
	if fn == "" {
		return &ladders[0], nil
	}
	var found []*ladder
	for i, lad := range ladders {
		_, method, _ := strings.Cut(lad.Func, ".")
		if strings.EqualFold(lad.Func, fn) || (method != "" && strings.EqualFold(method, fn)) {
			found = append(found, &ladders[i])
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	var names []string
	for _, lad := range ladders {
		names = append(names, lad.Func)
	}
	return nil, fmt.Errorf(m.noSuchFunc, l.N, fn, strings.Join(names, ", "))
}

// shortName is the shortest name pickLadder still finds as fn alone.
func shortName(fn string, ladders []ladder) string {
	_, method, ok := strings.Cut(fn, ".")
	if !ok {
		return fn
	}
	n := 0
	for _, lad := range ladders {
		if _, other, _ := strings.Cut(lad.Func, "."); strings.EqualFold(other, method) || strings.EqualFold(lad.Func, method) {
			n++
		}
	}
	if n == 1 {
		return method
	}
	return fn
}
