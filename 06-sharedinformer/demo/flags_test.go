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
