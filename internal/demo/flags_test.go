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
	var sawReal []bool
	opts := optionsWithN(func(realCluster bool) { sawReal = append(sawReal, realCluster) })
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

// optionsWithN are a demo's with a flag of its own, --n, which its check
// refuses below 1 (in both languages); seen hears of each check.
func optionsWithN(seen func(realCluster bool)) demo.Options {
	var n int
	return demo.Options{
		Stage: 1, Title: lang.T("test", "测试"),
		Flags: func(fs *flag.FlagSet, l string) { fs.IntVar(&n, "n", 1, lang.T("how many", "多少个").In(l)) },
		CheckFlags: func(realCluster bool) error {
			seen(realCluster)
			if n < 1 {
				return lang.Errorf(lang.T("--n=%d: want 1 or more", "--n=%d：至少要 1"), n)
			}
			return nil
		},
	}
}

// TestADemosOwnFlagsSpeakItsLanguage: the harness hands a demo's Flags the
// language, so that -h says its own flags in Chinese too, and prints what
// its CheckFlags refuses in the language it was said in.
func TestADemosOwnFlagsSpeakItsLanguage(t *testing.T) {
	opts := optionsWithN(func(bool) {})
	for _, tc := range []struct {
		args      []string
		code      int
		want, not string
	}{
		{[]string{"--lang=zh", "-h"}, 0, "多少个", "how many"},
		{[]string{"--lang=en", "-h"}, 0, "how many", "多少个"},
		{[]string{"--lang=zh", "--n=0"}, 2, "错误：--n=0：至少要 1\n", "want 1"},
		{[]string{"--lang=en", "--n=0"}, 2, "error: --n=0: want 1 or more\n", "至少"},
	} {
		var out, errOut strings.Builder
		code := demo.Run(opts, tc.args, &out, &errOut, neverRuns(t))
		if code != tc.code || !strings.Contains(errOut.String(), tc.want) || strings.Contains(errOut.String(), tc.not) {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant %d, %q and no %q", tc.args, code, errOut.String(), tc.code, tc.want, tc.not)
		}
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
