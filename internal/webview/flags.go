// Not a mirror of client-go: the flags every demo with a browser view
// takes.

package webview

import (
	"flag"
	"net"

	"informer-from-scratch/internal/lang"
)

// Flags are a demo's --web and --addr.
type Flags struct {
	// Web is --web: serve the page while the demo runs.
	Web bool
	// Addr is --addr: where the page listens, on loopback (Start refuses
	// anything else).
	Addr string
}

// defaultAddr is --addr's default: loopback, a free port.
const defaultAddr = "127.0.0.1:0"

// Register adds --web, with its help text, and --addr to fs, their help
// in language l (demo.Options.Flags says which).
func (f *Flags) Register(fs *flag.FlagSet, l string, webHelp lang.Text) {
	fs.BoolVar(&f.Web, "web", false, webHelp.In(l))
	fs.StringVar(&f.Addr, "addr", defaultAddr, sayAddrFlag.In(l))
}

// Check refuses, before the demo starts anything, what Start would refuse
// only once the playground is up: an --addr off loopback or malformed, or
// a fixed port another program holds (often the same demo, still running
// in another terminal). It listens on the address once and lets go, so a
// program that takes the port in between is still caught by Start. And it
// refuses --addr without --web, which would serve nothing. Its errors are
// lang.Errorf's: the demo says them in the learner's language.
func (f *Flags) Check() error {
	if !f.Web {
		if f.Addr != defaultAddr {
			return lang.Errorf(sayAddrNeedsWeb, f.Addr)
		}
		return nil
	}
	if err := checkLoopback(f.Addr); err != nil {
		return err
	}
	l, err := net.Listen("tcp", f.Addr)
	if err != nil {
		return lang.Errorf(sayAddrListen, f.Addr, err)
	}
	return l.Close()
}
