// Not a mirror of client-go: the flags every demo with a browser view
// takes.

package webview

import "flag"

// Flags are a demo's --web and --addr.
type Flags struct {
	// Web is --web: serve the page while the demo runs.
	Web bool
	// Addr is --addr: where the page listens, on loopback (Start refuses
	// anything else).
	Addr string
}

// Register adds --web, with its help text, and --addr to fs.
func (f *Flags) Register(fs *flag.FlagSet, webHelp string) {
	fs.BoolVar(&f.Web, "web", false, webHelp)
	fs.StringVar(&f.Addr, "addr", "127.0.0.1:0", "with --web: the page's address, on loopback (port 0: a free one)")
}
