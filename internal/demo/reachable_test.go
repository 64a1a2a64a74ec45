package demo

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// TestReachableAbandonsItsRequestAtTheDeadline: against a server that never
// answers, reachable gives up after its timeout, and the request goes with
// it (the server sees it cancelled), instead of a goroutine left waiting on
// the cluster for as long as the HTTP client allows.
func TestReachableAbandonsItsRequestAtTheDeadline(t *testing.T) {
	abandoned := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
			abandoned <- struct{}{}
		case <-release:
		}
	}))
	defer srv.Close()
	defer close(release)
	client, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	err = reachable(context.Background(), client, srv.URL, 200*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "no answer within 200ms") {
		t.Fatalf("reachable returned %v, want no answer within 200ms", err)
	}
	select {
	case <-abandoned:
	case <-time.After(10 * time.Second):
		t.Fatal("10s after reachable gave up, its request was still waiting on the server")
	}
}
