package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	listwatch "informer-from-scratch/01-listwatch"
	"informer-from-scratch/internal/partition"
	"informer-from-scratch/internal/timeline"
)

// TestAStopIsNotPrintedAsAWatchError: when the informer's context is
// cancelled, the read of its open watch fails with "context canceled",
// and client-go's StreamWatcher (apimachinery's watch/streamwatcher.go,
// receive) turns that error into an ERROR event, a Status with code 500
// and reason InternalError, unless the reflector stopped the watch first.
// In the demo's last step that race went the event's way about once in
// four runs, and the timeline said "500 InternalError: the reflector will
// list again" just before "informer STOPPED". The test makes the event
// the demo's watch printer saw (a real client's watch, its context
// cancelled, the event read before anyone stops the watch), and hands it
// to the printer: it is the stop, and prints nothing. A 410 while the
// informer runs still prints its row.
func TestAStopIsNotPrintedAsAWatchError(t *testing.T) {
	// A watch that streams nothing and ends only when its client goes.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}))
	defer srv.Close()
	client, err := kubernetes.NewForConfig(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	link := partition.New(listwatch.NewFilteredListWatchFromClient(client.CoreV1().RESTClient(), "pods", "stage06", func(*metav1.ListOptions) {}))
	var out bytes.Buffer
	s := &script{tl: timeline.New(&out)}
	ctx, cancel := context.WithCancel(context.Background())
	seen := make(chan watch.Event, 1)
	print := s.watchErrors(ctx)
	link.OnEvent = func(e watch.Event) {
		print(e)
		select {
		case seen <- e:
		default:
		}
	}
	w, err := link.WatchWithContext(ctx, metav1.ListOptions{Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	cancel() // the demo's stop: nobody has stopped the watch yet
	e := <-seen
	if e.Type != watch.Error || apierrors.FromObject(e.Object).(apierrors.APIStatus).Status().Code != http.StatusInternalServerError {
		t.Fatalf("the cancelled watch gave %s %v; the race needs client-go's ERROR event with a 500", e.Type, e.Object)
	}
	if out.Len() != 0 {
		t.Errorf("the informer's stop printed as a fault of its watch:\n%s", out.String())
	}

	// While the informer runs, a 410 is a row, and the reflector lists again.
	gone := apierrors.NewResourceExpired("too old resource version")
	s.watchErrors(context.Background())(watch.Event{Type: watch.Error, Object: &gone.ErrStatus})
	if !strings.Contains(out.String(), "ERROR") || !strings.Contains(out.String(), "410 Expired") {
		t.Errorf("a 410 while the informer runs printed %q, want its ERROR row", out.String())
	}
}
