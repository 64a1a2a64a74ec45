package main

import (
	"net"
	"strings"
	"testing"

	"informer-from-scratch/internal/demo/demotest"
)

// TestBadFlagsAreRefusedBeforeAnythingStarts: every flag value the demo
// cannot use, and every mix that would show nothing, is refused with a
// sentence naming the flag, before a playground starts (on a first run,
// minutes of building) or a real cluster is asked anything.
func TestBadFlagsAreRefusedBeforeAnythingStarts(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, tc := range []struct {
		args        []string
		realCluster bool
		want        string
	}{
		{[]string{"--workers=-1"}, false, "--workers=-1: the controller needs at least one worker"},
		{[]string{"--workers=0"}, true, "--workers=0: the controller needs at least one worker"},
		{[]string{"--workers=two"}, false, `invalid value "two" for flag -workers`},
		{[]string{"--fail=-1"}, false, "--fail=-1: give a number of failures from 0 to 10"},
		{[]string{"--fail=11"}, true, "--fail=11: give a number of failures from 0 to 10"},
		{[]string{"--break=nonsense"}, false, `no break named "nonsense"`},
		{[]string{"--break=owner-reference", "--fail=0"}, false, "--break=owner-reference shows in steps 7 and 8, which --fail=0 skips"},
		{[]string{"--namespace="}, true, `--namespace="": the demo needs a namespace of its own`},
		{[]string{"--namespace=My_Namespace"}, true, `--namespace="My_Namespace": the demo needs a namespace of its own, named as Kubernetes names one`},
		{[]string{"--namespace=mine"}, false, "--namespace=mine is for a real cluster (--kubeconfig)"},
		{[]string{"--cleanup"}, false, "--cleanup is for a real cluster (--kubeconfig)"},
		{[]string{"--web", "--addr=0.0.0.0:8008"}, true, "--addr=0.0.0.0:8008: the page must listen on loopback"},
		{[]string{"--web", "--addr=" + taken.Addr().String()}, false, "--addr=" + taken.Addr().String() + ": listen tcp"},
		{[]string{"--addr=127.0.0.1:8008"}, false, "--addr=127.0.0.1:8008 is where the page listens: it needs --web"},
		// In the learner's language, the demo's own refusals and the web view's.
		{[]string{"--lang=zh", "--workers=0"}, false, "错误：--workers=0：控制器至少要有一个 worker\n"},
		{[]string{"--lang=zh", "--break=nonsense"}, true, `错误：没有叫 "nonsense" 的开关（--break=help 会列出全部）`},
		{[]string{"--lang=zh", "--addr=127.0.0.1:8008"}, false, "错误：--addr=127.0.0.1:8008 是页面监听的地址，要和 --web 一起用"},
	} {
		name := strings.Join(tc.args, " ")
		if tc.realCluster {
			name += " --kubeconfig"
		}
		t.Run(name, func(t *testing.T) {
			demotest.Refuses(t, options, tc.args, tc.realCluster, run, tc.want)
		})
	}
	demotest.RefusesCommonFlags(t, options, run)
}
