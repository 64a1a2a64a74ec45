// Not a mirror of client-go: the demo's fault injection, two RoundTrippers
// between the controller's clients and the API server. One makes the next
// Deployment creates fail with a 500 (--fail), so the rate limiter's
// delays show; it answers in the server's place, so it sits inside the
// tracer's transport (observe), which prints the 500 as the write's
// answer. The other holds the next Deployment write back for a while, so
// that a reconcile is in flight while the script changes its Foo or shuts
// the controller down; it sits outside the tracer's transport, so that the
// write's row is printed when the write is sent, after the wait.

package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// faults is armed by the script; unarmed, it passes every request on. One
// faults serves every client of the controller: fail and hold put a
// transport of each kind in front of a client's transport.
type faults struct {
	namespace string

	mu          sync.Mutex
	failCreates int           // Deployment creates still to fail
	failed      int           // how many it failed so far, for the message
	slowWrite   time.Duration // how long to hold the next Deployment write
}

// fail is a rest.Config's WrapTransport: it answers the Deployment creates
// failNextCreates armed with a 500. Wrap it inside the tracer's.
func (f *faults) fail(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		if !f.deploymentWrite(req) || req.Method != http.MethodPost {
			return next.RoundTrip(req)
		}
		f.mu.Lock()
		fail := f.failCreates > 0
		if fail {
			f.failCreates--
			f.failed++
		}
		n := f.failed
		f.mu.Unlock()
		if !fail {
			return next.RoundTrip(req)
		}
		if req.Body != nil {
			req.Body.Close() // a RoundTripper closes the body, even when it answers itself
		}
		return internalError(req, fmt.Sprintf("injected by the demo's --fail (failure %d)", n)), nil
	})
}

// hold is a rest.Config's WrapTransport: it holds the Deployment write
// slowNextWrite armed back before sending it on. Wrap it outside the
// tracer's, whose row of a write says it was sent.
func (f *faults) hold(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		if !f.deploymentWrite(req) {
			return next.RoundTrip(req)
		}
		f.mu.Lock()
		slow := f.slowWrite
		f.slowWrite = 0
		f.mu.Unlock()
		if slow > 0 {
			select {
			case <-time.After(slow):
			case <-req.Context().Done():
			}
		}
		return next.RoundTrip(req)
	})
}

// deploymentWrite reports whether req creates or changes a Deployment of
// the demo's namespace.
func (f *faults) deploymentWrite(req *http.Request) bool {
	deployments := "/apis/apps/v1/namespaces/" + f.namespace + "/deployments"
	isWrite := req.Method == http.MethodPost || req.Method == http.MethodPut || req.Method == http.MethodPatch
	return isWrite && strings.HasPrefix(req.URL.Path, deployments)
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// internalError is the response an apiserver gives for a 500: a Status.
// Without a Retry-After header, client-go's REST client does not retry it,
// so the error reaches the reconcile.
func internalError(req *http.Request, message string) *http.Response {
	body := fmt.Sprintf(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%q,"reason":"InternalError","code":500}`, message)
	return &http.Response{
		Status:        "500 Internal Server Error",
		StatusCode:    http.StatusInternalServerError,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(strings.NewReader(body)),
		ContentLength: int64(len(body)),
		Request:       req,
	}
}

// failNextCreates makes the next n Deployment creates fail.
func (f *faults) failNextCreates(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failCreates, f.failed = n, 0
}

// slowNextWrite holds the next Deployment write back for d.
func (f *faults) slowNextWrite(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.slowWrite = d
}
