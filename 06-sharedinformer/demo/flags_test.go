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
		{[]string{"--queue=fifo"}, false, "--queue=fifo: the queues are realfifo and deltafifo"},
		{[]string{"--queue=fifo"}, true, "--queue=fifo: the queues are realfifo and deltafifo"},
		{[]string{"--break=nonsense"}, false, `no break named "nonsense"`},
		{[]string{"--break=tombstones"}, true, "--break=tombstones needs the playground"},
		{[]string{"--break=blocking-listener"}, true, "--break=blocking-listener needs the playground"},
		{[]string{"--break=blocking-listener", "--chaos"}, false, "--break=blocking-listener shows in the last step, which --chaos skips"},
		{[]string{"--chaos"}, true, "--chaos needs the playground"},
		{[]string{"--chaos=maybe"}, false, `invalid boolean value "maybe" for -chaos`},
		{[]string{"--web", "--addr=0.0.0.0:8006"}, false, "--addr=0.0.0.0:8006: the page must listen on loopback"},
		{[]string{"--web", "--addr=" + taken.Addr().String()}, false, "--addr=" + taken.Addr().String() + ": listen tcp"},
		{[]string{"--addr=127.0.0.1:8006"}, false, "--addr=127.0.0.1:8006 is where the page listens: it needs --web"},
		// In the learner's language, the demo's own refusals and the web view's.
		{[]string{"--lang=zh", "--queue=fifo"}, true, "错误：--queue=fifo：队列只有 realfifo 和 deltafifo 两种\n"},
		{[]string{"--lang=zh", "--break=nonsense"}, false, `错误：没有叫 "nonsense" 的开关（--break=help 会列出全部）`},
		{[]string{"--lang=zh", "--web", "--addr=0.0.0.0:8006"}, false, "错误：--addr=0.0.0.0:8006：页面只能监听回环地址"},
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
