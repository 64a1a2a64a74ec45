package main

import (
	"os"
	"path/filepath"
	"testing"
)

// writeFiles lays out a fake release: path (relative to the release root)
// to content.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for path, content := range files {
		full := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const queueFixture = `package workqueue

// Deprecated: Interface is deprecated, use
// TypedInterface instead.
type Interface TypedInterface[any]

type TypedInterface[T comparable] interface {
	// ShutDownWithDrain stops taking
	// items.
	ShutDownWithDrain()
}

type Typed[T comparable] struct {
	queue []T
}

func (q *Typed[T]) ShutDownWithDrain() {}

const (
	// defaultBatchSize is
	// how many.
	defaultBatchSize = 1000
)

func NewTyped[T comparable]() *Typed[T] { return nil }
`

func TestPackageDeclarationsFindsEveryKindOfName(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"queue.go": queueFixture,
		// A test file declares nothing the release ships.
		"queue_test.go": "package workqueue\n\nfunc OnlyInTests() {}\n",
	})
	decls, err := packageDeclarations(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, kind := range map[string]string{
		"Interface":                        "type",
		"TypedInterface":                   "type",
		"TypedInterface.ShutDownWithDrain": "interface method",
		"Typed":                            "type",
		"Typed.queue":                      "field",
		"Typed.ShutDownWithDrain":          "method", // the receiver's type parameters dropped
		"defaultBatchSize":                 "const",
		"NewTyped":                         "func",
	} {
		if got := decls[name].kind; got != kind {
			t.Errorf("%s: kind %q, want %q", name, got, kind)
		}
	}
	if _, ok := decls["OnlyInTests"]; ok {
		t.Error("a _test.go file's function counted as declared by the release")
	}
}

func TestDeclarationTextIsItsDocAndSourceFolded(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"queue.go": queueFixture})
	decls, err := packageDeclarations(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		// A sentence wrapped over two comment lines reads as one.
		"Interface": "Deprecated: Interface is deprecated, use TypedInterface instead. type Interface TypedInterface[any]",
		// In a parenthesised block, the spec's own comment, not the block's.
		"defaultBatchSize":                 "defaultBatchSize is how many. defaultBatchSize = 1000",
		"TypedInterface.ShutDownWithDrain": "ShutDownWithDrain stops taking items. ShutDownWithDrain()",
	} {
		if got := decls[name].text; got != want {
			t.Errorf("%s's text:\n got %q\nwant %q", name, got, want)
		}
	}
}

func TestAMissingPackageDeclaresNothing(t *testing.T) {
	decls, err := packageDeclarations(filepath.Join(t.TempDir(), "features"))
	if err != nil || len(decls) != 0 {
		t.Errorf("a directory a release does not have: %v, %v; want nothing declared and no error", decls, err)
	}
}
