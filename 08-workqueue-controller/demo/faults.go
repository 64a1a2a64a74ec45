// Not a mirror of client-go: the demo's fault injection, a RoundTripper
// between the controller's clients and the API server. It makes the next
// Deployment creates fail with a 500 (--fail), so the rate limiter's
// delays show, and can hold the next Deployment write back for a while, so
// that shutdown finds a reconcile in flight to drain.

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
// faults serves every client of the controller: wrap puts a faultTransport
// in front of each client's transport.
type faults struct {
	namespace string

	mu          sync.Mutex
	failCreates int           // Deployment creates still to fail
	failed      int           // how many it failed so far, for the message
	slowWrite   time.Duration // how long to hold the next Deployment write
}

// wrap is a rest.Config's WrapTransport.
func (f *faults) wrap(next http.RoundTripper) http.RoundTripper {
	return &faultTransport{next: next, f: f}
}

// faultTransport is one client's transport, behind the shared faults.
type faultTransport struct {
	next http.RoundTripper
	f    *faults
}

func (t *faultTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	f := t.f
	deployments := "/apis/apps/v1/namespaces/" + f.namespace + "/deployments"
	isWrite := req.Method == http.MethodPost || req.Method == http.MethodPut || req.Method == http.MethodPatch
	if !isWrite || !strings.HasPrefix(req.URL.Path, deployments) {
		return t.next.RoundTrip(req)
	}
	f.mu.Lock()
	fail := req.Method == http.MethodPost && f.failCreates > 0
	if fail {
		f.failCreates--
		f.failed++
	}
	n := f.failed
	slow := f.slowWrite
	f.slowWrite = 0
	f.mu.Unlock()

	if fail {
		if req.Body != nil {
			req.Body.Close() // a RoundTripper closes the body, even when it answers itself
		}
		return internalError(req, fmt.Sprintf("injected by the demo's --fail (failure %d)", n)), nil
	}
	if slow > 0 {
		select {
		case <-time.After(slow):
		case <-req.Context().Done():
		}
	}
	return t.next.RoundTrip(req)
}

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
