// Package reqlog records the HTTP requests a client sends to the apiserver:
// method, path and query. Demos print them, so a learner sees exactly which
// LIST and WATCH requests each layer makes; tests compare the requests our
// code and client-go's send for the same scenario.
//
// It sits at the bottom of the client's transport stack (rest.Config.Wrap),
// so what it records is what goes on the wire. It never records headers:
// they carry credentials.
package reqlog

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"

	"k8s.io/client-go/rest"
)

// Request is one recorded request.
type Request struct {
	Method string
	Path   string
	Query  url.Values
}

// String prints the request with its query parameters sorted, and long
// continue tokens shortened so a timeline stays readable.
func (r Request) String() string {
	var b strings.Builder
	b.WriteString(r.Method)
	b.WriteByte(' ')
	b.WriteString(r.Path)
	if q := r.QueryString(); q != "" {
		b.WriteByte('?')
		b.WriteString(q)
	}
	return b.String()
}

// QueryString is the sorted query, with continue tokens shortened.
func (r Request) QueryString() string {
	keys := make([]string, 0, len(r.Query))
	for k := range r.Query {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		for _, v := range r.Query[k] {
			if k == "continue" && len(v) > 12 {
				v = v[:12] + "…"
			}
			parts = append(parts, k+"="+v)
		}
	}
	return strings.Join(parts, "&")
}

// Recorder records requests and optionally reports each as it is sent.
type Recorder struct {
	// OnRequest, if set, is called for each request before it is sent.
	OnRequest func(Request)

	mu   sync.Mutex
	reqs []Request
}

// Wrap installs the recorder on cfg's transport.
func (r *Recorder) Wrap(cfg *rest.Config) *rest.Config {
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripper{next: rt, rec: r}
	})
	return cfg
}

// Requests returns a copy of what was recorded so far.
func (r *Recorder) Requests() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.reqs...)
}

// Reset forgets what was recorded.
func (r *Recorder) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = nil
}

type roundTripper struct {
	next http.RoundTripper
	rec  *Recorder
}

func (t roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	r := Request{Method: req.Method, Path: req.URL.Path, Query: req.URL.Query()}
	t.rec.mu.Lock()
	t.rec.reqs = append(t.rec.reqs, r)
	t.rec.mu.Unlock()
	if t.rec.OnRequest != nil {
		t.rec.OnRequest(r)
	}
	return t.next.RoundTrip(req)
}
