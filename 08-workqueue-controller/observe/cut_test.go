package observe

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

// errCut is the network's error on a response cut halfway through.
var errCut = errors.New("connection reset by peer (injected)")

// cutBody is an answer's body that breaks after its first bytes, as a
// response does when the connection drops under it (the chaos harness's
// cut, the demo's --chaos).
type cutBody struct{ r io.Reader }

func (b *cutBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		return n, errCut
	}
	return n, err
}

func (b *cutBody) Close() error { return nil }

// cutServer answers every request with a 201 whose body is cut after a few
// bytes of a Deployment.
type cutServer struct{}

func (cutServer) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		io.Copy(io.Discard, req.Body)
		req.Body.Close()
	}
	return &http.Response{
		StatusCode: http.StatusCreated,
		Status:     "201 Created",
		Header:     http.Header{"Content-Type": {"application/json"}},
		Body:       &cutBody{r: strings.NewReader(`{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"na`)},
		Request:    req,
	}, nil
}

// TestTransportPassesACutAnswerOn: watching a write must not change what
// the client sees. A response cut halfway reaches the client as the
// network's error, watched or not; a tracer that read the answer, kept the
// bytes and dropped the error would hand the client half an object, which
// it reports as a decode error instead, and the error it should have
// retried on is gone.
func TestTransportPassesACutAnswerOn(t *testing.T) {
	create := func(cfg *rest.Config) error {
		kube, err := kubernetes.NewForConfig(cfg)
		if err != nil {
			t.Fatal(err)
		}
		d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a-web"}}
		_, err = kube.AppsV1().Deployments("ns").Create(context.Background(), d, metav1.CreateOptions{})
		return err
	}
	cfg := &rest.Config{Host: "https://example.invalid", Transport: cutServer{}, ContentConfig: rest.ContentConfig{ContentType: "application/json"}}

	unwatched := create(cfg)
	if !errors.Is(unwatched, errCut) {
		t.Fatalf("unwatched: the client got %v, want the network's error (%v)", unwatched, errCut)
	}

	var rows []Step
	tr := New(func(s Step) { rows = append(rows, s) })
	if err := create(tr.Config(cfg)); !errors.Is(err, errCut) {
		t.Errorf("watched: the client got %v; unwatched, it got %v: the tracer changed what the client sees", err, unwatched)
	}
	if len(rows) != 2 || !errors.Is(rows[1].Err, errCut) {
		t.Errorf("rows %+v: want the write's two rows, the answer's with the cut", rows)
	}
}
