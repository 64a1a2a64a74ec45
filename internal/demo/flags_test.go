package demo_test

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/demo/demotest"
	"informer-from-scratch/internal/lang"
)

// TestFlagChecksComeBeforeAnyCluster: a demo's own check of its flags runs
// once they are parsed, before the playground starts or a real cluster is
// asked anything, and knows which of the two the demo would turn to.
func TestFlagChecksComeBeforeAnyCluster(t *testing.T) {
	var n int
	var sawReal []bool
	opts := demo.Options{
		Stage: 1, Title: lang.T("test", "测试"),
		Flags: func(fs *flag.FlagSet) { fs.IntVar(&n, "n", 1, "how many") },
		CheckFlags: func(realCluster bool) error {
			sawReal = append(sawReal, realCluster)
			if n < 1 {
				return fmt.Errorf("--n=%d: want 1 or more", n)
			}
			return nil
		},
	}
	demotest.Refuses(t, opts, []string{"--n=0"}, false, neverRuns(t), "--n=0: want 1 or more")
	demotest.Refuses(t, opts, []string{"--n=0"}, true, neverRuns(t), "--n=0: want 1 or more")
	if fmt.Sprint(sawReal) != "[false true]" {
		t.Errorf("CheckFlags was told realCluster=%v for the playground, then --kubeconfig; want [false true]", sawReal)
	}

	// $INFORMER_KUBECONFIG names a real cluster as --kubeconfig does.
	sawReal = nil
	t.Setenv(demo.KubeconfigEnv, kubeconfigFor(t, "https://127.0.0.1:1"))
	var out, errOut strings.Builder
	if code := demo.Run(opts, []string{"--n=0"}, &out, &errOut, neverRuns(t)); code != 2 || fmt.Sprint(sawReal) != "[true]" || out.Len() > 0 {
		t.Errorf("--n=0 with $%s: exit %d, realCluster=%v, stdout %q; want 2, [true] and nothing printed", demo.KubeconfigEnv, code, sawReal, out.String())
	}
}

// TestAWordThatIsNotAFlagIsRefused: ARGS=fifo for ARGS=--queue=fifo is
// not dropped without a word, and refused before anything starts.
func TestAWordThatIsNotAFlagIsRefused(t *testing.T) {
	for _, args := range [][]string{{"fifo"}, {"--", "--wait"}} {
		demotest.Refuses(t, demo.Options{Stage: 1, Title: lang.T("test", "测试")}, args, false, neverRuns(t), "unexpected argument")
	}
}

func neverRuns(t *testing.T) func(*demo.Env) error {
	return func(*demo.Env) error {
		t.Error("the script ran: the flags were to be refused before anything started")
		return nil
	}
}
