package treecheck

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// No built program belongs in the repository: a 41 MB bench-scale binary
// went in once with a commit that meant to carry its source, and a 5 MB
// cmd/lab binary with another. What `go build ./some/main/package` leaves
// at the root is ignored by name in .gitignore; this file checks that the
// list is whole and that nothing executable is tracked anyway.

// objectMagic are the first bytes of the executables and objects Go builds
// on the systems the course runs on: ELF (Linux), Mach-O 32- and 64-bit in
// either byte order (macOS), and a universal Mach-O (which shares its magic
// with a Java class file, as unwelcome here).
var objectMagic = []struct {
	name  string
	magic []byte
}{
	{"an ELF file", []byte("\x7fELF")},
	{"a Mach-O file", []byte{0xfe, 0xed, 0xfa, 0xce}},
	{"a Mach-O file", []byte{0xfe, 0xed, 0xfa, 0xcf}},
	{"a Mach-O file", []byte{0xce, 0xfa, 0xed, 0xfe}},
	{"a Mach-O file", []byte{0xcf, 0xfa, 0xed, 0xfe}},
	{"a universal Mach-O file", []byte{0xca, 0xfe, 0xba, 0xbe}},
}

// trackedFileProblem says what is wrong with a tracked regular file, given
// its git mode ("100644" or "100755") and its first bytes, or "".
func trackedFileProblem(mode string, head []byte) string {
	for _, m := range objectMagic {
		if bytes.HasPrefix(head, m.magic) {
			return "is " + m.name + ": a built program, not source"
		}
	}
	if mode == "100755" && !bytes.HasPrefix(head, []byte("#!")) {
		return "has the executable bit but is not a script (no #! line)"
	}
	return ""
}

// errNotGit is what badTrackedFiles returns where there is no git, or dir
// is not in a git work tree (a tarball of the repository, say).
var errNotGit = errors.New("not a git checkout")

// badTrackedFiles lists the files git tracks under dir that are built
// programs or executables without a #! line, each as "path: why". It reads
// the index's modes and the work tree's bytes; a tracked file deleted from
// the work tree is skipped, as the next commit will not hold it either.
func badTrackedFiles(dir string) ([]string, error) {
	if err := exec.Command("git", "-C", dir, "rev-parse", "--is-inside-work-tree").Run(); err != nil {
		return nil, errNotGit
	}
	out, err := exec.Command("git", "-C", dir, "ls-files", "-s", "-z").Output()
	if err != nil {
		return nil, err
	}
	var bad []string
	for _, entry := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
		// "<mode> <object> <stage>\t<path>"
		meta, name, ok := strings.Cut(entry, "\t")
		if !ok {
			continue
		}
		mode := strings.Fields(meta)[0]
		if mode != "100644" && mode != "100755" {
			continue // a symlink or a submodule: no bytes of its own
		}
		head, err := firstBytes(filepath.Join(dir, name), 4)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if why := trackedFileProblem(mode, head); why != "" {
			bad = append(bad, name+": "+why)
		}
	}
	return bad, nil
}

func firstBytes(name string, n int) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	n, err = io.ReadFull(f, b)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil // a file shorter than a magic number is no program
	}
	return b[:n], err
}

// TestNoTrackedExecutables: no tracked file is a built program, and only
// scripts carry the executable bit.
func TestNoTrackedExecutables(t *testing.T) {
	bad, err := badTrackedFiles(root)
	if errors.Is(err, errNotGit) {
		t.Skip("not a git checkout: no tracked files to check")
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("%s: git rm --cached it, delete it, and ignore it in .gitignore if a build leaves it", b)
	}
}

// TestBadTrackedFilesOnAFixture runs the check on a repository made for it,
// so that it is seen to go red: a built program and an executable without
// a #! line are named, a script and a source file are not.
func TestBadTrackedFilesOnAFixture(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	files := []struct {
		name       string
		body       string
		executable bool
	}{
		{"run.sh", "#!/bin/sh\necho hi\n", true},
		{"main.go", "package main\n", false},
		{"tiny", "x", false},
		{"empty", "", false},
		{"prog", "\x7fELF\x02\x01\x01rest of a program", false},
		{"bin/tool", "\x7fELF\x02\x01\x01rest of a program", true},
		{"prog-darwin", "\xcf\xfa\xed\xferest of a program", false},
		{"notes.txt", "not a script\n", true},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	// The executable bit as git records it, whatever the file system keeps.
	git("update-index", "--chmod=+x", "run.sh", "bin/tool", "notes.txt")

	bad, err := badTrackedFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"bin/tool: is an ELF file: a built program, not source",
		"notes.txt: has the executable bit but is not a script (no #! line)",
		"prog-darwin: is a Mach-O file: a built program, not source",
		"prog: is an ELF file: a built program, not source",
	}
	slices.Sort(bad) // git lists by path, bytewise: the same order
	if !slices.Equal(bad, want) {
		t.Errorf("badTrackedFiles on the fixture:\n got %q\nwant %q", bad, want)
	}

	if _, err := badTrackedFiles(t.TempDir()); !errors.Is(err, errNotGit) {
		t.Errorf("badTrackedFiles outside a git work tree: err = %v, want errNotGit (the test skips)", err)
	}
}

// TestRootBinariesAreIgnored: `go build ./X` from the root leaves a binary
// named after X's last element there; each such name is ignored in
// .gitignore, unless the root holds a directory of that name, where go
// build refuses to write (cmd/playground's binary and playground/).
func TestRootBinariesAreIgnored(t *testing.T) {
	if err := exec.Command("git", "-C", root, "rev-parse", "--is-inside-work-tree").Run(); err != nil {
		t.Skip("not a git checkout: .gitignore does not apply")
	}
	cmd := exec.Command("go", "list", "-f", `{{if eq .Name "main"}}{{.ImportPath}} {{.Target}}{{end}}`, "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	built := map[string]string{} // binary name → a package that builds it
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, target, _ := strings.Cut(line, " ")
		name := path.Base(pkg)
		if target != "" {
			// go's own name for it: a /vN suffix is skipped, as go build does.
			name = strings.TrimSuffix(filepath.Base(target), ".exe")
		}
		if fi, err := os.Stat(filepath.Join(root, name)); err == nil && fi.IsDir() {
			continue
		}
		built[name] = pkg
	}
	if len(built) < 5 {
		t.Fatalf("only %d main packages found: %v", len(built), built)
	}
	var names []string
	for name := range built {
		names = append(names, name)
	}
	slices.Sort(names)
	// --no-index: whether .gitignore names it, tracked or not.
	out, _ = exec.Command("git", append([]string{"-C", root, "check-ignore", "--no-index", "--"}, names...)...).Output()
	ignored := strings.Fields(string(out))
	for _, name := range names {
		if !slices.Contains(ignored, name) {
			t.Errorf("go build ./%s from the root leaves %s there, and .gitignore does not name /%s",
				strings.TrimPrefix(built[name], module+"/"), name, name)
		}
	}
}
