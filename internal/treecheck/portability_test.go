package treecheck

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// root is the repository's top directory, two levels up from here.
var root = filepath.Join("..", "..")

// linuxOnly are what a file macOS compiles must not contain: a path under
// /proc, which does not exist there, and the parent-death signal, a field
// of Linux's SysProcAttr only. Such code goes in a _linux.go file (or
// behind //go:build linux), with a macOS counterpart that keeps the same
// promise. (Spelt in two halves so that this file does not match itself.)
var linuxOnly = []string{`"/pr` + `oc`, "Pdeath" + "sig"}

// TestNoLinuxOnlyCodeWhereMacOSCompiles: go vet with GOOS=darwin (make
// test runs it) catches a Linux-only field or function, but not a path:
// a read of /proc compiles on macOS and fails there at run time.
func TestNoLinuxOnlyCodeWhereMacOSCompiles(t *testing.T) {
	for _, arch := range []string{"arm64", "amd64"} {
		ctx := build.Default
		ctx.GOOS, ctx.GOARCH = "darwin", arch
		ctx.CgoEnabled = false // as when cross-compiling
		checked := 0
		err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				// The nested playground module is the apiserver's source;
				// .bin and testdata hold no code of ours.
				switch d.Name() {
				case "playground", ".bin", "testdata", "node_modules", ".git":
					if filepath.Dir(path) == root || d.Name() != "playground" {
						return filepath.SkipDir
					}
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") {
				return nil
			}
			match, err := ctx.MatchFile(filepath.Dir(path), d.Name())
			if err != nil || !match {
				return err
			}
			checked++
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, bad := range linuxOnly {
				if strings.Contains(string(b), bad) {
					rel, _ := filepath.Rel(root, path)
					t.Errorf("%s (compiled on darwin/%s) contains %s: move it to a _linux.go file with a macOS counterpart", rel, arch, bad)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if checked < 100 {
			t.Errorf("darwin/%s: only %d files checked; is root (%s) the repository?", arch, checked, root)
		}
	}
}
