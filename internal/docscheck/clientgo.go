package docscheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// clientGoVersion is the version every chapter teaches.
const clientGoVersion = "v0.37.2"

// packageDirs maps the package names chapters use in citations to their
// directories in the client-go module.
var packageDirs = map[string]string{
	"cache":      "tools/cache",
	"pager":      "tools/pager",
	"synctrack":  "tools/cache/synctrack",
	"workqueue":  "util/workqueue",
	"watchlist":  "util/watchlist",
	"informers":  "informers",
	"listers":    "listers",
	"rest":       "rest",
	"clientcmd":  "tools/clientcmd",
	"kubernetes": "kubernetes",
	"dynamic":    "dynamic",
}

// clientGoDir finds client-go in the module cache through the go command, and
// checks it is the version the docs teach.
var clientGoDir = sync.OnceValues(func() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}} {{.Dir}}", "k8s.io/client-go").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m k8s.io/client-go: %v", err)
	}
	version, dir, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	if version != clientGoVersion {
		return "", fmt.Errorf("the module uses client-go %s; the docs teach %s", version, clientGoVersion)
	}
	if dir == "" {
		return "", fmt.Errorf("client-go %s is not in the module cache: run go mod download", version)
	}
	return dir, nil
})

// declarations lists what a client-go package declares: top-level names and
// Type.Member for methods, struct fields and interface methods.
type declarations map[string]bool

var (
	declMu    sync.Mutex
	declCache = map[string]declarations{}
)

func packageDeclarations(dir string) (declarations, error) {
	declMu.Lock()
	defer declMu.Unlock()
	if d, ok := declCache[dir]; ok {
		return d, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	d := declarations{}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		collect(f, d)
	}
	declCache[dir] = d
	return d, nil
}

func collect(f *ast.File, d declarations) {
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			if decl.Recv == nil {
				d[decl.Name.Name] = true
				continue
			}
			d[receiverType(decl.Recv.List[0].Type)+"."+decl.Name.Name] = true
		case *ast.GenDecl:
			for _, spec := range decl.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					d[spec.Name.Name] = true
					collectMembers(spec.Name.Name, spec.Type, d)
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						d[n.Name] = true
					}
				}
			}
		}
	}
}

func collectMembers(typeName string, t ast.Expr, d declarations) {
	var fields *ast.FieldList
	switch t := t.(type) {
	case *ast.StructType:
		fields = t.Fields
	case *ast.InterfaceType:
		fields = t.Methods
	default:
		return
	}
	for _, f := range fields.List {
		for _, n := range f.Names {
			d[typeName+"."+n.Name] = true
		}
		if len(f.Names) == 0 { // embedded: Type.Embedded
			d[typeName+"."+receiverType(f.Type)] = true
		}
	}
}

// receiverType strips pointers, type parameters and package qualifiers.
func receiverType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverType(e.X)
	case *ast.IndexExpr:
		return receiverType(e.X)
	case *ast.IndexListExpr:
		return receiverType(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}
