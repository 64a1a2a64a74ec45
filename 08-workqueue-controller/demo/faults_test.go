package main

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"k8s.io/client-go/rest"

	"informer-from-scratch/08-workqueue-controller/observe"
)

// TestAHeldWriteIsPrintedWhenItIsSent: steps 9 and 10 hold a Deployment
// write back a second (faults.slowNextWrite), so that a reconcile is in
// flight while the script acts. The write's row says it was sent; it used
// to be printed a second before the write left, because the hold sat
// inside the tracer's transport. Through the configuration the controller
// writes with (controllerConfig), the row must come when the server gets
// the request, and --fail's 500 must still be an answer the tracer
// prints. In a synctest bubble both instants are exact.
func TestAHeldWriteIsPrintedWhenItIsSent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var received []time.Time // when the server got each write
		server := roundTripper(func(req *http.Request) (*http.Response, error) {
			received = append(received, time.Now())
			body := `{"metadata":{"resourceVersion":"42"}}`
			return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
		})
		var sent []time.Time
		var answers []observe.Step
		tracer := observe.New(func(st observe.Step) {
			if st.Sent {
				sent = append(sent, time.Now())
			} else {
				answers = append(answers, st)
			}
		})
		s := &script{faults: &faults{namespace: "stage08"}}
		rt, err := rest.TransportFor(s.controllerConfig(&rest.Config{Host: "http://apiserver", Transport: server}, tracer))
		if err != nil {
			t.Fatal(err)
		}
		write := func(method, path string) {
			req, err := http.NewRequest(method, "http://apiserver/apis/apps/v1/namespaces/stage08/deployments"+path,
				bytes.NewReader([]byte(`{"metadata":{"name":"example-web"},"spec":{"replicas":4}}`)))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := rt.RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}

		s.faults.slowNextWrite(time.Second)
		start := time.Now()
		write(http.MethodPut, "/example-web")
		if len(sent) != 1 || len(received) != 1 {
			t.Fatalf("one write: %d sent rows, %d requests at the server", len(sent), len(received))
		}
		if held := received[0].Sub(start); held != time.Second {
			t.Errorf("the write reached the server %v after it was made, want the 1s hold", held)
		}
		if !sent[0].Equal(received[0]) {
			t.Errorf("the write's sent row came %v before the server got it: the hold is inside the tracer's transport", received[0].Sub(sent[0]))
		}

		s.faults.failNextCreates(1)
		write(http.MethodPost, "")
		last := answers[len(answers)-1]
		if len(received) != 1 || last.Err == nil || !strings.Contains(last.Err.Error(), "injected by the demo's --fail") {
			t.Errorf("--fail's create: %d requests at the server (want the first alone), the tracer's answer %+v (want the injected 500)", len(received), last)
		}
	})
}
