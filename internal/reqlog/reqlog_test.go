package reqlog_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/client-go/rest"

	"informer-from-scratch/internal/reqlog"
)

func TestRecorderSeesWhatGoesOnTheWireAndNoHeaders(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	var seen []string
	rec := &reqlog.Recorder{OnRequest: func(r reqlog.Request) { seen = append(seen, r.String()) }}
	cfg := rec.Wrap(&rest.Config{Host: srv.URL, BearerToken: "secret"})
	client, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Get(srv.URL + "/api/v1/pods?watch=true&limit=2&continue=eyJ2IjoibWV0YS5rOHMuaW8vdjEi")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	want := []string{"GET /api/v1/pods?continue=eyJ2IjoibWV0…&limit=2&watch=true"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("OnRequest (-want +got):\n%s", diff)
	}
	if got := rec.Requests(); len(got) != 1 || got[0].Query.Get("continue") != "eyJ2IjoibWV0YS5rOHMuaW8vdjEi" {
		t.Errorf("Requests() should keep the full query, got %+v", got)
	}
	rec.Reset()
	if got := rec.Requests(); len(got) != 0 {
		t.Errorf("after Reset: %v", got)
	}
}
