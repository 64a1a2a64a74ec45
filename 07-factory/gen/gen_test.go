package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedFilesAreUpToDate renders every file as `make generate`
// would and compares it with the file in the repository: a template or
// the table changed without regenerating, or a generated file edited by
// hand, fails here, and so `make test`.
func TestGeneratedFilesAreUpToDate(t *testing.T) {
	files, err := render(resources)
	if err != nil {
		t.Fatal(err)
	}
	const dir = ".." // 07-factory, from 07-factory/gen
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Errorf("07-factory/%s: %v; run `make generate`", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("07-factory/%s is not what gen writes; run `make generate` (and edit the template, not the file)", name)
		}
	}
	stale, err := staleFiles(dir, files)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range stale {
		t.Errorf("07-factory/%s was generated for a resource the table no longer lists; run `make generate`", name)
	}
}

// TestRenderCoversEveryResource: each row gives an informer, a lister and
// a case of ForResource.
func TestRenderCoversEveryResource(t *testing.T) {
	files, err := render(resources)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resources {
		for _, name := range []string{r.Dir() + "/" + r.FileName() + ".go", "listers/" + r.Dir() + "/" + r.FileName() + ".go"} {
			if _, ok := files[name]; !ok {
				t.Errorf("%s: no %s", r.Kind, name)
			}
		}
		if !bytes.Contains(files["generic.go"], []byte(`Resource: "`+r.Plural+`"}`)) {
			t.Errorf("%s: ForResource has no case for %s", r.Kind, r.Plural)
		}
	}
}
