package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A client-go test file in miniature: one test that runs, one excluded, and
// helpers of each.
const sample = `package cache

import (
	"fmt"
	"strings"
)

// helperA is used by the test that runs.
func helperA() string { return strings.ToUpper("a") }

func TestRuns(t *testing.T) { _ = helperA(); _ = shared }

var shared = 1

// helperB is used only by the excluded test.
func helperB() string { return fmt.Sprint(onlyB{}) }

type onlyB struct{}

func (onlyB) String() string { return "b" }

var _ fmt.Stringer = onlyB{}

func TestExcluded(t *testing.T) { _ = helperB(); _ = shared }

func (f *DeltaFIFO) list() []interface{} { return nil }

func TestUsesOurType(t *testing.T) { var f *DeltaFIFO; _ = f.list() }
`

func prepareSample(t *testing.T, src string, excluded ...string) (*prepared, string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parseFile(fset, "tools/cache/sample_test.go", []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	runs := func(_, name string) bool {
		for _, x := range excluded {
			if x == name {
				return false
			}
		}
		return true
	}
	names := map[string]string{"fmt": "fmt", "strings": "strings", "testing": "testing"}
	p, err := prepare(fset, []*cgFile{f}, target{pkg: "deltafifo", importPath: "informer-from-scratch/03-deltafifo"}, runs, names)
	if err != nil {
		t.Fatal(err)
	}
	return p, string(p.files["tools/cache/sample_test.go"])
}

func TestPrepareRemovesExcludedTestsAndWhatOnlyTheyReach(t *testing.T) {
	p, out := prepareSample(t, sample, "TestExcluded")
	for _, gone := range []string{"TestExcluded", "helperB", "onlyB", `"fmt"`, "var _ fmt.Stringer"} {
		if strings.Contains(out, gone) {
			t.Errorf("%s is still in the rewritten file:\n%s", gone, out)
		}
	}
	for _, kept := range []string{"package deltafifo", "TestRuns", "helperA", "var shared", `"strings"`,
		"func (f *DeltaFIFO) list()", "TestUsesOurType"} {
		if !strings.Contains(out, kept) {
			t.Errorf("%s is missing from the rewritten file:\n%s", kept, out)
		}
	}
	want := []string{"helperB", "onlyB", "onlyB.String", "_", "TestExcluded"} // in file order
	if diff := cmp.Diff(want, p.dropped["tools/cache/sample_test.go"]); diff != "" {
		t.Errorf("dropped (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"TestExcluded", "TestRuns", "TestUsesOurType"}, p.tests["tools/cache/sample_test.go"]); diff != "" {
		t.Errorf("tests (-want +got):\n%s", diff)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "", out, 0); err != nil {
		t.Errorf("the rewritten file does not parse: %v\n%s", err, out)
	}
}

// Every line that stays keeps its number, so a failure's file:line is
// client-go's; removed lines become blank.
func TestPrepareKeepsLineNumbers(t *testing.T) {
	_, out := prepareSample(t, sample, "TestExcluded")
	in, got := strings.Split(sample, "\n"), strings.Split(out, "\n")
	if len(in) != len(got) {
		t.Fatalf("%d lines in, %d out", len(in), len(got))
	}
	for i := range in {
		switch {
		case i == 0:
			if got[i] != "package deltafifo" {
				t.Errorf("line 1 = %q", got[i])
			}
		case strings.TrimSpace(got[i]) != "" && got[i] != in[i]:
			t.Errorf("line %d changed: %q → %q", i+1, in[i], got[i])
		}
	}
}

func TestPrepareKeepsEverythingWhenNothingIsExcluded(t *testing.T) {
	p, out := prepareSample(t, sample)
	if len(p.dropped["tools/cache/sample_test.go"]) != 0 {
		t.Errorf("dropped %v", p.dropped["tools/cache/sample_test.go"])
	}
	if want := strings.Replace(sample, "package cache", "package deltafifo", 1); out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// An external test package (package workqueue_test) is renamed after ours
// and imports our package where it imported client-go's, under the name it
// used.
func TestPrepareExternalTestPackage(t *testing.T) {
	src := "package workqueue_test\n\nimport (\n\t\"testing\"\n\n\t\"k8s.io/client-go/util/workqueue\"\n)\n\nfunc TestQueue(t *testing.T) { workqueue.New() }\n"
	fset := token.NewFileSet()
	f, err := parseFile(fset, "util/workqueue/queue_test.go", []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{"testing": "testing", "k8s.io/client-go/util/workqueue": "workqueue"}
	p, err := prepare(fset, []*cgFile{f}, target{pkg: "workqueue", importPath: "informer-from-scratch/08-workqueue-controller/workqueue"},
		func(string, string) bool { return true }, names)
	if err != nil {
		t.Fatal(err)
	}
	want := "package workqueue_test\n\nimport (\n\t\"testing\"\n\n\tworkqueue \"informer-from-scratch/08-workqueue-controller/workqueue\"\n)\n\nfunc TestQueue(t *testing.T) { workqueue.New() }\n"
	if diff := cmp.Diff(want, string(p.files["util/workqueue/queue_test.go"])); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A package the adapter declares names of (stage.imports) is pointed at ours
// too, under the name the file gave it; an import not listed stays
// client-go's.
func TestPreparePointsListedImportsAtOurPackage(t *testing.T) {
	src := "package dynamiclister_test\n\nimport (\n\t\"testing\"\n\n\t\"k8s.io/client-go/dynamic/dynamiclister\"\n\t\"k8s.io/client-go/tools/cache\"\n\t\"k8s.io/client-go/tools/pager\"\n)\n\nfunc TestGet(t *testing.T) { dynamiclister.New(cache.NewIndexer(), pager.New) }\n"
	fset := token.NewFileSet()
	f, err := parseFile(fset, "dynamic/dynamiclister/lister_test.go", []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{"testing": "testing", "k8s.io/client-go/dynamic/dynamiclister": "dynamiclister",
		"k8s.io/client-go/tools/cache": "cache", "k8s.io/client-go/tools/pager": "pager"}
	to := target{pkg: "dynamiclister", importPath: "informer-from-scratch/07-factory/dynamiclister", imports: []string{"k8s.io/client-go/tools/cache"}}
	p, err := prepare(fset, []*cgFile{f}, to, func(string, string) bool { return true }, names)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		`"k8s.io/client-go/dynamic/dynamiclister"`, `dynamiclister "informer-from-scratch/07-factory/dynamiclister"`,
		`"k8s.io/client-go/tools/cache"`, `cache "informer-from-scratch/07-factory/dynamiclister"`,
	).Replace(src)
	if diff := cmp.Diff(want, string(p.files["dynamic/dynamiclister/lister_test.go"])); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// Pointing an import no file has, or one a file of the package itself
	// has (it cannot import its own package), is refused.
	for name, c := range map[string]struct{ src, imp string }{
		"not imported":     {src, "k8s.io/client-go/rest"},
		"an internal file": {strings.Replace(src, "package dynamiclister_test", "package dynamiclister", 1), "k8s.io/client-go/tools/cache"},
	} {
		fset := token.NewFileSet()
		f, err := parseFile(fset, "dynamic/dynamiclister/lister_test.go", []byte(c.src), true)
		if err != nil {
			t.Fatal(err)
		}
		to.imports = []string{c.imp}
		if _, err := prepare(fset, []*cgFile{f}, to, func(string, string) bool { return true }, names); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestTestKind(t *testing.T) {
	for name, want := range map[string]string{
		"TestFoo": "Test", "Test_foo": "Test", "Test": "Test", "Testify": "", "TestMain": "",
		"BenchmarkX": "Benchmark", "Benchmarks": "", "ExampleQueue": "Example", "FuzzX": "Fuzz", "helper": "",
	} {
		if got := testKind(name); got != want {
			t.Errorf("testKind(%q) = %q, want %q", name, got, want)
		}
	}
}

func writeExclusions(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "exclusions.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadExclusions(t *testing.T) {
	ex, err := readExclusions(writeExclusions(t, `# a comment
file tools/cache/a_test.go
exclude TestA TestB
because one reason,
    continued
subtest TestC the case name
because another
file tools/cache/b_test.go
exclude *
because not ported
`))
	if err != nil {
		t.Fatal(err)
	}
	if x := ex.excluded("tools/cache/a_test.go", "TestB"); x == nil || x.reason != "one reason, continued" {
		t.Errorf("TestB: %+v", x)
	}
	if x := ex.excluded("tools/cache/a_test.go", "TestC"); x != nil {
		t.Errorf("TestC is only excluded in part, got %+v", x)
	}
	if xs := ex.subtests["tools/cache/a_test.go"]["TestC"]; len(xs) != 1 || xs[0].subtest != "the case name" || xs[0].reason != "another" {
		t.Errorf("TestC's case: %+v", xs)
	}
	if ex.excluded("tools/cache/b_test.go", "TestAnything") == nil || ex.wholeFile("tools/cache/b_test.go") == nil {
		t.Error("b_test.go is excluded as a whole")
	}
}

func TestReadExclusionsRefusesWhatItCannotMean(t *testing.T) {
	for name, text := range map[string]string{
		"no reason":          "file f\nexclude TestA\n",
		"no reason before":   "file f\nexclude TestA\nfile g\n",
		"reason alone":       "file f\nbecause why\n",
		"empty reason":       "file f\nexclude TestA\nbecause\n",
		"no file":            "exclude TestA\nbecause why\n",
		"unknown directive":  "file f\nskip TestA\nbecause why\n",
		"twice":              "file f\nexclude TestA TestA\nbecause why\n",
		"whole and one":      "file f\nexclude * TestA\nbecause why\n",
		"test and its case":  "file f\nexclude TestA\nsubtest TestA x\nbecause why\n",
		"stray continuation": "file f\n    more\n",
	} {
		if _, err := readExclusions(writeExclusions(t, text)); err == nil {
			t.Errorf("%s: accepted %q", name, text)
		}
	}
}

// ranUnder runs go test -skip pattern on a throwaway package whose tests
// have exactly the given full names (TestX/case/sub), and returns the names
// that ran: the testing package's own matching, not a model of it.
func ranUnder(t *testing.T, pattern string, names []string) map[string]bool {
	t.Helper()
	dir := t.TempDir()
	cases := map[string][]string{} // top-level test → the case names under it
	for _, n := range names {
		top, rest, _ := strings.Cut(n, "/")
		cases[top] = append(cases[top], strings.ReplaceAll(rest, "_", " "))
	}
	var src strings.Builder
	src.WriteString("package p\n\nimport \"testing\"\n\n")
	for top, subs := range cases {
		fmt.Fprintf(&src, "func %s(t *testing.T) {\n", top)
		for _, sub := range subs {
			if sub != "" {
				fmt.Fprintf(&src, "\tt.Run(%q, func(*testing.T) {})\n", sub)
			}
		}
		src.WriteString("}\n")
	}
	for name, text := range map[string]string{"go.mod": "module p\n\ngo 1.22\n", "p_test.go": src.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goBinary(), "test", "-count=1", "-v", "-skip", pattern, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	ran := map[string]bool{}
	for _, l := range strings.Split(string(out), "\n") {
		if n, ok := strings.CutPrefix(strings.TrimSpace(l), "--- PASS: "); ok {
			n, _, _ = strings.Cut(n, " (")
			ran[n] = true
		}
	}
	return ran
}

func TestSkipPatternSkipsExactlyTheExcludedCases(t *testing.T) {
	ex := &exclusions{subtests: map[string]map[string][]*exclusion{
		"f": {"TestW": {
			{test: "TestW", subtest: "uses LIST/WATCH (old)"},
			{test: "TestW", subtest: "uses LIST/WATCH [new]"},
		}},
		// Cases of other tests, at another depth, with the characters a
		// regexp or -skip's splitting would read.
		"g": {
			"TestA": {{test: "TestA", subtest: "x"}},
			"TestB": {{test: "TestB", subtest: "gate off, a|b"}},
		},
	}}
	want := map[string]bool{ // name → skipped
		"TestW/uses_LIST/WATCH_(old)":     true,
		"TestW/uses_LIST/WATCH_[new]":     true,
		"TestW/uses_LIST/WATCH_(new)":     false,
		"TestW/uses_LIST":                 false,
		"TestW":                           false,
		"TestWatch/uses_LIST/WATCH_(old)": false,
		"TestA/x":                         true,
		"TestA/y":                         false,
		"TestA":                           false,
		"TestB/gate_off,_a|b":             true,
		"TestB/a":                         false,
		"TestB":                           false,
	}
	var names []string
	for n := range want {
		names = append(names, n)
	}
	pattern := ex.skipPattern()
	ran := ranUnder(t, pattern, names)
	for name, skipped := range want {
		if ran[name] == skipped {
			t.Errorf("go test -skip %q: %s ran: %v, want %v", pattern, name, ran[name], !skipped)
		}
	}
}

// A helper the adapter declares instead (replaces) goes, its uses stay; a
// call to a function ours declares with another signature (renames) calls
// the adapter's wrapper. A method of that name, or a mention that is not a
// call, is left alone, and so is every line's number.
func TestPrepareReplacesHelpersAndRenamesCalls(t *testing.T) {
	const src = `package cache

import "strings"

// count reads an internal field.
func count(i *informer) int { return len(i.processor.listeners) }

func TestCounts(t *testing.T) {
	_ = count(nil)
	_ = processDeltas(logger, strings.ToUpper("x"))
	_ = fifo.processDeltas(logger)
	f := processDeltas
	_ = f
}
`
	to := target{pkg: "informer", importPath: "informer-from-scratch/06-sharedinformer",
		replaces: []string{"count"}, renames: map[string]string{"processDeltas": "processDeltasWithLogger"}}
	fset := token.NewFileSet()
	f, err := parseFile(fset, "tools/cache/x_test.go", []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{"strings": "strings"}
	p, err := prepare(fset, []*cgFile{f}, to, func(string, string) bool { return true }, names)
	if err != nil {
		t.Fatal(err)
	}
	out := string(p.files["tools/cache/x_test.go"])
	want := strings.NewReplacer(
		"package cache", "package informer",
		"// count reads an internal field.", strings.Repeat(" ", len("// count reads an internal field.")),
		"func count(i *informer) int { return len(i.processor.listeners) }", strings.Repeat(" ", len("func count(i *informer) int { return len(i.processor.listeners) }")),
		"_ = processDeltas(logger,", "_ = processDeltasWithLogger(logger,",
	).Replace(src)
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"count"}, p.dropped["tools/cache/x_test.go"]); diff != "" {
		t.Errorf("dropped (-want +got):\n%s", diff)
	}
}

// A replace or a rename that means nothing is refused: it would hide a
// change in client-go's files, or replace a test.
func TestPrepareRefusesStaleReplacesAndRenames(t *testing.T) {
	const src = "package cache\n\nfunc helper() {}\n\nfunc TestX(t *testing.T) { helper(); called() }\n"
	for name, to := range map[string]target{
		"replaces a test":           {replaces: []string{"TestX"}},
		"replaces what is not":      {replaces: []string{"gone"}},
		"renames a declaration":     {renames: map[string]string{"helper": "other"}},
		"renames what no one calls": {renames: map[string]string{"gone": "other"}},
	} {
		fset := token.NewFileSet()
		f, err := parseFile(fset, "tools/cache/x_test.go", []byte(src), true)
		if err != nil {
			t.Fatal(err)
		}
		to.pkg = "informer"
		if _, err := prepare(fset, []*cgFile{f}, to, func(string, string) bool { return true }, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// The same, meant: accepted.
	fset := token.NewFileSet()
	f, _ := parseFile(fset, "tools/cache/x_test.go", []byte(src), true)
	if _, err := prepare(fset, []*cgFile{f}, target{pkg: "informer", replaces: []string{"helper"}, renames: map[string]string{"called": "c"}},
		func(string, string) bool { return true }, nil); err != nil {
		t.Errorf("a meaningful replace and rename: %v", err)
	}
}

func TestSelectedBy(t *testing.T) {
	for _, c := range []struct {
		run, name string
		want      bool
	}{
		{"", "TestA", true},
		{"TestA", "TestAB", true},
		{"TestA$", "TestAB", false},
		{"TestReplaceEvents|TestResetWatch", "TestResetWatch", true},
		{"TestWatchList/the_old_way", "TestWatchList", true},
		{"TestWatch/x", "TestWatchList", true}, // go test runs TestWatchList too, and finds no case x
		{"TestW[/]x", "TestW/x", true},
		{"TestX/sub", "TestY", false},
	} {
		if got := selectedBy(c.run, c.name); got != c.want {
			t.Errorf("selectedBy(%q, %q) = %v, want %v", c.run, c.name, got, c.want)
		}
	}
}

func TestSelectedCase(t *testing.T) {
	for _, c := range []struct {
		run, test, sub string
		want           bool
	}{
		{"", "TestA", "a case", true},
		{"TestA", "TestA", "a case", true},
		{"TestA/a_case", "TestA", "a case", true},
		{"TestA/other", "TestA", "a case", false},
		{"TestA/other", "TestA", "", true}, // go test runs TestA to look for the case
		{"TestB/a_case", "TestA", "a case", false},
		{"TestW/the_old_LIST/WATCH", "TestW", "the old LIST/WATCH way", true},
		{"TestW/the_old_LIST/STREAM", "TestW", "the old LIST/WATCH way", false},
		{"TestW/x/y/z", "TestW", "x", true},
	} {
		if got := selectedCase(c.run, c.test, c.sub); got != c.want {
			t.Errorf("selectedCase(%q, %q, %q) = %v, want %v", c.run, c.test, c.sub, got, c.want)
		}
	}
}

// A type rename (types) renames every identifier naming the type and
// nothing else: not a field of that name, not a name after a dot. A side
// rewrite (sides) rewrites the expression where it is a whole side of an
// assignment statement, and leaves the same text alone in a condition, a
// call's argument or a larger expression: a test's checks are never
// rewritten. Every change is listed, and every line keeps its number.
func TestPrepareRenamesTypesAndRewritesSides(t *testing.T) {
	const src = `package cache

type wrapper struct {
	*ListWatch
}

func wrap(lw *ListWatch) wrapper { return wrapper{lw} }

func TestUpdate(t *testing.T) {
	_ = wrap(&ListWatch{WatchFunc: nil})
	_ = x.ListWatch
	_ = keyed{ListWatch: nil}
	i.processor.clock = clock
	gl := i.processor.getListener
	if i.processor.clock != clock {
		t.Errorf("clock %v", i.processor.clock)
	}
	f(i.processor.clock)
	switch {
	case true:
		i.processor.clock = nil
	}
	_ = gl
}
`
	to := target{pkg: "informer", importPath: "informer-from-scratch/06-sharedinformer",
		types: map[string]string{"ListWatch": "lwDeprecated"},
		sides: map[string]string{"i.processor.clock": "*clockOf(i)", "i.processor.getListener": "getListenerOf(i)"}}
	fset := token.NewFileSet()
	f, err := parseFile(fset, "tools/cache/x_test.go", []byte(src), true)
	if err != nil {
		t.Fatal(err)
	}
	p, err := prepare(fset, []*cgFile{f}, to, func(string, string) bool { return true }, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		"package cache", "package informer",
		"*ListWatch\n", "*lwDeprecated\n",
		"lw *ListWatch)", "lw *lwDeprecated)",
		"&ListWatch{", "&lwDeprecated{",
		"\ti.processor.clock = clock", "\t*clockOf(i) = clock",
		"gl := i.processor.getListener", "gl := getListenerOf(i)",
		"\t\ti.processor.clock = nil", "\t\t*clockOf(i) = nil",
	).Replace(src)
	if diff := cmp.Diff(want, string(p.files["tools/cache/x_test.go"])); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	wantChanged := []string{
		"tools/cache/x_test.go:4: ListWatch → lwDeprecated",
		"tools/cache/x_test.go:7: ListWatch → lwDeprecated",
		"tools/cache/x_test.go:10: ListWatch → lwDeprecated",
		"tools/cache/x_test.go:13: i.processor.clock → *clockOf(i)",
		"tools/cache/x_test.go:14: i.processor.getListener → getListenerOf(i)",
		"tools/cache/x_test.go:21: i.processor.clock → *clockOf(i)",
	}
	if diff := cmp.Diff(wantChanged, p.changed); diff != "" {
		t.Errorf("changes listed (-want +got):\n%s", diff)
	}

	// A rename or rewrite that means nothing is refused: it would hide a
	// change in client-go's files.
	for name, bad := range map[string]target{
		"renames a type the files declare": {types: map[string]string{"wrapper": "w"}},
		"renames a type nobody names":      {types: map[string]string{"Gone": "g"}},
		"rewrites what the files lack":     {sides: map[string]string{"i.processor.gone": "y"}},
		"rewrites what is only checked":    {sides: map[string]string{"f(i.processor.clock)": "y"}},
	} {
		bad.pkg = "informer"
		f, _ := parseFile(fset, "tools/cache/x_test.go", []byte(src), true)
		if _, err := prepare(fset, []*cgFile{f}, bad, func(string, string) bool { return true }, nil); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
