package webview_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/timeline"
	"informer-from-scratch/internal/webview"
	"informer-from-scratch/internal/webview/webviewtest"
)

// TestServesOnlyItsOwnHost: a page whose domain is re-bound to 127.0.0.1
// (DNS rebinding) reaches the server with its own name in the Host header,
// and is same-origin with it for its browser, so it could set the buttons'
// header. Every route refuses such a request: the page, its files, the
// stream and the buttons. The names the page is given (the URL printed,
// and localhost on the same port) are served.
func TestServesOnlyItsOwnHost(t *testing.T) {
	srv, err := webview.Start("127.0.0.1:0", webview.Config{}, timeline.New(&strings.Builder{}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var pressed atomic.Int32
	srv.Handle("create", func(context.Context) (lang.Text, error) { pressed.Add(1); return lang.T("created", "已创建"), nil })
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(u.Host)

	routes := []struct{ method, path string }{
		{http.MethodGet, "/"},
		{http.MethodGet, "/app.js"},
		{http.MethodGet, "/events"},
		{http.MethodPost, "/act/create"},
	}
	for _, host := range []string{"evil.example:" + port, "evil.example", "127.0.0.1.evil.example:" + port} {
		for _, r := range routes {
			status, body := request(t, srv.URL(), r.method, r.path, host)
			if status != http.StatusForbidden || !strings.Contains(body, srv.URL()) {
				t.Errorf("%s %s with Host %q: %d %q; want 403 and a body naming %s", r.method, r.path, host, status, body, srv.URL())
			}
		}
	}
	if n := pressed.Load(); n != 0 {
		t.Fatalf("a request with another Host pressed the button %d times", n)
	}

	for _, host := range []string{u.Host, "localhost:" + port, "LOCALHOST:" + port} {
		for _, r := range routes {
			if status, body := request(t, srv.URL(), r.method, r.path, host); status != http.StatusOK {
				t.Errorf("%s %s with Host %q: %d %q; want 200", r.method, r.path, host, status, body)
			}
		}
	}
	if n := pressed.Load(); n != 3 {
		t.Errorf("the page's own hosts pressed the button %d times; want 3", n)
	}
	// The page itself, as a browser reads it.
	if st := webviewtest.Connect(t, srv.URL()); st.Snapshot.Seq < 0 {
		t.Errorf("snapshot %+v", st.Snapshot)
	}
}

// request sends one request to the server at base with the Host header set
// to host, and returns the status and the start of the body (a stream is
// cut after its first bytes).
func request(t *testing.T, base, method, path, host string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(base, "/")+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	req.Header.Set("X-Webview", "1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s with Host %q: %v", method, path, host, err)
	}
	defer resp.Body.Close()
	b := make([]byte, 512)
	n, _ := io.ReadAtLeast(resp.Body, b, 1)
	return resp.StatusCode, string(b[:n])
}

// TestServesItsOwnIPv6Host: on [::1] the printed address is bracketed, and
// so is the Host header a browser sends for it.
func TestServesItsOwnIPv6Host(t *testing.T) {
	srv, err := webview.Start("[::1]:0", webview.Config{}, timeline.New(&strings.Builder{}))
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	defer srv.Close()
	u, _ := url.Parse(srv.URL())
	_, port, _ := net.SplitHostPort(u.Host)
	for host, want := range map[string]int{u.Host: http.StatusOK, "localhost:" + port: http.StatusOK, "evil.example:" + port: http.StatusForbidden} {
		if status, body := request(t, srv.URL(), http.MethodGet, "/", host); status != want {
			t.Errorf("GET / with Host %q: %d %q; want %d", host, status, body, want)
		}
	}
}
