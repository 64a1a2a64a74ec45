package reqlog_test

import (
	"net/url"
	"testing"

	"informer-from-scratch/internal/reqlog"
)

func TestVerbAndResource(t *testing.T) {
	for _, tc := range []struct {
		method, path, query string
		verb, resource      string
	}{
		{"GET", "/api/v1/pods", "limit=500", "LIST", "pods"},
		{"GET", "/api/v1/namespaces/a/pods", "watch=true&sendInitialEvents=true", "WATCH", "pods"},
		{"GET", "/api/v1/namespaces/a/pods/web-1", "", "GET", "pods"},
		{"GET", "/api/v1/namespaces", "", "LIST", "namespaces"},
		{"GET", "/api/v1/namespaces/a", "", "GET", "namespaces"},
		{"GET", "/apis/apps/v1/deployments", "watch=1", "WATCH", "deployments"},
		{"GET", "/apis/apps/v1/namespaces/a/deployments", "", "LIST", "deployments"},
		{"GET", "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/a/foos", "", "LIST", "foos"},
		{"POST", "/api/v1/namespaces/a/configmaps", "", "POST", "configmaps"},
		{"PUT", "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/a/foos/x/status", "", "PUT", "foos"},
		{"GET", "/version", "", "GET", ""},
		{"GET", "/apis/apps/v1", "", "GET", ""},
	} {
		q, _ := url.ParseQuery(tc.query)
		r := reqlog.Request{Method: tc.method, Path: tc.path, Query: q}
		if got := r.Verb(); got != tc.verb {
			t.Errorf("%s %s?%s: Verb() = %q, want %q", tc.method, tc.path, tc.query, got, tc.verb)
		}
		if got := r.Resource(); got != tc.resource {
			t.Errorf("%s %s: Resource() = %q, want %q", tc.method, tc.path, got, tc.resource)
		}
	}
}
