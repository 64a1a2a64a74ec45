package docscheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunStageRefusesWhatIsNoStage keeps the README's promise about `make
// run-stage`: with no number it lists the stages; with anything that names
// no stage (0 included, which used to fall through to the list) it refuses
// with a message saying so. make's -n keeps it from building anything.
func TestRunStageRefusesWhatIsNoStage(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	run := func(args ...string) (string, error) {
		cmd := exec.Command("make", append([]string{"-n", "--no-print-directory", "run-stage"}, args...)...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, n := range []string{"0", "00", "9", "x", "1 2", "N=0"} {
		out, err := run(strings.Fields(n)...)
		if err == nil || !strings.Contains(out, "stage") || strings.Contains(out, "Stages (make run-stage N)") {
			t.Errorf("make run-stage %s: err=%v, output:\n%s\nwant a refusal", n, err, out)
		}
	}
	out, err := run()
	if err != nil || !strings.Contains(out, "06-sharedinformer") {
		t.Errorf("make run-stage: err=%v, output:\n%s\nwant the list of stages", err, out)
	}
}

// TestRunStageSpeaksTheDemosLanguage: run-stage's own lines (the list of
// stages, "Compiling the stage N demo…") are said in the language the demo
// will narrate in, chosen as internal/lang chooses it: --lang in ARGS,
// else the locale.
func TestRunStageSpeaksTheDemosLanguage(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	for _, tc := range []struct {
		locale, args, want string
	}{
		{"C", "", "Compiling the stage 1 demo"},
		{"zh_CN.UTF-8", "", "正在编译第 1 阶段的 demo"},
		{"zh_CN.UTF-8", "ARGS=--lang=en", "Compiling the stage 1 demo"},
		{"C", "ARGS=--wait --lang=zh", "正在编译第 1 阶段的 demo"},
		{"C", "ARGS=--lang zh", "正在编译第 1 阶段的 demo"},
	} {
		args := []string{"-n", "--no-print-directory", "run-stage", "1"}
		if tc.args != "" {
			args = append(args, tc.args)
		}
		cmd := exec.Command("make", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "LC_ALL=", "LC_MESSAGES=", "LANG="+tc.locale)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), tc.want) {
			t.Errorf("LANG=%s make run-stage 1 %s: err=%v, output:\n%s\nwant %q", tc.locale, tc.args, err, out, tc.want)
		}
	}
	cmd := exec.Command("make", "--no-print-directory", "run-stage")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "LC_ALL=zh_CN.UTF-8")
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "各个阶段") {
		t.Errorf("LC_ALL=zh_CN.UTF-8 make run-stage: err=%v, output:\n%s\nwant the list of stages in Chinese", err, out)
	}
}

// TestMakeTestEndsWithTheConformanceTable keeps the workshop guide's
// "Before the day" true: make test's last step runs client-go's tests
// against ours (proving-ground/conformance), so its output ends with their
// table, not with go test's ok lines.
func TestMakeTestEndsWithTheConformanceTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	_, recipe, ok := strings.Cut(string(b), "\ntest: ")
	if !ok {
		t.Fatal("the Makefile has no test target")
	}
	var last string
	for _, line := range strings.Split(recipe, "\n")[1:] {
		if !strings.HasPrefix(line, "\t") {
			break // the end of the recipe
		}
		if cmd := strings.TrimSpace(line); !strings.HasPrefix(cmd, "@#") && !strings.HasPrefix(cmd, "@echo") {
			last = cmd
		}
	}
	if !strings.Contains(last, "./proving-ground/conformance") {
		t.Errorf("make test's last command is %q; the workshop guide says it ends with the conformance table", last)
	}
	for _, lang := range []string{"en", "zh"} {
		guide, err := os.ReadFile(filepath.Join(root, "docs", lang, "workshop.md"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(guide), "go test took …") {
			t.Errorf("docs/%s/workshop.md no longer says how make test ends (the conformance runner's last line, `go test took …`)", lang)
		}
	}
}
