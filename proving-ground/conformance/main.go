// Command conformance runs client-go's own unit tests against our stages.
//
// For each stage in stages.go it reads client-go's test files for that layer
// from the module cache (the client-go version go.mod requires), and makes
// them tests of our package instead of client-go's. Exactly this is done to
// each file (prune.go), and nothing else:
//
//   - the package clause names our package (package cache → package
//     deltafifo; an external test package, package workqueue_test, becomes
//     ours_test and imports our package where it imported client-go's);
//   - the tests exclusions.txt names are removed, and so is every top-level
//     declaration that no remaining test, TestMain or init reaches: a helper
//     only an excluded test used, a method of a type no remaining test
//     names, a var _ check of something removed, an import left unused.
//     Removal overwrites the declaration with blanks, so every remaining line
//     keeps its client-go line number;
//   - a file listed as support (its helpers serve another file's tests) has
//     all its own tests removed the same way; a support file that is not a
//     test file is a fixture client-go ships beside its code (the plain
//     FIFO, FakeCustomStore), compiled in with the tests;
//   - where a stage's entry in stages.go asks, and only there: a helper the
//     adapter declares instead is removed (replaces: client-go's reads
//     internals that are another package's here), and a call to a function
//     ours declares with another signature calls the adapter's wrapper
//     (renames: client-go's takes a logger, ours does not); a type the
//     tests fill in fields of that ours lacks names the adapter's type
//     (types: ListWatch's deprecated ListFunc and WatchFunc); an
//     expression that reaches another package's internals, where it is a
//     whole side of an assignment statement and nowhere else, is the
//     adapter's (sides: informer.processor.clock = clock); an external
//     test package's import of another client-go package whose names the
//     adapter declares points at our package too (imports: client-go's
//     dynamic informer tests take their handlers from tools/cache); and a
//     file whose tests are split between two stages runs in each only the
//     tests that stage names (only). The report names all six, stage by
//     stage, and every line types and sides rewrote.
//
// Excluded cases of a test that runs (exclusions.txt's subtest lines) are
// skipped with one go test -skip expression; the tests are not edited.
//
// Beside the files goes this repository's adapter for the stage
// (adapters/*.go): aliases of client-go's names to ours, thin wrappers,
// accessors for the few internals the tests read. Each adapter carries the
// build tag conformance, so no ordinary go build, go vet or go test compiles
// it (on its own it names things that only exist beside client-go's tests);
// the runner hands it to the compiler with the tag line blanked. A stage may
// also name internals files (stages.go): adapters that go into a lower
// stage's package as ordinary files, for a test that reads the internals of
// a type client-go keeps in the test's package and we keep in that stage.
//
// Nothing is written into the repository. The files live in a temporary
// directory and reach the compiler through go test -overlay, which places
// them in the stage's directory and hides our own _test.go files there; a
// temporary copy of go.mod (-modfile) adds the test-only modules client-go's
// tests import (testify), at the versions client-go's go.mod requires.
// Then one go test -race -json runs every stage, and the command prints
// one row per client-go file: tests run, passed, failed and excluded, and
// the names and output of the failures. It exits 1 if a test failed, a
// package did not build or failed outside its tests (client-go's TestMain
// runs goleak), an exclusion names a test or case the file does not have or
// gives a reason that cites a file or a chapter's section that is not there
// (exclusions.go, checkReasons), or a client-go test file is neither run by
// a stage nor excluded whole. A reason that waits for a stage ("not built
// yet") whose directory now exists, or for a stage's adapter ("adapter is not
// written yet") that stages.go now names, is printed as "Stale?".
//
// With -excluded it then tries every excluded test and case of the built
// stages, each on its own (tryexcluded.go), and reports which of them pass
// against our code today: an exclusion whose reason has stopped being true
// shows up there, and the command exits 1.
//
// Usage: go run ./proving-ground/conformance [-v] [-run regexp] [-stage dir] [-bench] [-keep] [-timeout d] [-excluded [-excluded-timeout d]]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The name the adapter gets in our package's directory: a test file of the
// stage's package. An internals file (a file of another package) is named
// after itself (internalsName), so that two stages can each add one to the
// same package.
const adapterName = "conformance_adapter_test.go"

func internalsName(adapter string) string {
	return "conformance_internals_" + adapter
}

func main() {
	os.Exit(run())
}

type options struct {
	run, stage      string
	verbose         bool
	keep            bool
	bench           bool
	timeout         time.Duration
	excluded        bool
	excludedTimeout time.Duration
}

func run() int {
	var o options
	flag.StringVar(&o.run, "run", "", "run only the tests matching this regexp (as go test -run)")
	flag.StringVar(&o.stage, "stage", "", "run only the stages whose directory starts with this")
	flag.BoolVar(&o.verbose, "v", false, "print every test with its result, and the output of failures in full")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary directory with the rewritten files and print its path")
	flag.BoolVar(&o.bench, "bench", false, "also run every benchmark once (-benchtime=1x)")
	flag.DurationVar(&o.timeout, "timeout", 5*time.Minute, "go test -timeout")
	flag.BoolVar(&o.excluded, "excluded", false, "then try every excluded test and case on its own, and report which pass today (an exclusion that could go); exit 1 if one does")
	flag.DurationVar(&o.excludedTimeout, "excluded-timeout", time.Minute, "with -excluded, the time limit of each excluded test")
	flag.Parse()
	// Ctrl-C stops go test and still removes the temporary directory.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := conformance(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		return 1
	}
	return 0
}

// goTool runs the go command and returns its standard output.
func goTool(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command(goBinary(), args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}

func goBinary() string {
	if g := os.Getenv("GO"); g != "" {
		return g
	}
	return "go"
}

type module struct {
	Path, Version, Dir, GoMod string
}

// built is one stage whose directory exists, with its rewritten files.
type built struct {
	stage
	files    []*cgFile
	prepared *prepared
}

func conformance(ctx context.Context, o options, w io.Writer) error {
	gomod, err := goTool(".", "env", "GOMOD")
	if err != nil {
		return err
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	out, err := goTool(root, "mod", "download", "-json", "k8s.io/client-go")
	if err != nil {
		return err
	}
	var cg module
	if err := json.Unmarshal(out, &cg); err != nil {
		return err
	}
	ex, err := readExclusions(filepath.Join(root, "proving-ground/conformance/exclusions.txt"))
	if err != nil {
		return err
	}
	if err := checkCoverage(cg.Dir, ex); err != nil {
		return err
	}
	notices, err := checkReasons(root, ex)
	if err != nil {
		return err
	}

	tmp, err := os.MkdirTemp("", "conformance-")
	if err != nil {
		return err
	}
	if o.keep {
		fmt.Fprintln(w, "rewritten files in", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}

	fset := token.NewFileSet()
	var stagesBuilt []*built
	var pending []stage
	for _, s := range stages {
		if !strings.HasPrefix(s.dir, o.stage) {
			continue
		}
		// A stage runs once it is built and has an adapter; landing a
		// stage does not break this command before its adapter exists.
		if _, err := os.Stat(filepath.Join(root, s.dir)); err != nil || s.adapter == "" {
			pending = append(pending, s)
			continue
		}
		b := &built{stage: s}
		for _, rel := range s.tests {
			f, err := readClientGoFile(fset, cg.Dir, rel, true)
			if err != nil {
				return err
			}
			b.files = append(b.files, f)
		}
		for _, rel := range s.support {
			f, err := readClientGoFile(fset, cg.Dir, rel, false)
			if err != nil {
				return err
			}
			b.files = append(b.files, f)
		}
		stagesBuilt = append(stagesBuilt, b)
	}
	if err := checkExclusions(fset, cg.Dir, ex); err != nil {
		return err
	}

	modfile, pkgNames, err := testModFile(root, tmp, cg, stagesBuilt)
	if err != nil {
		return err
	}

	overlay := map[string]string{}
	var pkgs []string
	for _, b := range stagesBuilt {
		runs := func(file, name string) bool { return b.runsHere(name) && b.excluded(ex, file, name) == nil }
		b.prepared, err = prepare(fset, b.files, b.target(), runs, pkgNames)
		if err != nil {
			return err
		}
		if err := b.checkOnly(); err != nil {
			return err
		}
		if err := b.writeOverlay(root, tmp, "", b.prepared, overlay); err != nil {
			return err
		}
		pkgs = append(pkgs, "./"+b.dir)
	}
	if len(pkgs) == 0 {
		return fmt.Errorf("no stage matches %q", o.stage)
	}
	overlayFile := filepath.Join(tmp, "overlay.json")
	data, err := json.Marshal(map[string]any{"Replace": overlay})
	if err != nil {
		return err
	}
	if err := os.WriteFile(overlayFile, data, 0o644); err != nil {
		return err
	}

	args := []string{"test", "-race", "-json", "-overlay", overlayFile, "-mod=mod", "-modfile", modfile,
		"-timeout", o.timeout.String()}
	if o.run != "" {
		args = append(args, "-run", o.run)
	}
	if skip := ex.skipPattern(); skip != "" {
		args = append(args, "-skip", skip)
	}
	if o.bench {
		args = append(args, "-bench", ".", "-benchtime", "1x")
		if o.run == "" {
			args = append(args, "-run", ".")
		}
	}
	args = append(args, pkgs...)
	fmt.Fprintf(w, "client-go %s: its tests against our stages (go test -race)\n", cg.Version)
	start := time.Now()
	cmd := exec.CommandContext(ctx, goBinary(), args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, _ := cmd.Output() // a failing test is an exit status too: the events say what happened
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted")
	}
	res, err := parseEvents(stdout)
	if err != nil {
		return fmt.Errorf("reading go test -json: %v\n%s", err, stderr.String())
	}
	failed := report(w, o, root, stagesBuilt, pending, ex, res, fset, cg.Dir)
	for _, n := range notices {
		fmt.Fprintln(w, "Stale? "+n)
	}
	fmt.Fprintf(w, "go test took %s.\n", time.Since(start).Round(100*time.Millisecond))
	if stderr.Len() > 0 && failed {
		fmt.Fprintf(w, "go test said:\n%s", stderr.String())
	}
	if failed {
		return fmt.Errorf("client-go's tests failed against our code (see above)")
	}
	if o.excluded {
		st := &stageTry{root: root, tmp: tmp, modfile: modfile, fset: fset, pkgNames: pkgNames, ex: ex, o: o}
		passing, err := st.tryExcluded(ctx, w, stagesBuilt)
		if err != nil {
			return err
		}
		if passing > 0 {
			return fmt.Errorf("%d excluded tests pass against our code (see above)", passing)
		}
	}
	return nil
}

func readClientGoFile(fset *token.FileSet, dir, rel string, tested bool) (*cgFile, error) {
	src, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		return nil, err
	}
	return parseFile(fset, rel, src, tested)
}

// writeOverlay writes the stage's files as p rewrote them, its adapter and
// its internals files into a directory of tmp named after the stage and
// suffix, and maps them into our packages' directories; our own test files in
// the stage's directory are hidden.
func (b *built) writeOverlay(root, tmp, suffix string, p *prepared, overlay map[string]string) error {
	dir := filepath.Join(root, b.dir)
	into := filepath.Join(tmp, strings.ReplaceAll(b.dir, "/", "_")+suffix)
	if err := os.MkdirAll(into, 0o755); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), "_test.go") {
			overlay[filepath.Join(dir, e.Name())] = "" // hidden: ours would clash with client-go's helpers
		}
	}
	for rel, src := range p.files {
		name := overlayName(rel)
		if err := os.WriteFile(filepath.Join(into, name), src, 0o644); err != nil {
			return err
		}
		overlay[filepath.Join(dir, name)] = filepath.Join(into, name)
	}
	place := func(adapter, pkgDir, name string) error {
		src, err := readAdapter(root, adapter)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(into, name), src, 0o644); err != nil {
			return err
		}
		overlay[filepath.Join(root, pkgDir, name)] = filepath.Join(into, name)
		return nil
	}
	if err := place(b.adapter, b.dir, adapterName); err != nil {
		return err
	}
	for _, pkgDir := range sortedKeys(b.internals) {
		if err := place(b.internals[pkgDir], pkgDir, internalsName(b.internals[pkgDir])); err != nil {
			return err
		}
	}
	return nil
}

// checkOnly makes sure every test the stage's only names is a test of its
// files: a name that is not would run nothing and say nothing.
func (b *built) checkOnly() error {
	for _, t := range b.only {
		found := false
		for _, file := range b.tests {
			found = found || slices.Contains(b.prepared.tests[file], t)
		}
		if !found {
			return fmt.Errorf("stages.go: %s runs only %s, which none of %s declares", b.dir, t, strings.Join(b.tests, ", "))
		}
	}
	return nil
}

// overlayName is the name a client-go file gets in our package's directory:
// clientgo_fifo_test.go for its fifo_test.go. A file that is not a test file
// (a fixture such as fifo.go, read as support) is a test file here too, and
// is marked src so that it cannot take the name of its tests' file.
func overlayName(rel string) string {
	base := filepath.Base(rel)
	if name, ok := strings.CutSuffix(base, "_test.go"); ok {
		return "clientgo_" + name + "_test.go"
	}
	return "clientgo_src_" + strings.TrimSuffix(base, ".go") + "_test.go"
}

// readAdapter reads a file of proving-ground/conformance/adapters. The build tag
// keeps ordinary builds away from it; in the overlay it is part of a stage's
// package, so the tag goes (the line stays, blank, so line numbers hold).
func readAdapter(root, name string) ([]byte, error) {
	src, err := os.ReadFile(filepath.Join(root, "proving-ground/conformance/adapters", name))
	if err != nil {
		return nil, err
	}
	return bytes.Replace(src, []byte("//go:build conformance"), bytes.Repeat([]byte(" "), len("//go:build conformance")), 1), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// checkCoverage makes sure every client-go test file in clientGoTestDirs is
// accounted for: run by a stage (built or not), or excluded as a whole.
func checkCoverage(cgDir string, ex *exclusions) error {
	inStage := map[string]bool{}
	for _, s := range stages {
		for _, t := range s.tests {
			inStage[t] = true
		}
	}
	var missing []string
	for _, d := range clientGoTestDirs {
		names, err := testFilesIn(cgDir, d)
		if err != nil {
			return err
		}
		for _, n := range names {
			rel, err := filepath.Rel(cgDir, n)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if !declaresTests(n) {
				continue // a helper file (TestMain, init, shared helpers): a stage's support
			}
			if inStage[rel] && ex.wholeFile(rel) != nil {
				return fmt.Errorf("%s is both a stage's test file and excluded as a whole", rel)
			}
			if !inStage[rel] && ex.wholeFile(rel) == nil {
				missing = append(missing, rel)
			}
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("client-go test files neither in a stage (stages.go) nor excluded as a whole (exclusions.txt):\n  %s", strings.Join(missing, "\n  "))
	}
	return nil
}

// testFilesIn lists the _test.go files of client-go's directory d, and of
// every directory under it when d ends in /...
func testFilesIn(cgDir, d string) ([]string, error) {
	tree, ok := strings.CutSuffix(d, "/...")
	if !ok {
		return filepath.Glob(filepath.Join(cgDir, d, "*_test.go"))
	}
	var names []string
	err := filepath.WalkDir(filepath.Join(cgDir, tree), func(path string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() && strings.HasSuffix(path, "_test.go") {
			names = append(names, path)
		}
		return err
	})
	return names, err
}

// declaresTests reports whether the Go file at path declares a test,
// benchmark, example or fuzz target.
func declaresTests(path string) bool {
	f, err := readClientGoFile(token.NewFileSet(), filepath.Dir(path), filepath.Base(path), true)
	if err != nil {
		return true // let the reader of the file report it
	}
	for _, u := range units(f, func(string) bool { return true }) {
		if u.recv == "" && len(u.names) == 1 && testKind(u.names[0]) != "" {
			return true
		}
	}
	return false
}

// checkExclusions makes sure every excluded test exists: a stale line would
// otherwise hide nothing and mislead its reader.
func checkExclusions(fset *token.FileSet, cgDir string, ex *exclusions) error {
	var bad []string
	files := map[string]bool{}
	for file := range ex.byFile {
		files[file] = true
	}
	for file := range ex.subtests {
		files[file] = true
	}
	for file := range files {
		tests := ex.byFile[file]
		f, err := readClientGoFile(fset, cgDir, file, true)
		if err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", file, err))
			continue
		}
		declared := map[string]*unit{}
		for _, u := range units(f, func(string) bool { return true }) {
			if u.recv == "" && len(u.names) == 1 && testKind(u.names[0]) != "" {
				declared[u.names[0]] = u
			}
		}
		for t, x := range tests {
			if t != "*" && declared[t] == nil {
				bad = append(bad, fmt.Sprintf("exclusions.txt:%d: %s has no test %s", x.line, file, t))
			}
		}
		for t, xs := range ex.subtests[file] {
			for _, x := range xs {
				if u := declared[t]; u == nil || !hasString(u.node, x.subtest) {
					bad = append(bad, fmt.Sprintf("exclusions.txt:%d: %s has no test %s with a case named %q", x.line, file, t, x.subtest))
				}
			}
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		return fmt.Errorf("stale exclusions:\n  %s", strings.Join(bad, "\n  "))
	}
	return nil
}

// hasString reports whether n holds the string literal s: a case name, as
// written in the test's table or t.Run call.
func hasString(n ast.Node, s string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if v, err := strconv.Unquote(lit.Value); err == nil && v == s {
				found = true
			}
		}
		return !found
	})
	return found
}

// testModFile writes a go.mod for the test run: ours, plus the modules
// client-go's tests import that ours does not require (testify), at the
// versions client-go's own go.mod asks for. It returns its path and the
// package name of every import of the copied files.
func testModFile(root, tmp string, cg module, bs []*built) (string, map[string]string, error) {
	imports := map[string]bool{}
	for _, b := range bs {
		for _, f := range b.files {
			for _, imp := range f.ast.Imports {
				imports[strings.Trim(imp.Path.Value, "\"")] = true
			}
		}
	}
	type gomod struct {
		Require []struct{ Path, Version string }
	}
	read := func(path string) (gomod, error) {
		var m gomod
		out, err := goTool(root, "mod", "edit", "-json", path)
		if err == nil {
			err = json.Unmarshal(out, &m)
		}
		return m, err
	}
	ours, err := read(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", nil, err
	}
	theirs, err := read(cg.GoMod)
	if err != nil {
		return "", nil, err
	}
	have := map[string]bool{"k8s.io/client-go": true}
	for _, r := range ours.Require {
		have[r.Path] = true
	}
	var get []string
	for _, r := range theirs.Require {
		if have[r.Path] {
			continue
		}
		for imp := range imports {
			if imp == r.Path || strings.HasPrefix(imp, r.Path+"/") {
				get = append(get, r.Path+"@"+r.Version)
				break
			}
		}
	}
	modfile := filepath.Join(tmp, "go.mod")
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			return "", nil, err
		}
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return "", nil, err
		}
	}
	if len(get) > 0 {
		sort.Strings(get)
		if _, err := goTool(root, append([]string{"get", "-modfile", modfile}, get...)...); err != nil {
			return "", nil, err
		}
	}
	var paths []string
	for imp := range imports {
		paths = append(paths, imp)
	}
	sort.Strings(paths)
	out, err := goTool(root, append([]string{"list", "-mod=mod", "-modfile", modfile, "-e", "-f", "{{.ImportPath}} {{.Name}}"}, paths...)...)
	if err != nil {
		return "", nil, err
	}
	names := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, name, ok := strings.Cut(line, " "); ok && name != "" {
			names[path] = name
		}
	}
	return modfile, names, nil
}
