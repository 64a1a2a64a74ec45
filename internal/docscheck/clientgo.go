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

// citedPackage is where a package that chapters cite lives: a module and a
// directory inside it.
type citedPackage struct{ module, dir string }

const clientGoModule = "k8s.io/client-go"

// packageDirs maps the package names chapters use in citations to their
// directories: client-go's own, and the apimachinery and k8s.io/utils
// packages client-go's informers are built on (wait, utilruntime, buffer...).
var packageDirs = map[string]citedPackage{
	"cache":      {clientGoModule, "tools/cache"},
	"pager":      {clientGoModule, "tools/pager"},
	"synctrack":  {clientGoModule, "tools/cache/synctrack"},
	"workqueue":  {clientGoModule, "util/workqueue"},
	"watchlist":  {clientGoModule, "util/watchlist"},
	"informers":  {clientGoModule, "informers"},
	"listers":    {clientGoModule, "listers"},
	"rest":       {clientGoModule, "rest"},
	"gentype":    {clientGoModule, "gentype"}, // the typed clientsets' generic client
	"clientcmd":  {clientGoModule, "tools/clientcmd"},
	"kubernetes": {clientGoModule, "kubernetes"},
	"dynamic":    {clientGoModule, "dynamic"},
	// Stage 07's packages keep these names too; a chapter cites ours by
	// path (07-factory/internalinterfaces), never as pkg.Name.
	"dynamicinformer":    {clientGoModule, "dynamic/dynamicinformer"},
	"dynamiclister":      {clientGoModule, "dynamic/dynamiclister"},
	"internalinterfaces": {clientGoModule, "informers/internalinterfaces"},
	"wait":               {"k8s.io/apimachinery", "pkg/util/wait"},
	"utilruntime":        {"k8s.io/apimachinery", "pkg/util/runtime"},
	"meta":               {"k8s.io/apimachinery", "pkg/api/meta"},
	"metav1":             {"k8s.io/apimachinery", "pkg/apis/meta/v1"},
	"sets":               {"k8s.io/apimachinery", "pkg/util/sets"},
	"labels":             {"k8s.io/apimachinery", "pkg/labels"},
	"buffer":             {"k8s.io/utils", "buffer"},
}

// clientGoDir finds client-go in the module cache through the go command, and
// checks it is the version the docs teach.
var clientGoDir = sync.OnceValues(func() (string, error) {
	version, dir, err := findModule(clientGoModule)
	if err != nil {
		return "", err
	}
	if version != clientGoVersion {
		return "", fmt.Errorf("the module uses client-go %s; the docs teach %s", version, clientGoVersion)
	}
	return dir, nil
})

var (
	moduleMu   sync.Mutex
	moduleDirs = map[string]string{}
)

// moduleDir finds a module the root go.mod requires in the module cache; the
// version is whatever go.mod says (for client-go, checked by clientGoDir).
func moduleDir(module string) (string, error) {
	if module == clientGoModule {
		return clientGoDir()
	}
	moduleMu.Lock()
	defer moduleMu.Unlock()
	if dir, ok := moduleDirs[module]; ok {
		return dir, nil
	}
	_, dir, err := findModule(module)
	if err != nil {
		return "", err
	}
	moduleDirs[module] = dir
	return dir, nil
}

func findModule(module string) (version, dir string, err error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}} {{.Dir}}", module).Output()
	if err != nil {
		return "", "", fmt.Errorf("go list -m %s: %v", module, err)
	}
	version, dir, _ = strings.Cut(strings.TrimSpace(string(out)), " ")
	if dir == "" {
		return "", "", fmt.Errorf("%s %s is not in the module cache: run go mod download", module, version)
	}
	return version, dir, nil
}

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
