package main

import (
	"context"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCompileErrorsNamesFileAndLine(t *testing.T) {
	out := `# informer-from-scratch/02-reflector [informer-from-scratch/02-reflector.test]
/tmp/conformance-1/02-reflector.excluded/clientgo_fifo_test.go:85:12: undefined: Queue
/tmp/conformance-1/02-reflector.excluded/clientgo_reflector_test.go:669:10: undefined: NewFIFO
FAIL	informer-from-scratch/02-reflector [build failed]
`
	want := []compileError{
		{file: "clientgo_fifo_test.go", line: 85, text: "clientgo_fifo_test.go:85: undefined: Queue"},
		{file: "clientgo_reflector_test.go", line: 669, text: "clientgo_reflector_test.go:669: undefined: NewFIFO"},
	}
	if diff := cmp.Diff(want, compileErrors([]byte(out)), cmp.AllowUnexported(compileError{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// An error is blamed on the excluded tests that bring its declaration into
// the build, and on nothing when a test that runs anyway reaches it.
func TestBlameFindsTheExcludedTestsThatReachAnError(t *testing.T) {
	src := sample + "\nfunc TestAlsoExcluded(t *testing.T) { _ = shared }\n"
	fset := token.NewFileSet()
	f, err := parseFile(fset, "tools/cache/sample_test.go", []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	us := unitsOf(f)
	excluded := map[string]bool{"TestExcluded": true, "TestAlsoExcluded": true}
	always := reach(us, func(u *unit) bool {
		return u.recv == "" && testKind(u.names[0]) != "" && !excluded[u.names[0]]
	})
	candidates := []*exclusion{
		{file: "tools/cache/sample_test.go", test: "TestExcluded"},
		{file: "tools/cache/sample_test.go", test: "TestAlsoExcluded"},
	}
	lineOf := func(s string) int { return strings.Count(src[:strings.Index(src, s)], "\n") + 1 }
	for decl, want := range map[string][]string{
		"func helperB":           {"TestExcluded"},     // only TestExcluded uses it
		"func (onlyB) String":    {"TestExcluded"},     // a method of a type only it uses
		"func TestExcluded":      {"TestExcluded"},     // the test itself
		"func TestAlsoExcluded":  {"TestAlsoExcluded"}, // the test itself
		"func helperA":           nil,                  // a test that runs uses it
		"var shared":             nil,                  // both excluded tests use it, and so does one that runs
		"func TestUsesOurType(t": nil,
	} {
		u := unitAt(fset, us, lineOf(decl))
		if u == nil {
			t.Fatalf("no declaration at %q", decl)
		}
		var got []string
		for _, x := range blame(us, always, u, candidates) {
			got = append(got, x.test)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("an error in %q is blamed on (-want +got):\n%s", decl, diff)
		}
	}
}

func TestCheckReasons(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"03-deltafifo/doc.go", "docs/en/03-deltafifo.md", "docs/en/04-indexer.md", "07-factory/doc.go"} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, text string) {
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("03-deltafifo/doc.go", "package deltafifo\n")
	write("docs/en/03-deltafifo.md", "# Stage 03\n\n## Differences from client-go\n\n- No plain FIFO.\n")
	write("docs/en/04-indexer.md", "# Stage 04\n\n## What is different\n")
	write("07-factory/doc.go", "package factory\n")
	good := `file tools/cache/fifo_test.go
exclude TestFIFO_basic
because the plain FIFO is left out (03-deltafifo/doc.go; docs/en/03-deltafifo.md, "Differences from client-go").
exclude TestFIFO_addUpdate
because it needs stage 06 (06-sharedinformer), not built yet.
`
	ex, err := readExclusions(writeExclusions(t, good))
	if err != nil {
		t.Fatal(err)
	}
	if notices, err := checkReasons(root, ex); err != nil || len(notices) != 0 {
		t.Errorf("true reasons: notices %q, error %v", notices, err)
	}

	for name, reason := range map[string]string{
		"a doc.go that is gone":       `left out (03-deltafifo/fifo.go; docs/en/03-deltafifo.md, "Differences from client-go").`,
		"a chapter that is gone":      `left out (03-deltafifo/doc.go; docs/en/03-fifo.md, "Differences from client-go").`,
		"a section that is not there": `left out (03-deltafifo/doc.go; docs/en/04-indexer.md, "Differences from client-go").`,
	} {
		ex, err := readExclusions(writeExclusions(t, "file f\nexclude TestA\nbecause "+reason+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := checkReasons(root, ex); err == nil {
			t.Errorf("%s: accepted %q", name, reason)
		}
	}

	ex, err = readExclusions(writeExclusions(t, "file f\nexclude TestA\nbecause it needs stage 07 (07-factory), not built yet.\n"))
	if err != nil {
		t.Fatal(err)
	}
	notices, err := checkReasons(root, ex)
	if err != nil || len(notices) != 1 || !strings.Contains(notices[0], "07-factory is not built yet, but it is") {
		t.Errorf("a stage that was built since: notices %q, error %v", notices, err)
	}

	// A table of stages that names an adapter for stage 08's workqueue and
	// none for 07 (the real one names both now).
	defer func(real []stage) { stages = real }(stages)
	stages = []stage{{dir: "07-factory"}, {dir: "08-workqueue-controller/workqueue", adapter: "workqueue.go"}}
	ex, err = readExclusions(writeExclusions(t, `file f
exclude TestA TestB
because they are for stage 08's entry (08-workqueue-controller), whose adapter is not written yet.
exclude TestC
because they are for stage 07's entry (07-factory), whose adapter is not written yet.
`))
	if err != nil {
		t.Fatal(err)
	}
	notices, err = checkReasons(root, ex)
	if err != nil || len(notices) != 1 || !strings.Contains(notices[0], "exclusions.txt:2 says 08-workqueue-controller's adapter is not written yet, but it is") {
		t.Errorf("an adapter that was written since: notices %q, error %v", notices, err)
	}
}

// -excluded -run X tries the excluded tests -run selects, and only them: an
// excluded test it leaves out stays out of the build, so one that does not
// compile (TestC here) cannot stop the others from being tried. This builds
// and runs a stage of a throwaway module, as make conformance does.
func TestTryExcludedRunSelects(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":    "module informer-from-scratch\n\ngo 1.22\n",
		"01-x/x.go": "package x\n\nfunc Answer() int { return 42 }\n",
		"proving-ground/conformance/adapters/x.go": "//go:build conformance\n\npackage x\n",
	} {
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const file = "tools/cache/x_test.go"
	const src = `package cache

import "testing"

func TestA(t *testing.T) { _ = Answer() }

func TestB(t *testing.T) {
	t.Run("right", func(t *testing.T) {
		if Answer() != 42 {
			t.Fatal("wrong")
		}
	})
	t.Run("wrong", func(t *testing.T) {
		if Answer() != 43 {
			t.Fatal("wrong")
		}
	})
}

func TestC(t *testing.T) { Missing() }
`
	ex, err := readExclusions(writeExclusions(t, "file "+file+"\nexclude TestC\nbecause it does not build.\n"+
		"subtest TestB right\nsubtest TestB wrong\nbecause they are cases.\n"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parseFile(fset, file, []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	b := &built{stage: stage{dir: "01-x", pkg: "x", adapter: "x.go", tests: []string{file}}, files: []*cgFile{f},
		prepared: &prepared{tests: map[string][]string{file: {"TestA", "TestB", "TestC"}}}}
	tmp := t.TempDir()
	modfile := filepath.Join(tmp, "go.mod")
	if err := os.WriteFile(modfile, []byte("module informer-from-scratch\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "off")
	for _, c := range []struct {
		run  string
		want []string
	}{
		{"", []string{"TestB/right passes", "TestB/wrong fails", "TestC does not build"}},
		{"TestB", []string{"TestB/right passes", "TestB/wrong fails"}},
		{"TestB/right", []string{"TestB/right passes"}},
		{"TestC", []string{"TestC does not build"}},
		{"TestA", nil},
	} {
		st := &stageTry{root: root, tmp: tmp, modfile: modfile, fset: fset, pkgNames: map[string]string{"testing": "testing"},
			ex: ex, o: options{run: c.run, excludedTimeout: time.Minute}}
		ts, err := st.tryStage(context.Background(), b)
		if err != nil {
			t.Errorf("-excluded -run %q: %v", c.run, err)
			continue
		}
		var got []string
		for _, x := range ts {
			name := x.x.test
			if x.x.subtest != "" {
				name += "/" + x.x.subtest
			}
			got = append(got, name+" "+x.result)
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("-excluded -run %q tried (-want +got):\n%s", c.run, diff)
		}
	}
}

func TestPanicLineSaysWhy(t *testing.T) {
	out := "=== RUN   TestX\npanic: conformance: no AsyncTracker [recovered]\n\tpanic: again\n\ngoroutine 7 [running]:\n"
	if got, want := panicLine(out), ", panic: conformance: no AsyncTracker [recovered]"; got != want {
		t.Errorf("panicLine = %q, want %q", got, want)
	}
	if got := panicLine("--- FAIL: TestX (0.00s)\n"); got != "" {
		t.Errorf("panicLine of a failure without a panic = %q, want nothing", got)
	}
}
