package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// TestStubReturnsReadableZeroValues: a stub returns nil for the interfaces
// marked functions return (the parser alone cannot tell runtime.Object from
// a struct), zero literals for basic types, and *new(T) for the rest.
func TestStubReturnsReadableZeroValues(t *testing.T) {
	src := `package p
func f() (runtime.Object, watch.Interface, informer.SharedIndexInformer, ResourceEventHandlerRegistration, error, string, bool, int64, []byte, *T, T, metav1.ListOptions) { return }`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	fd := f.Decls[0].(*ast.FuncDecl)
	got := stubBody(1, "f", "write it", fd)
	want := "return nil, nil, nil, nil, nil, \"\", false, 0, nil, nil, *new(T), *new(metav1.ListOptions)\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("the stub ends\n%s\nwant it to end\n%s", got, want)
	}
}
