package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// declaration is one name a package declares: what kind of thing it is, and
// its source with its doc comment, whitespace and comment markers folded so
// that a sentence wrapped over two comment lines still reads as one.
type declaration struct {
	kind string // "type", "func", "method", "field", "interface method", "const", "var"
	text string
}

// packageDeclarations reads every non-test .go file of a package directory
// and returns what it declares, by name: top-level names as they are,
// methods, struct fields and interface methods as Type.Name. A directory
// that does not exist declares nothing: the package is not in that release.
func packageDeclarations(dir string) (map[string]declaration, error) {
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return map[string]declaration{}, nil
	}
	if err != nil {
		return nil, err
	}
	decls := map[string]declaration{}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		collect(fset, src, f, decls)
	}
	return decls, nil
}

func collect(fset *token.FileSet, src []byte, f *ast.File, decls map[string]declaration) {
	// text is the source from a declaration's doc comment (when it has one)
	// to its end.
	text := func(doc *ast.CommentGroup, node ast.Node) string {
		from := node.Pos()
		if doc != nil {
			from = doc.Pos()
		}
		return fold(string(src[fset.Position(from).Offset:fset.Position(node.End()).Offset]))
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				decls[d.Name.Name] = declaration{"func", text(d.Doc, d)}
			} else {
				decls[receiverType(d.Recv.List[0].Type)+"."+d.Name.Name] = declaration{"method", text(d.Doc, d)}
			}
		case *ast.GenDecl:
			for _, spec := range d.Specs {
				// A lone spec's comment is the GenDecl's (type X ...); in
				// a parenthesised block each spec has its own.
				doc := d.Doc
				if d.Lparen.IsValid() {
					doc = nil
				}
				switch s := spec.(type) {
				case *ast.TypeSpec:
					if s.Doc != nil {
						doc = s.Doc
					}
					decls[s.Name.Name] = declaration{"type", text(doc, s)}
					collectMembers(s.Name.Name, s.Type, text, decls)
				case *ast.ValueSpec:
					if s.Doc != nil {
						doc = s.Doc
					}
					for _, n := range s.Names {
						decls[n.Name] = declaration{d.Tok.String(), text(doc, s)}
					}
				}
			}
		}
	}
}

func collectMembers(typeName string, t ast.Expr, text func(*ast.CommentGroup, ast.Node) string, decls map[string]declaration) {
	kind, fields := "field", (*ast.FieldList)(nil)
	switch t := t.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		kind, fields = "interface method", t.Methods
	default:
		return
	}
	for _, f := range fields.List {
		for _, n := range f.Names {
			decls[typeName+"."+n.Name] = declaration{kind, text(f.Doc, f)}
		}
	}
}

// receiverType strips pointers and type parameters: (q *Typed[T]) is Typed.
func receiverType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverType(e.X)
	case *ast.IndexExpr:
		return receiverType(e.X)
	case *ast.IndexListExpr:
		return receiverType(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// fold drops each line's indentation and comment markers and joins the
// lines with single spaces.
func fold(s string) string {
	var words []string
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		line = strings.TrimSpace(strings.TrimPrefix(line, "//"))
		words = append(words, strings.Fields(line)...)
	}
	return strings.Join(words, " ")
}
