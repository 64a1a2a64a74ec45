package main

// prune.go turns client-go's test files into files of one of our packages,
// with these mechanical edits and nothing else:
//
//  1. the package clause names our package (package cache → package deltafifo);
//  2. excluded tests are removed, and so is every top-level declaration that no
//     remaining test reaches;
//  3. for the stages whose entry in stages.go asks: the helpers the adapter
//     declares instead are removed (replaces), calls to a function ours
//     declares with another signature call the adapter's wrapper (renames),
//     a type ours lacks the fields of is the adapter's (types), and a side
//     of an assignment statement that reaches into another package's
//     internals is the adapter's expression (sides).
//
// Removal overwrites a declaration's bytes with spaces and keeps its newlines,
// so every line that stays keeps its client-go line number: a failure at
// clientgo_delta_fifo_test.go:412 is line 412 of client-go's delta_fifo_test.go.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// cgFile is one client-go file, parsed.
type cgFile struct {
	rel    string // path inside the client-go module, e.g. tools/cache/fifo_test.go
	src    []byte
	ast    *ast.File
	tested bool // its tests run here (false: a support file, read for its helpers only)
}

func parseFile(fset *token.FileSet, rel string, src []byte, tested bool) (*cgFile, error) {
	f, err := parser.ParseFile(fset, rel, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	return &cgFile{rel: rel, src: src, ast: f, tested: tested}, nil
}

// unit is one top-level declaration: a function or method, or one spec of a
// type, var or const declaration.
type unit struct {
	file     *cgFile
	names    []string // the names it declares ("_" for a blank var)
	recv     string   // for a method: its receiver's type name
	refs     map[string]bool
	quals    map[string]bool // identifiers used as x in x.Sel: the imports it may use
	node     ast.Node        // what to remove: *ast.FuncDecl, *ast.GenDecl (one spec) or ast.Spec
	decl     *ast.GenDecl
	root     bool // a test that runs, TestMain or init
	blank    bool // var _ T = x: a compile-time check of the declarations it names
	replaced bool // a helper the adapter declares instead (stage.replaces)
	live     bool
}

// testKind reports whether name is a function go test runs: TestXxx,
// BenchmarkXxx, ExampleXxx or FuzzXxx (go test's own rule: the rune after the
// prefix is not lower case).
func testKind(name string) string {
	for _, prefix := range []string{"Test", "Benchmark", "Example", "Fuzz"} {
		if !strings.HasPrefix(name, prefix) || name == "TestMain" {
			continue
		}
		rest := name[len(prefix):]
		if rest == "" {
			return prefix
		}
		r, _ := utf8.DecodeRuneInString(rest)
		if !unicode.IsLower(r) {
			return prefix
		}
	}
	return ""
}

// visit collects every identifier under nodes into refs: a name that might
// refer to a top-level declaration. Field and method names after a dot count
// too, which can only keep more than needed, never less. When quals is not
// nil it also collects the identifiers that qualify a selector (the pkg of
// pkg.Name).
func visit(refs, quals map[string]bool, nodes ...ast.Node) {
	for _, n := range nodes {
		// Every ast.Node is a pointer; a nil one (no receiver, no body)
		// arrives here as a typed nil.
		if n == nil || reflect.ValueOf(n).IsNil() {
			continue
		}
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				refs[n.Name] = true
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && quals != nil {
					quals[x.Name] = true
				}
			}
			return true
		})
	}
}

func recvTypeName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr: // generic receiver T[K]
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// units splits a file into its top-level declarations. keep decides, for a
// test function of a tested file, whether it runs.
func units(f *cgFile, runs func(name string) bool) []*unit {
	var out []*unit
	for _, d := range f.ast.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			u := &unit{file: f, names: []string{d.Name.Name}, recv: recvTypeName(d), refs: map[string]bool{}, quals: map[string]bool{}, node: d}
			visit(u.refs, u.quals, d.Recv, d.Type, d.Body)
			if d.Recv == nil {
				switch {
				case d.Name.Name == "TestMain" || d.Name.Name == "init":
					u.root = true
				case testKind(d.Name.Name) != "":
					u.root = f.tested && runs(d.Name.Name)
				}
			}
			out = append(out, u)
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			for _, s := range d.Specs {
				u := &unit{file: f, refs: map[string]bool{}, quals: map[string]bool{}, node: s, decl: d}
				switch s := s.(type) {
				case *ast.TypeSpec:
					u.names = []string{s.Name.Name}
					visit(u.refs, u.quals, s.TypeParams, s.Type)
				case *ast.ValueSpec:
					blank := true
					for _, n := range s.Names {
						u.names = append(u.names, n.Name)
						blank = blank && n.Name == "_"
					}
					u.blank = blank
					if s.Type != nil {
						visit(u.refs, u.quals, s.Type)
					}
					for _, v := range s.Values {
						visit(u.refs, u.quals, v)
					}
					// A const spec without values repeats the previous
					// spec's expression (iota): keep the whole group alive
					// together.
					if d.Tok == token.CONST && len(d.Specs) > 1 {
						visit(u.refs, u.quals, d)
					}
				}
				out = append(out, u)
			}
		}
	}
	return out
}

// markLive marks what the roots (the tests that run, TestMain, init) reach.
func markLive(all []*unit) {
	for u := range reach(all, func(u *unit) bool { return u.root }) {
		u.live = true
	}
}

// reach returns what the units isRoot picks reach: a function, type, var or
// const is reached when a reached unit names it; a method when its receiver
// type is; a var _ check when everything it names that the files declare is.
func reach(all []*unit, isRoot func(*unit) bool) map[*unit]bool {
	declared := map[string]bool{}
	for _, u := range all {
		if u.recv == "" {
			for _, n := range u.names {
				declared[n] = true
			}
		}
	}
	reached := map[*unit]bool{}
	named := map[string]bool{}
	changed := true
	mark := func(u *unit) {
		reached[u] = true
		changed = true
		for r := range u.refs {
			named[r] = true
		}
	}
	for changed {
		changed = false
		for _, u := range all {
			if reached[u] || u.replaced {
				continue
			}
			switch {
			case isRoot(u):
				mark(u)
			case u.recv != "":
				if named[u.recv] {
					mark(u)
				}
			case u.blank:
				checks := true
				for r := range u.refs {
					checks = checks && (!declared[r] || named[r])
				}
				if checks {
					mark(u)
				}
			default:
				for _, n := range u.names {
					if named[n] {
						mark(u)
						break
					}
				}
			}
		}
	}
	return reached
}

// blank overwrites src[from:to] with spaces, keeping newlines.
func blank(src []byte, from, to int) {
	for i := from; i < to; i++ {
		if src[i] != '\n' {
			src[i] = ' '
		}
	}
}

// target is the package client-go's files become part of, and what its
// adapter declares in their place (see stage.replaces, stage.renames,
// stage.types and stage.sides).
type target struct {
	pkg        string // its name: deltafifo
	importPath string // its import path: informer-from-scratch/03-deltafifo
	replaces   []string
	renames    map[string]string
	types      map[string]string
	sides      map[string]string
	imports    []string
}

// markReplaced marks the helpers to.replaces names, and checks that each is
// one: a top-level declaration of the files that is not a test.
func markReplaced(all []*unit, to target) error {
	for _, name := range to.replaces {
		found := false
		for _, u := range all {
			if u.recv == "" && slices.Contains(u.names, name) {
				if testKind(name) != "" || name == "TestMain" || name == "init" {
					return fmt.Errorf("stages.go: %s replaces %s, which is a test: a test is excluded, never replaced", to.pkg, name)
				}
				u.replaced, found = true, true
			}
		}
		if !found {
			return fmt.Errorf("stages.go: %s replaces %s, which client-go's files do not declare", to.pkg, name)
		}
	}
	return nil
}

// renamedCalls returns the identifiers under n that to.renames renames: the
// function of a call f(…), where f is a plain name.
func renamedCalls(n ast.Node, renames map[string]string) []*ast.Ident {
	var ids []*ast.Ident
	ast.Inspect(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if id, ok := call.Fun.(*ast.Ident); ok && renames[id.Name] != "" {
				ids = append(ids, id)
			}
		}
		return true
	})
	return ids
}

// checkRenames makes sure every rename is one: client-go's files call the
// name, and do not declare it (a helper of theirs is replaced, not renamed).
func checkRenames(all []*unit, to target) error {
	for _, old := range sortedKeys(to.renames) {
		called := false
		for _, u := range all {
			if u.recv == "" && slices.Contains(u.names, old) {
				return fmt.Errorf("stages.go: %s renames calls to %s, which client-go's files declare themselves", to.pkg, old)
			}
			called = called || len(renamedCalls(u.node, map[string]string{old: to.renames[old]})) > 0
		}
		if !called {
			return fmt.Errorf("stages.go: %s renames calls to %s, which client-go's files never call", to.pkg, old)
		}
	}
	return nil
}

// renamedTypes returns the identifiers under n that name a type to.types
// renames: every identifier of that name but a field or method after a dot,
// a field's name in a struct type or a keyed literal, and a declared name.
func renamedTypes(n ast.Node, types map[string]string) []*ast.Ident {
	var ids []*ast.Ident
	notType := map[*ast.Ident]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			notType[n.Sel] = true
		case *ast.KeyValueExpr:
			if id, ok := n.Key.(*ast.Ident); ok {
				notType[id] = true
			}
		case *ast.Field:
			for _, name := range n.Names {
				notType[name] = true
			}
		case *ast.TypeSpec:
			notType[n.Name] = true
		case *ast.FuncDecl:
			notType[n.Name] = true
		case *ast.ValueSpec:
			for _, name := range n.Names {
				notType[name] = true
			}
		case *ast.Ident:
			if types[n.Name] != "" && !notType[n] {
				ids = append(ids, n)
			}
		}
		return true
	})
	return ids
}

// rewrittenSides returns the expressions under n that to.sides rewrites: a
// whole side of an assignment that is a statement of its own (in a block or
// a case's body, never the header of an if, for or switch, where a test's
// checks are), written in the source exactly as a key of sides. Nothing
// else is: not the same expression inside a call, a condition or a larger
// expression, so no check of a test can be rewritten.
func rewrittenSides(fset *token.FileSet, src []byte, n ast.Node, sides map[string]string) []ast.Expr {
	var exprs []ast.Expr
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	statements := func(list []ast.Stmt) {
		for _, st := range list {
			as, ok := st.(*ast.AssignStmt)
			if !ok {
				continue
			}
			for _, e := range append(append([]ast.Expr(nil), as.Lhs...), as.Rhs...) {
				if sides[string(src[off(e.Pos()):off(e.End())])] != "" {
					exprs = append(exprs, e)
				}
			}
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			statements(n.List)
		case *ast.CaseClause:
			statements(n.Body)
		case *ast.CommClause:
			statements(n.Body)
		}
		return true
	})
	return exprs
}

// checkTypesAndSides makes sure every type rename and every rewritten side
// is one: client-go's files name the type, and do not declare it; they have
// the side, as rewrittenSides finds it, at least once.
func checkTypesAndSides(fset *token.FileSet, all []*unit, to target) error {
	for _, old := range sortedKeys(to.types) {
		named := false
		for _, u := range all {
			if u.recv == "" && slices.Contains(u.names, old) {
				return fmt.Errorf("stages.go: %s renames the type %s, which client-go's files declare themselves", to.pkg, old)
			}
			named = named || len(renamedTypes(u.node, map[string]string{old: to.types[old]})) > 0
		}
		if !named {
			return fmt.Errorf("stages.go: %s renames the type %s, which client-go's files never name", to.pkg, old)
		}
	}
	for _, side := range sortedKeys(to.sides) {
		found := false
		for _, u := range all {
			found = found || len(rewrittenSides(fset, u.file.src, u.node, map[string]string{side: to.sides[side]})) > 0
		}
		if !found {
			return fmt.Errorf("stages.go: %s rewrites %s, which is never a side of an assignment statement in client-go's files", to.pkg, side)
		}
	}
	return nil
}

// checkImports makes sure every import to.imports points at our package is
// one: an external test file imports it, and no internal one does (a file of
// our own package cannot import that package, so its client-go import would
// silently stay client-go's).
func checkImports(files []*cgFile, to target) error {
	for _, want := range to.imports {
		imported := false
		for _, f := range files {
			for _, imp := range f.ast.Imports {
				if strings.Trim(imp.Path.Value, "\"`") != want {
					continue
				}
				if !strings.HasSuffix(f.ast.Name.Name, "_test") {
					return fmt.Errorf("stages.go: %s points imports of %s at our package, but %s, a file of the package itself, imports it", to.pkg, want, f.rel)
				}
				imported = true
			}
		}
		if !imported {
			return fmt.Errorf("stages.go: %s points imports of %s at our package, which client-go's files never import", to.pkg, want)
		}
	}
	return nil
}

// rewrite returns f's source with its package clause naming the target (an
// external test package, x_test, becomes target_test and imports the target
// where it imported client-go's package), every unit that is not live
// removed, and every import no longer used removed. pkgNames maps an import
// path to its package name.
func rewrite(fset *token.FileSet, f *cgFile, us []*unit, to target, pkgNames map[string]string) ([]byte, []string, error) {
	out := append([]byte(nil), f.src...)
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	// blankDecl removes n and the doc comment above it.
	blankDecl := func(doc *ast.CommentGroup, n ast.Node) {
		from := off(n.Pos())
		if doc != nil {
			from = off(doc.Pos())
		}
		blank(out, from, off(n.End()))
	}

	// Which specs of each GenDecl stay.
	kept := map[*ast.GenDecl]int{}
	for _, u := range us {
		if u.decl != nil && u.live {
			kept[u.decl]++
		}
	}
	// Replacements that change a line's length are applied last, from the
	// end of the file back, so they do not shift the offsets used above.
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	var changed []string // file:line: old → new, for each type renamed and side rewritten
	note := func(p token.Pos, old, new string) {
		changed = append(changed, fmt.Sprintf("%s:%d: %s → %s", f.rel, fset.Position(p).Line, old, new))
	}
	used := map[string]bool{} // selector qualifiers in what stays: the imports it uses
	for _, u := range us {
		if u.live {
			for q := range u.quals {
				used[q] = true
			}
			for _, id := range renamedCalls(u.node, to.renames) {
				edits = append(edits, edit{off(id.Pos()), off(id.End()), to.renames[id.Name]})
			}
			for _, id := range renamedTypes(u.node, to.types) {
				edits = append(edits, edit{off(id.Pos()), off(id.End()), to.types[id.Name]})
				note(id.Pos(), id.Name, to.types[id.Name])
			}
			for _, e := range rewrittenSides(fset, f.src, u.node, to.sides) {
				old := string(f.src[off(e.Pos()):off(e.End())])
				edits = append(edits, edit{off(e.Pos()), off(e.End()), to.sides[old]})
				note(e.Pos(), old, to.sides[old])
			}
			continue
		}
		switch n := u.node.(type) {
		case *ast.FuncDecl:
			blankDecl(n.Doc, n)
		case *ast.TypeSpec, *ast.ValueSpec:
			if kept[u.decl] == 0 {
				blankDecl(u.decl.Doc, u.decl)
				continue
			}
			var doc *ast.CommentGroup
			if ts, ok := n.(*ast.TypeSpec); ok {
				doc = ts.Doc
			} else {
				doc = n.(*ast.ValueSpec).Doc
			}
			blankDecl(doc, n)
		}
	}
	pkgClause := to.pkg
	external := strings.HasSuffix(f.ast.Name.Name, "_test")
	if external {
		pkgClause += "_test"
	}
	edits = append(edits, edit{off(f.ast.Name.Pos()), off(f.ast.Name.End()), pkgClause})
	clientGoPkg := "k8s.io/client-go/" + path.Dir(f.rel)
	for _, imp := range f.ast.Imports {
		importPath := strings.Trim(imp.Path.Value, "\"`")
		name, ok := pkgNames[importPath]
		if imp.Name != nil {
			name, ok = imp.Name.Name, true
		}
		if !ok {
			return nil, nil, fmt.Errorf("%s: no package name known for import %q", f.rel, importPath)
		}
		if name == "_" || name == "." || used[name] {
			if external && (importPath == clientGoPkg || slices.Contains(to.imports, importPath)) {
				// The package under test is ours now, under the name
				// the file uses for client-go's; so is a package whose
				// names the adapter declares (stage.imports).
				edits = append(edits, edit{off(imp.Path.Pos()), off(imp.Path.End()), name + " " + strconv.Quote(to.importPath)})
			}
			continue
		}
		// A parenthesised import group keeps its parentheses; a lone
		// import loses its whole declaration.
		for _, d := range f.ast.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT && len(g.Specs) == 1 && g.Specs[0] == imp && !g.Lparen.IsValid() {
				blank(out, off(g.Pos()), off(g.End()))
			}
		}
		blank(out, off(imp.Pos()), off(imp.End()))
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].from > edits[j].from })
	for i, e := range edits {
		if i > 0 && e.to > edits[i-1].from {
			return nil, nil, fmt.Errorf("%s:%d: two of stages.go's rewrites overlap here", f.rel, fset.File(f.ast.Pos()).Line(fset.File(f.ast.Pos()).Pos(e.from)))
		}
		out = append(append(append([]byte(nil), out[:e.from]...), e.text...), out[e.to:]...)
	}
	return out, changed, nil
}

// prepared is what prepare made of one stage's client-go files.
type prepared struct {
	files   map[string][]byte   // client-go rel path → rewritten source
	tests   map[string][]string // tested file → every test and benchmark it declares, sorted
	dropped map[string][]string // file → names of declarations removed (tests excluded, helpers nobody reached)
	changed []string            // file:line: old → new, each type renamed and side rewritten (stage.types, stage.sides)
}

// prepare rewrites files for the target package. runs says whether a test of
// a tested file is to run; pkgNames must name every import of every file.
func prepare(fset *token.FileSet, files []*cgFile, to target, runs func(file, name string) bool, pkgNames map[string]string) (*prepared, error) {
	var all []*unit
	perFile := map[*cgFile][]*unit{}
	p := &prepared{files: map[string][]byte{}, tests: map[string][]string{}, dropped: map[string][]string{}}
	for _, f := range files {
		us := units(f, func(name string) bool { return runs(f.rel, name) })
		perFile[f] = us
		all = append(all, us...)
		if f.tested {
			for _, u := range us {
				if fd, ok := u.node.(*ast.FuncDecl); ok && fd.Recv == nil && testKind(fd.Name.Name) != "" {
					p.tests[f.rel] = append(p.tests[f.rel], fd.Name.Name)
				}
			}
			sort.Strings(p.tests[f.rel])
		}
	}
	if err := markReplaced(all, to); err != nil {
		return nil, err
	}
	if err := checkRenames(all, to); err != nil {
		return nil, err
	}
	if err := checkTypesAndSides(fset, all, to); err != nil {
		return nil, err
	}
	if err := checkImports(files, to); err != nil {
		return nil, err
	}
	markLive(all)
	for _, f := range files {
		src, changed, err := rewrite(fset, f, perFile[f], to, pkgNames)
		if err != nil {
			return nil, err
		}
		p.files[f.rel] = src
		p.changed = append(p.changed, changed...)
		for _, u := range perFile[f] {
			if !u.live {
				name := strings.Join(u.names, ",")
				if u.recv != "" {
					name = u.recv + "." + name
				}
				p.dropped[f.rel] = append(p.dropped[f.rel], name)
			}
		}
	}
	return p, nil
}
