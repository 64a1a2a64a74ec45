package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/timeline"
)

// TestAFailedListEndsTheDemoWithItsError points the demo at a server that
// refuses every request (a real cluster where the user may not list pods):
// the start step must return the LIST's error, not wait for ever for
// handlers that will never sync.
func TestAFailedListEndsTheDemoWithItsError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,"message":"pods is forbidden"}`))
	}))
	defer srv.Close()
	client, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &script{env: &demo.Env{Ctx: ctx, Client: client, Out: &out}, tl: timeline.New(&out), ns: "kube-system"}

	done := make(chan error, 1)
	go func() { done <- s.registerAndStart() }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "forbidden") {
			t.Errorf("registerAndStart returned %v, want the LIST's 403", err)
		}
	case <-time.After(30 * time.Second): // a guard against a hang, not a measurement
		t.Fatalf("registerAndStart still waiting 30s after its LIST failed:\n%s", out.String())
	}
	s.stop() // must return too
}
