package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A lab is cut from the real code: a function whose doc comment carries the
// directive //lab:NN belongs to lab NN. (go doc hides directive lines, so the
// marker costs a reader of the core nothing.) Entering the lab replaces the
// body of every such function with a stub that keeps the signature and the
// doc comment, says in a TODO what the body must do, and returns zero
// values; nothing else in the file changes, but for imports only the
// removed bodies used. The skeleton is generated from the solution every
// time, so it cannot drift from the code the chapter teaches.

// markerRE matches a lab marker line in a doc comment.
var markerRE = regexp.MustCompile(`^//lab:(\d\d)\s*$`)

// marked is one function of a lab, found in a stage's source.
type marked struct {
	File string // path relative to the repository's root
	Name string // "DeltaFIFO.Pop" for a method, "isDeletionDup" for a function
}

// funcName is a FuncDecl's name as labs write it: Recv.Name for methods.
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
}

// labOf returns the lab number a FuncDecl is marked for, or 0.
func labOf(fd *ast.FuncDecl) int {
	if fd.Doc == nil {
		return 0
	}
	for _, c := range fd.Doc.List {
		if m := markerRE.FindStringSubmatch(c.Text); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return 0
}

// findMarked lists every marked function under dir (non-test Go files), by
// lab number.
func findMarked(root, dir string) (map[int][]marked, error) {
	out := map[int][]marked{}
	err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || d.Name() == "demo" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
				if n := labOf(fd); n != 0 {
					out[n] = append(out[n], marked{File: filepath.ToSlash(rel), Name: funcName(fd)})
				}
			}
		}
		return nil
	})
	return out, err
}

// rewriteFile returns src with the body of every function named in bodies
// replaced by bodies[name] (the text between the braces, without them),
// and with the imports no longer used removed; gofmt'ed.
func rewriteFile(path string, src []byte, bodies map[string]string) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	type span struct {
		from, to int
		text     string
	}
	var spans []span
	found := map[string]bool{}
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		name := funcName(fd)
		body, ok := bodies[name]
		if !ok {
			continue
		}
		found[name] = true
		spans = append(spans, span{fset.Position(fd.Body.Lbrace).Offset + 1, fset.Position(fd.Body.Rbrace).Offset, body})
	}
	for name := range bodies {
		if !found[name] {
			return nil, fmt.Errorf("%s: no function %s to rewrite", path, name)
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].from > spans[j].from })
	out := append([]byte(nil), src...)
	for _, s := range spans {
		out = append(out[:s.from], append([]byte(s.text), out[s.to:]...)...)
	}
	out, err = dropUnusedImports(path, out)
	if err != nil {
		return nil, err
	}
	return format.Source(out)
}

// dropUnusedImports removes the imports src no longer refers to. A package's
// name is taken from its import's alias, or else from its path's last
// element (without a /vN suffix), which is true of every import the stages
// make; a wrong guess shows as a compile error in the lab's check.
func dropUnusedImports(path string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	var drop []*ast.ImportSpec
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := importName(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		if name == "_" || name == "." || used[name] {
			continue
		}
		drop = append(drop, imp)
	}
	sort.Slice(drop, func(i, j int) bool { return drop[i].Pos() > drop[j].Pos() })
	out := append([]byte(nil), src...)
	for _, imp := range drop {
		from := fset.Position(imp.Pos()).Offset
		to := fset.Position(imp.End()).Offset
		if imp.Doc != nil {
			from = fset.Position(imp.Doc.Pos()).Offset
		}
		if imp.Comment != nil {
			to = fset.Position(imp.Comment.End()).Offset
		}
		// Take the whole line when the import stands alone on it.
		for from > 0 && (out[from-1] == ' ' || out[from-1] == '\t') {
			from--
		}
		if to < len(out) && out[to] == '\n' {
			to++
		}
		out = append(out[:from], out[to:]...)
	}
	// An import block left empty: "import ()" is valid Go, and gofmt keeps it.
	return bytes.ReplaceAll(out, []byte("import ()\n"), nil), nil
}

var versionSuffix = regexp.MustCompile(`^v\d+$`)

func importName(path string) string {
	elems := strings.Split(path, "/")
	last := elems[len(elems)-1]
	if versionSuffix.MatchString(last) && len(elems) > 1 {
		last = elems[len(elems)-2]
	}
	return strings.NewReplacer("-", "", ".", "").Replace(last)
}

// stubBody is the body a learner starts from: the TODO, then zero values.
func stubBody(lab int, name, todo string, fd *ast.FuncDecl) string {
	var b strings.Builder
	b.WriteString("\n")
	prefix := fmt.Sprintf("TODO(lab %02d): ", lab)
	for i, line := range wrap(strings.Repeat("x", len(prefix))+" "+todo, 72) {
		line = strings.TrimPrefix(line, strings.Repeat("x", len(prefix))+" ")
		if i == 0 {
			fmt.Fprintf(&b, "\t// %s%s\n", prefix, line)
		} else {
			fmt.Fprintf(&b, "\t// %s\n", line)
		}
	}
	fmt.Fprintf(&b, "\t// (%s is yours to write: make lab-check %d grades it, make lab-hint %d helps.)\n", name, lab, lab)
	if fd.Type.Results != nil && len(fd.Type.Results.List) > 0 {
		var zeros []string
		for _, field := range fd.Type.Results.List {
			n := max(len(field.Names), 1)
			for range n {
				zeros = append(zeros, zeroValue(field.Type))
			}
		}
		fmt.Fprintf(&b, "\treturn %s\n", strings.Join(zeros, ", "))
	}
	return b.String()
}

// interfaceTypes are the interface types that marked functions return,
// other packages' and the stage's own. The parser alone cannot tell an
// interface from a struct; a stub reads better returning nil than
// *new(runtime.Object).
var interfaceTypes = map[string]bool{"runtime.Object": true, "watch.Interface": true, "informer.SharedIndexInformer": true,
	"ResourceEventHandlerRegistration": true}

// zeroValue writes the zero value of a result type as Go source.
func zeroValue(t ast.Expr) string {
	switch x := t.(type) {
	case *ast.SelectorExpr:
		if pkg, ok := x.X.(*ast.Ident); ok && interfaceTypes[pkg.Name+"."+x.Sel.Name] {
			return "nil"
		}
	case *ast.StarExpr, *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.FuncType, *ast.InterfaceType:
		if a, ok := x.(*ast.ArrayType); ok && a.Len != nil {
			break // an array, not a slice
		}
		return "nil"
	case *ast.Ident:
		if interfaceTypes[x.Name] {
			return "nil"
		}
		switch x.Name {
		case "error", "any":
			return "nil"
		case "string":
			return `""`
		case "bool":
			return "false"
		case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "float32", "float64", "byte", "rune":
			return "0"
		}
	}
	var buf bytes.Buffer
	format.Node(&buf, token.NewFileSet(), t)
	return "*new(" + buf.String() + ")"
}

func wrap(s string, width int) []string {
	var lines []string
	var cur string
	for _, w := range strings.Fields(s) {
		if cur != "" && len(cur)+1+len(w) > width {
			lines = append(lines, cur)
			cur = w
			continue
		}
		if cur != "" {
			cur += " "
		}
		cur += w
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// funcDecls parses src and returns its functions by lab name.
func funcDecls(path string, src []byte) (map[string]*ast.FuncDecl, *token.FileSet, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, err
	}
	out := map[string]*ast.FuncDecl{}
	for _, decl := range f.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Body != nil {
			out[funcName(fd)] = fd
		}
	}
	return out, fset, nil
}

// variant is a version of a lab's files: path (relative to the root) →
// contents. The skeleton, a wrong answer and the solution are variants.
type variant map[string][]byte

// skeleton returns the lab's files with every marked body stubbed.
func (l *Lab) skeleton(root string) (variant, error) {
	return l.substitute(root, func(_ source, fd *ast.FuncDecl, name string) (string, error) {
		return stubBody(l.N, name, l.todo(name), fd), nil
	})
}

// substitute rewrites each file holding a marked function of the lab, the
// body of each marked function given by body.
func (l *Lab) substitute(root string, body func(src source, fd *ast.FuncDecl, name string) (string, error)) (variant, error) {
	funcs, err := l.marked(root)
	if err != nil {
		return nil, err
	}
	byFile := map[string][]string{}
	for _, m := range funcs {
		byFile[m.File] = append(byFile[m.File], m.Name)
	}
	out := variant{}
	for file, names := range byFile {
		path := filepath.Join(root, file)
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		decls, fset, err := funcDecls(path, src)
		if err != nil {
			return nil, err
		}
		bodies := map[string]string{}
		for _, name := range names {
			if bodies[name], err = body(source{src, fset}, decls[name], name); err != nil {
				return nil, err
			}
		}
		if out[file], err = rewriteFile(path, src, bodies); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// solutionBodies are the bodies of the lab's marked functions, as the
// tree has them.
func (l *Lab) solutionBodies(root string) (map[string]string, error) {
	out := map[string]string{}
	_, err := l.substitute(root, func(src source, fd *ast.FuncDecl, name string) (string, error) {
		out[name] = src.body(fd)
		return out[name], nil
	})
	return out, err
}

// withWrongAnswer returns the lab's files with the wrong answer's edits made
// to the solution's bodies; the functions it does not name keep theirs.
func (l *Lab) withWrongAnswer(root string, w *wrongAnswer) (variant, error) {
	solution, err := l.solutionBodies(root)
	if err != nil {
		return nil, err
	}
	wrong, err := w.apply(solution)
	if err != nil {
		return nil, err
	}
	return l.withBodies(root, wrong)
}

// withBodies returns the lab's files with the marked functions' bodies
// taken from bodies where it has them.
func (l *Lab) withBodies(root string, bodies map[string]string) (variant, error) {
	return l.substitute(root, func(src source, fd *ast.FuncDecl, name string) (string, error) {
		if b, ok := bodies[name]; ok {
			return b, nil
		}
		return src.body(fd), nil
	})
}

// source is a file's text with the FileSet it was parsed in.
type source struct {
	src  []byte
	fset *token.FileSet
}

// body is a function's body as written, between its braces.
func (s source) body(fd *ast.FuncDecl) string {
	return string(s.src[s.fset.Position(fd.Body.Lbrace).Offset+1 : s.fset.Position(fd.Body.Rbrace).Offset])
}
