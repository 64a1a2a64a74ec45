package treecheck

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The repository stands in three bands, each with a README:
//
//	proving-ground/   over the stages: conformance, chaos, replay, bench-scale,
//	                  the client-go stack; it uses the stages to prove them
//	                  (and versions proves the docs' version timeline)
//	01- … 08-         the stages, each built from the ones before it
//	internal/         under the stages: the workbench they use (playground,
//	                  demo harness, timeline, request log, live view, …)
//
// and tools beside them (cmd/, examples/). An import may only run down: a
// band imports its own and the bands under it, a stage imports only stages
// before it. The one exception is in tests: a stage's tests may import the
// client-go stack, the oracle of their differential runs, as they import
// client-go itself.

const module = "informer-from-scratch"

var stageDir = regexp.MustCompile(`^0([1-8])-[a-z-]+(/|$)`)

// band ranks a package of the module: 0 workbench, 1 stages, 2 the proving
// ground and the tools. stage is the stage's number, 0 outside the stages.
func band(pkg string) (band, stage int) {
	rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
	switch {
	case strings.HasPrefix(rel, "internal/"):
		return 0, 0
	case stageDir.MatchString(rel):
		return 1, int(stageDir.FindStringSubmatch(rel)[1][0] - '0')
	}
	return 2, 0
}

// oracleForStageTests is what a stage's tests may import from above.
const oracleForStageTests = module + "/proving-ground/clientgostack"

// clientGoLayers are the client-go packages a stage rebuilds: its non-test
// code must never import them (tests do: they are the oracle).
var clientGoLayers = []string{
	"k8s.io/client-go/tools/cache",
	"k8s.io/client-go/tools/pager",
	"k8s.io/client-go/informers",
	"k8s.io/client-go/listers",
	"k8s.io/client-go/util/workqueue",
	"k8s.io/client-go/dynamic/dynamicinformer",
	"k8s.io/client-go/dynamic/dynamiclister",
}

type listedPackage struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
}

func listPackages(t *testing.T) []listedPackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,TestImports,XTestImports", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 50 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

// wrongImport says what is wrong with from importing to, or "".
func wrongImport(from, to string, test bool) string {
	if !strings.HasPrefix(to, module+"/") {
		_, stage := band(from)
		if stage == 0 || test {
			return ""
		}
		for _, layer := range clientGoLayers {
			if to == layer || strings.HasPrefix(to, layer+"/") {
				return fmt.Sprintf("a stage builds its layer itself: its non-test code may not import %s", to)
			}
		}
		return ""
	}
	fromBand, fromStage := band(from)
	toBand, toStage := band(to)
	switch {
	case test && fromBand == 1 && to == oracleForStageTests:
		return ""
	case toBand > fromBand:
		return fmt.Sprintf("an import up the bands (%s over %s)", bandName(toBand), bandName(fromBand))
	case fromBand == 1 && toBand == 1 && toStage > fromStage:
		return fmt.Sprintf("stage %02d imports a later stage, %02d", fromStage, toStage)
	}
	return ""
}

func bandName(b int) string {
	return []string{"the workbench (internal/)", "the stages", "the proving ground and tools"}[b]
}

// TestImportsRunDownTheBands checks every import of every package, tests
// included.
func TestImportsRunDownTheBands(t *testing.T) {
	for _, p := range listPackages(t) {
		for _, imp := range p.Imports {
			if why := wrongImport(p.ImportPath, imp, false); why != "" {
				t.Errorf("%s imports %s: %s", p.ImportPath, imp, why)
			}
		}
		for _, imp := range append(p.TestImports, p.XTestImports...) {
			if why := wrongImport(p.ImportPath, imp, true); why != "" {
				t.Errorf("%s's tests import %s: %s", p.ImportPath, imp, why)
			}
		}
	}
}

// TestWrongImportCatchesEachRule keeps the rules honest: each kind of wrong
// arrow is named, and the allowed ones pass.
func TestWrongImportCatchesEachRule(t *testing.T) {
	m := func(p string) string { return module + "/" + p }
	for _, tc := range []struct {
		from, to string
		test     bool
		wrong    bool
	}{
		{m("internal/partition"), m("01-listwatch"), false, true},
		{m("internal/demo"), m("proving-ground/chaos"), false, true},
		{m("06-sharedinformer"), m("proving-ground/replay"), false, true},
		{m("06-sharedinformer"), m("proving-ground/replay"), true, true},
		{m("08-workqueue-controller/controller"), m("proving-ground/clientgostack"), true, false},
		{m("08-workqueue-controller/controller"), m("proving-ground/clientgostack"), false, true},
		{m("03-deltafifo"), m("04-indexer"), false, true},
		{m("03-deltafifo"), m("04-indexer"), true, true},
		{m("04-indexer"), m("03-deltafifo"), false, false},
		{m("06-sharedinformer/demo"), m("06-sharedinformer"), false, false},
		{m("06-sharedinformer/demo"), m("internal/demo"), false, false},
		{m("proving-ground/chaos"), m("08-workqueue-controller/controller"), false, false},
		{m("05-processor"), "k8s.io/client-go/tools/cache", false, true},
		{m("07-factory"), "k8s.io/client-go/informers/core/v1", false, true},
		{m("05-processor"), "k8s.io/client-go/tools/cache", true, false},
		{m("08-workqueue-controller/controller"), "k8s.io/client-go/tools/record", false, false},
		{m("internal/webview"), "k8s.io/client-go/tools/cache", false, false},
	} {
		if got := wrongImport(tc.from, tc.to, tc.test) != ""; got != tc.wrong {
			t.Errorf("%s → %s (test=%v): wrong=%v, want %v", tc.from, tc.to, tc.test, got, tc.wrong)
		}
	}
}
