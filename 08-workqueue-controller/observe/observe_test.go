package observe

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/klog/v2"
)

// TestRunsLinesBecomeTheControllersSteps: the lines Run logs (as
// sample-controller does) are the controller's rows; a worker's logger
// carries its number to the steps taken on its context.
func TestRunsLinesBecomeTheControllersSteps(t *testing.T) {
	var got []string
	tr := New(func(s Step) { got = append(got, s.Layer+" "+s.Op+": "+s.Detail) })
	logger := klog.FromContext(tr.Context(context.Background()))
	logger.Info("Starting Foo controller")
	logger.Info("Waiting for informer caches to sync")
	logger.Info("Starting workers", "count", 2)
	logger.Info("Started workers")
	logger.Info("Successfully synced", "objectName", "ns/a") // a row of its own comes from the reconcile
	logger.Info("Shutting down workers")
	logger.Info("Drain timed out: cancelling the reconciles still running", "timeout", "30s")
	logger.Info("Workers returned")
	logger.Info("Informers stopped")
	want := []string{
		"controller Start: informers of Foos and Deployments started",
		"controller Synced: caches synced, every existing Foo queued",
		"controller Workers: 2 workers started",
		"controller ShutDownWithDrain: stop taking keys; wait for the reconciles in flight",
		"controller DrainTimeout: reconciles still running after 30s: cancelled",
		"controller Shutdown: workers returned",
		"controller Shutdown: informers stopped",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps (-want +got):\n%s", diff)
	}

	workerCtx := klog.NewContext(context.Background(), klog.LoggerWithValues(logger, "worker", 3))
	if w := workerOf(workerCtx); w != 3 {
		t.Errorf("workerOf a worker's context = %d, want 3", w)
	}
	if w := workerOf(context.Background()); w != 0 {
		t.Errorf("workerOf a context without the tracer's logger = %d, want 0", w)
	}
}

// TestTransportReportsAWriteWhenSentAndWhenAnswered: a write's first row is
// made before the server has it, its second after the answer, with the new
// resourceVersion; reads and Events pass without a row.
func TestTransportReportsAWriteWhenSentAndWhenAnswered(t *testing.T) {
	var got []string
	tr := New(func(s Step) {
		line := s.Op + " " + s.Object + ": " + s.Detail
		if s.Sent {
			line = "sent " + line
		}
		if s.Err != nil {
			line += " error: " + s.Err.Error()
		}
		got = append(got, line)
	})
	tr.deploymentOf["ns/a-web"] = "ns/a"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, "server has "+r.Method+" "+r.URL.Path)
		if strings.HasSuffix(r.URL.Path, "/b-web") {
			w.WriteHeader(http.StatusConflict)
			w.Write([]byte(`{"kind":"Status","message":"the object has been modified"}`))
			return
		}
		w.Write([]byte(`{"metadata":{"name":"a-web","resourceVersion":"42"}}`))
	}))
	defer srv.Close()
	rt := tr.transport(http.DefaultTransport)
	send := func(method, path, body string) {
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewBufferString(body))
		resp, err := rt.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	send(http.MethodPost, "/apis/apps/v1/namespaces/ns/deployments", `{"metadata":{"name":"a-web"},"spec":{"replicas":3}}`)
	send(http.MethodPut, "/apis/apps/v1/namespaces/ns/deployments/b-web", `{"metadata":{"name":"b-web"},"spec":{"replicas":1}}`)
	send(http.MethodPut, "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/ns/foos/a/status", `{"status":{"availableReplicas":3}}`)
	send(http.MethodGet, "/apis/apps/v1/namespaces/ns/deployments/a-web", "")
	send(http.MethodPost, "/api/v1/namespaces/ns/events", `{}`)
	want := []string{
		"sent CREATE Deployment ns/a-web: spec.replicas=3",
		"server has POST /apis/apps/v1/namespaces/ns/deployments",
		"CREATE Deployment ns/a-web: spec.replicas=3 → rv=42",
		"sent UPDATE Deployment ns/b-web: spec.replicas=1",
		"server has PUT /apis/apps/v1/namespaces/ns/deployments/b-web",
		"UPDATE Deployment ns/b-web:  error: the object has been modified",
		"sent UPDATE Foo ns/a status: status.availableReplicas=3",
		"server has PUT /apis/samplecontroller.k8s.io/v1alpha1/namespaces/ns/foos/a/status",
		"UPDATE Foo ns/a status: status.availableReplicas=3 → rv=42",
		"server has GET /apis/apps/v1/namespaces/ns/deployments/a-web",
		"server has POST /api/v1/namespaces/ns/events",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows and requests, in order (-want +got):\n%s", diff)
	}
}
