// Not a mirror of client-go: the flags every demo with a browser view
// takes.

package webview

import (
	"flag"
	"fmt"
	"net"
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

// Register adds --web, with its help text, and --addr to fs.
func (f *Flags) Register(fs *flag.FlagSet, webHelp string) {
	fs.BoolVar(&f.Web, "web", false, webHelp)
	fs.StringVar(&f.Addr, "addr", defaultAddr, "with --web: the page's address, on loopback (port 0: a free one)")
}

// Check refuses, before the demo starts anything, what Start would refuse
// only once the playground is up: an --addr off loopback or malformed, or
// a fixed port another program holds (often the same demo, still running
// in another terminal). It listens on the address once and lets go, so a
// program that takes the port in between is still caught by Start. And it
// refuses --addr without --web, which would serve nothing.
func (f *Flags) Check() error {
	if !f.Web {
		if f.Addr != defaultAddr {
			return fmt.Errorf("--addr=%s is where the page listens: it needs --web", f.Addr)
		}
		return nil
	}
	if err := checkLoopback(f.Addr); err != nil {
		return err
	}
	l, err := net.Listen("tcp", f.Addr)
	if err != nil {
		return fmt.Errorf("--addr=%s: %w", f.Addr, err)
	}
	return l.Close()
}
