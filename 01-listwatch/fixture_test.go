package listwatch_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"sync/atomic"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/reqlog"
)

// namespaces counts the namespaces created, so that -count=N runs, which
// share one playground, never reuse a name.
var namespaces atomic.Int32

// newNamespace creates a fresh namespace with n pods labelled app=web and, for
// every third one, also tier=gold. It returns the namespace's name.
func newNamespace(t *testing.T, client kubernetes.Interface, prefix string, n int) string {
	t.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("%s-%d", prefix, namespaces.Add(1))
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		labels := map[string]string{"app": "web"}
		if i%3 == 0 {
			labels["tier"] = "gold"
		}
		pod := demo.Pod(name, fmt.Sprintf("pod-%02d", i), labels)
		if _, err := client.CoreV1().Pods(name).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return name
}

// queries returns the query of every recorded request, with continue tokens
// replaced by the position they encode: two clients listing the same
// collection at different moments get different tokens (each pins its own
// resourceVersion) for the same page.
func queries(t *testing.T, reqs []reqlog.Request) []url.Values {
	t.Helper()
	var out []url.Values
	for _, r := range reqs {
		q := url.Values{}
		for k, vs := range r.Query {
			for _, v := range vs {
				if k == "continue" {
					v = "start=" + continueStart(t, v)
				}
				q.Add(k, v)
			}
		}
		out = append(out, q)
	}
	return out
}

// continueStart decodes the key a continue token resumes from. The token is
// base64 JSON: {"v":"meta.k8s.io/v1","rv":123,"start":"pod-02\u0000"}.
func continueStart(t *testing.T, token string) string {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		t.Fatalf("continue token %q is not base64: %v", token, err)
	}
	var c struct {
		Start string `json:"start"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("continue token %q: %v", token, err)
	}
	return c.Start
}
