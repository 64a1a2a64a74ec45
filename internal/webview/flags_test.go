package webview_test

import (
	"flag"
	"net"
	"strings"
	"testing"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/webview"
)

// TestFlagsCheckRefusesWhatStartWould: a demo checks --web and --addr
// before it starts a playground; Check refuses every address Start would,
// a port already taken, and --addr without --web.
func TestFlagsCheckRefusesWhatStartWould(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, tc := range []struct {
		args []string
		want string // "" for accepted
	}{
		{nil, ""},
		{[]string{"--web"}, ""},
		{[]string{"--web", "--addr=localhost:0"}, ""},
		{[]string{"--web", "--addr=0.0.0.0:8006"}, "--addr=0.0.0.0:8006: the page must listen on loopback"},
		{[]string{"--web", "--addr=8006"}, "--addr=8006: want host:port"},
		{[]string{"--web", "--addr=" + taken.Addr().String()}, "--addr=" + taken.Addr().String() + ": listen tcp"},
		{[]string{"--addr=127.0.0.1:8006"}, "--addr=127.0.0.1:8006 is where the page listens: it needs --web"},
	} {
		var f webview.Flags
		fs := flag.NewFlagSet("demo", flag.ContinueOnError)
		f.Register(fs, lang.EN, lang.T("serve the page", "提供页面"))
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		err := f.Check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v; want it accepted", tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v; want an error saying %q", tc.args, err, tc.want)
		}
	}
}
