// Not a mirror of client-go: the live view's defence against DNS
// rebinding, which listening on loopback alone does not stop.

package webview

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// hostGuard serves a request only if its Host header is one of the page's
// own names (ownHosts), on every route: the page, its files, the stream
// and the buttons.
//
// Why: a site whose domain name its owner re-binds to 127.0.0.1 after the
// learner's browser loaded it (DNS rebinding) reaches this server from
// inside the learner's machine, and, the name being its own, the browser
// treats the server as the same origin as the site: its script may read
// the stream and send the buttons' X-Webview header, which only stops a
// form on another site. The one thing such a request cannot hide is the
// name it was sent to, which the browser puts in the Host header.
func (s *Server) hostGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hosts[strings.ToLower(r.Host)] {
			http.Error(w, fmt.Sprintf("webview: this page answers only at %s (the address the demo printed), not at %q: "+
				"a request for another name that reaches 127.0.0.1 is how a site could act through DNS rebinding", s.URL(), r.Host),
				http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ownHosts are the Host headers a browser sends for the page at addr: the
// address URL prints, and localhost on the same port, which a learner may
// type instead (no site can take that name: the browser resolves it on the
// machine). A browser leaves out port 80, so on port 80 the bare names
// count too.
func ownHosts(addr net.Addr) map[string]bool {
	host, port, _ := net.SplitHostPort(addr.String())
	hosts := map[string]bool{}
	for _, h := range []string{host, "localhost"} {
		hosts[strings.ToLower(net.JoinHostPort(h, port))] = true
		if port == "80" {
			hosts[strings.ToLower(hostOnly(h))] = true
		}
	}
	return hosts
}

// hostOnly is a host as it stands in a Host header without a port: an
// IPv6 address in brackets.
func hostOnly(h string) string {
	if strings.Contains(h, ":") {
		return "[" + h + "]"
	}
	return h
}
