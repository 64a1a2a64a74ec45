package docscheck

import (
	"os/exec"
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
