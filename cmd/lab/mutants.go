package main

import (
	"bufio"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// make lab-mutants N measures a lab's grader instead of guessing at it: it
// makes small changes to the solution's marked functions, the mistakes a
// learner makes (a condition negated, a boundary moved, arithmetic changed,
// one statement left out: the forgotten Signal, lock, counter or Forget),
// and grades each mutant exactly as make lab-check grades a learner, with
// the lab's graded tests only. A mutant the graded tests pass is a
// survivor: a learner who wrote it would be told the lab is done. Each
// survivor gets a graded test that kills it, or a line in the lab's list of
// equivalent mutants (testdata/labNN/equivalent-mutants) saying why no
// behaviour changes.

type mutantOptions struct {
	jobs    int
	only    string
	show    string
	list    bool
	timeout string
}

func mutantFlags(fs *flag.FlagSet) *mutantOptions {
	o := &mutantOptions{}
	fs.IntVar(&o.jobs, "j", 1, "mutants: how many to grade at once")
	fs.StringVar(&o.only, "only", "", "mutants: only this function's")
	fs.StringVar(&o.show, "show", "", "mutants: grade this one mutant (its ID) and show the whole report")
	fs.BoolVar(&o.list, "list", false, "mutants: list them without grading")
	fs.StringVar(&o.timeout, "timeout", "", "mutants: a shorter go test timeout than the lab's (a mutant that hangs counts as killed)")
	return o
}

// mutant is one small change to one marked function.
type mutant struct {
	ID   string // Func:anchor:what, stable while that line stays as it is
	Func string
	What string // what changed, for people: "== to !=", "delete"
	Line string // the line changed, as written
	Body string // the function's body with the change
}

// mutation is a change to a body: bytes [from, to) become text.
type mutation struct {
	from, to int // offsets in the body
	text     string
	what     string
	at       token.Pos // where the anchor line is
}

var flips = map[token.Token][]token.Token{
	token.EQL: {token.NEQ}, token.NEQ: {token.EQL},
	token.LSS: {token.LEQ}, token.LEQ: {token.LSS}, token.GTR: {token.GEQ}, token.GEQ: {token.GTR},
	token.LAND: {token.LOR}, token.LOR: {token.LAND},
	token.ADD: {token.SUB}, token.SUB: {token.ADD}, token.MUL: {token.QUO}, token.QUO: {token.MUL},
	token.ADD_ASSIGN: {token.SUB_ASSIGN}, token.SUB_ASSIGN: {token.ADD_ASSIGN},
	token.INC: {token.DEC}, token.DEC: {token.INC},
}

// mutationsOf lists the mutations of fd's body.
func mutationsOf(src source, fd *ast.FuncDecl) []mutation {
	base := src.fset.Position(fd.Body.Lbrace).Offset + 1
	off := func(p token.Pos) int { return src.fset.Position(p).Offset - base }
	text := func(n ast.Node) string {
		return string(src.src[src.fset.Position(n.Pos()).Offset:src.fset.Position(n.End()).Offset])
	}
	var out []mutation
	op := func(pos token.Pos, from token.Token, line token.Pos) {
		for _, to := range flips[from] {
			out = append(out, mutation{off(pos), off(pos) + len(from.String()), to.String(), from.String() + " to " + to.String(), line})
		}
	}
	negate := func(cond ast.Expr) {
		if b, ok := cond.(*ast.BinaryExpr); ok && (b.Op == token.EQL || b.Op == token.NEQ) {
			return // the flip says the same
		}
		if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
			return // dropping the ! says the same
		}
		out = append(out, mutation{off(cond.Pos()), off(cond.End()), "!(" + text(cond) + ")", "condition negated", cond.Pos()})
	}
	deleteStmts := func(list []ast.Stmt) {
		for _, s := range list {
			if _, empty := s.(*ast.EmptyStmt); empty {
				continue
			}
			out = append(out, mutation{off(s.Pos()), off(s.End()), "", "statement deleted", s.Pos()})
		}
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BlockStmt:
			deleteStmts(x.List)
		case *ast.CaseClause:
			deleteStmts(x.Body)
			if len(x.List) > 0 {
				// Only in a switch without a tag are the cases conditions;
				// negating a value does not compile, and is dropped then.
				for _, e := range x.List {
					negate(e)
				}
			}
		case *ast.CommClause:
			deleteStmts(x.Body)
		case *ast.BinaryExpr:
			op(x.OpPos, x.Op, x.OpPos)
		case *ast.AssignStmt:
			op(x.TokPos, x.Tok, x.TokPos)
		case *ast.IncDecStmt:
			op(x.TokPos, x.Tok, x.TokPos)
		case *ast.UnaryExpr:
			if x.Op == token.NOT {
				out = append(out, mutation{off(x.OpPos), off(x.OpPos) + 1, "", "! dropped", x.OpPos})
			}
		case *ast.IfStmt:
			negate(x.Cond)
		case *ast.ForStmt:
			if x.Cond != nil {
				negate(x.Cond)
			}
		case *ast.Ident:
			switch x.Name {
			case "true", "false":
				other := map[string]string{"true": "false", "false": "true"}[x.Name]
				out = append(out, mutation{off(x.Pos()), off(x.End()), other, x.Name + " to " + other, x.Pos()})
			}
		case *ast.SelectorExpr:
			if x.Sel.Name == "Broadcast" {
				out = append(out, mutation{off(x.Sel.Pos()), off(x.Sel.End()), "Signal", "Broadcast to Signal", x.Sel.Pos()})
			}
		}
		return true
	})
	return out
}

// mutantsOf lists the lab's mutants, in function and source order.
func (l *Lab) mutantsOf(root, only string) ([]mutant, error) {
	var out []mutant
	_, err := l.substitute(root, func(src source, fd *ast.FuncDecl, name string) (string, error) {
		body := src.body(fd)
		if only != "" && !strings.EqualFold(name, only) {
			return body, nil
		}
		lines := newBodyLines(body)
		base := src.fset.Position(fd.Body.Lbrace).Offset + 1
		count := map[string]int{}
		for _, m := range mutationsOf(src, fd) {
			// The anchor is the line the mutation starts on, counted in the
			// body (whose first line is the rest of the brace's line).
			lineNo := strings.Count(body[:src.fset.Position(m.at).Offset-base], "\n")
			id := name + ":" + lines.anchor[lineNo] + ":" + strings.ReplaceAll(m.what, " ", "-")
			count[id]++
			if count[id] > 1 {
				id += fmt.Sprintf(":%d", count[id])
			}
			out = append(out, mutant{ID: id, Func: name, What: m.what, Line: strings.TrimSpace(lines.lines[lineNo]),
				Body: body[:m.from] + m.text + body[m.to:]})
		}
		return body, nil
	})
	return out, err
}

// outcome is what grading a mutant found.
type outcome int

const (
	killed outcome = iota
	survived
	invalid // does not compile: not a mutant a learner could hand in
)

// gradeMutant grades one mutant as make lab-check grades a learner.
func (l *Lab) gradeMutant(root string, m mutant) (outcome, *grade, error) {
	v, err := l.withBodies(root, map[string]string{m.Func: m.Body})
	if err != nil {
		return 0, nil, err
	}
	overlay, cleanup, err := writeOverlay(root, v)
	if err != nil {
		return 0, nil, err
	}
	defer cleanup()
	g, err := l.grade(root, overlay, "-failfast")
	if err != nil {
		return 0, nil, err
	}
	switch {
	case len(g.buildError) > 0:
		return invalid, g, nil
	case g.passed(l):
		return survived, g, nil
	}
	return killed, g, nil
}

// equivalents reads the lab's list of equivalent mutants: ID, then why.
func equivalents(root string, n int) (map[string]string, error) {
	path := filepath.Join(root, "cmd", "lab", "testdata", fmt.Sprintf("lab%02d", n), "equivalent-mutants")
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return map[string]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, why, _ := strings.Cut(line, " ")
		if strings.TrimSpace(why) == "" {
			return nil, fmt.Errorf("%s: %s says no why", path, id)
		}
		out[id] = strings.TrimSpace(why)
	}
	return out, sc.Err()
}

func mutants(w io.Writer, root string, l *Lab, o mutantOptions) error {
	s, err := loadState(root)
	if err != nil {
		return err
	}
	if s.lab(l.N) != nil {
		return fmt.Errorf("lab %d is started: the mutants are made from the solution, so end it first (make lab-solution %d)", l.N, l.N)
	}
	all, err := l.mutantsOf(root, o.only)
	if err != nil {
		return err
	}
	equiv, err := equivalents(root, l.N)
	if err != nil {
		return err
	}
	if o.list {
		for _, m := range all {
			fmt.Fprintf(w, "%s\n    %s: %s\n", m.ID, m.What, m.Line)
		}
		return nil
	}
	if o.show != "" {
		for _, m := range all {
			if m.ID == o.show {
				fmt.Fprintf(w, "%s (%s)\n%s\n", m.ID, m.What, unifiedDiff(solutionBodyOf(root, l, m.Func), m.Body, 2))
				out, g, err := l.gradeMutant(root, m)
				if err != nil {
					return err
				}
				g.report(w, l, english)
				fmt.Fprintf(w, "\n%s\n", map[outcome]string{killed: "killed", survived: "SURVIVED", invalid: "does not compile"}[out])
				return nil
			}
		}
		return fmt.Errorf("lab %d has no mutant %s (ARGS=-list lists them)", l.N, o.show)
	}
	fmt.Fprintf(w, "Lab %02d: %d mutants of %s, each graded as make lab-check grades (one build, %d at a time)\n", l.N, len(all), l.Stage, max(o.jobs, 1))
	start := time.Now()
	if o.timeout != "" {
		l2 := *l
		l2.Timeout = o.timeout
		l = &l2
	}
	versions := make([]version, len(all))
	for i, m := range all {
		versions[i] = version{Bodies: map[string]string{m.Func: m.Body}, FailFast: true}
	}
	graded, err := l.gradeBatch(root, versions, o.jobs)
	if err != nil {
		return err
	}
	results := make([]outcome, len(all))
	for i, r := range graded {
		switch {
		case len(r.Invalid) > 0:
			results[i] = invalid
		case r.Grade.passed(l):
			results[i] = survived
			tag := "SURVIVED"
			if _, ok := equiv[all[i].ID]; ok {
				tag = "equivalent"
			}
			fmt.Fprintf(w, "  %s %s\n      %s: %s\n", tag, all[i].ID, all[i].What, all[i].Line)
		default:
			results[i] = killed
		}
	}
	var k, inv, eq, surv int
	for i, r := range results {
		switch r {
		case killed:
			k++
		case invalid:
			inv++
		case survived:
			if _, ok := equiv[all[i].ID]; ok {
				eq++
			} else {
				surv++
			}
		}
	}
	// An equivalent listed that no mutant has any more: the line changed.
	ids := map[string]bool{}
	for _, m := range all {
		ids[m.ID] = true
	}
	var stale []string
	for id := range equiv {
		if o.only == "" && !ids[id] {
			stale = append(stale, id)
		}
	}
	sort.Strings(stale)
	fmt.Fprintf(w, "\nLab %02d: %d mutants: %d killed, %d equivalent (listed), %d do not compile, %d survived (%s)\n",
		l.N, len(all), k, eq, inv, surv, time.Since(start).Round(time.Second))
	for _, id := range stale {
		fmt.Fprintf(w, "  listed as equivalent, but no such mutant now: %s\n", id)
	}
	if surv > 0 || len(stale) > 0 {
		return errFailed
	}
	return nil
}

// solutionBodyOf is one marked function's body as the tree has it.
func solutionBodyOf(root string, l *Lab, fn string) string {
	b, _ := l.solutionBodies(root)
	return b[fn]
}
