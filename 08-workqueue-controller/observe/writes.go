package observe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/record"
)

// eventRecorder is client-go's event recorder interface.
type eventRecorder = record.EventRecorder

// observedRecorder reports each Event the controller records, as the
// reconcile's write.
type observedRecorder struct {
	eventRecorder
	t *Tracer
}

func (r observedRecorder) Event(object runtime.Object, eventtype, reason, message string) {
	key, _ := keyOf(object)
	r.t.step(Step{Layer: LayerWrite, Op: "EVENT", Key: key, Object: "Foo " + key, Worker: r.t.workerFor(key), Detail: eventtype + " " + reason})
	r.eventRecorder.Event(object, eventtype, reason, message)
}

// transport reports each write the controller sends, when it is sent, and
// its answer when it comes: a write's row comes before the watch events it
// causes, whatever the goroutines do. Reads and Events (the recorder's
// rows say those) pass unseen.
func (t *Tracer) transport(next http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		w, ok := writeOf(req)
		if !ok {
			return next.RoundTrip(req)
		}
		worker := workerOf(req.Context())
		w.fooKey = t.fooKeyOf(w)
		t.step(Step{Layer: LayerWrite, Op: w.verb, Key: w.fooKey, Object: w.object, Worker: worker, Detail: w.detail, Sent: true})
		resp, err := next.RoundTrip(req)
		done := Step{Layer: LayerWrite, Op: w.verb, Key: w.fooKey, Object: w.object, Worker: worker, Err: err}
		if err == nil {
			body, readErr := readAnswer(resp)
			switch {
			case readErr != nil:
				done.Err = readErr // the answer was cut: the client gets this error too
			case resp.StatusCode >= 300:
				done.Err = statusError(resp, body)
			default:
				done.Detail = strings.TrimSpace(w.detail + " → " + answered(body))
			}
		}
		t.step(done)
		return resp, err
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// write is what a request writes, as a row says it.
type write struct {
	verb, object, detail string
	namespace, name      string
	foo                  bool // a Foo's status, not a Deployment
	fooKey               string
}

// writeOf reads a write of a Deployment or of a Foo's status from req.
func writeOf(req *http.Request) (write, bool) {
	verb := map[string]string{http.MethodPost: "CREATE", http.MethodPut: "UPDATE", http.MethodPatch: "PATCH", http.MethodDelete: "DELETE"}[req.Method]
	if verb == "" {
		return write{}, false
	}
	// /apis/GROUP/VERSION/namespaces/NS/RESOURCE[/NAME[/status]]
	parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
	i := indexOf(parts, "namespaces")
	if i < 0 || i+2 >= len(parts) {
		return write{}, false
	}
	w := write{verb: verb, namespace: parts[i+1]}
	resource := parts[i+2]
	if i+3 < len(parts) {
		w.name = parts[i+3]
	}
	body := peekBody(req)
	switch resource {
	case "deployments":
		if w.name == "" {
			w.name = nameIn(body)
		}
		w.object = "Deployment " + w.namespace + "/" + w.name
		if r, ok := nested(body, "spec", "replicas"); ok {
			w.detail = fmt.Sprintf("spec.replicas=%v", r)
		}
	case "foos":
		w.foo = true
		w.object = "Foo " + w.namespace + "/" + w.name
		if len(parts) > i+4 && parts[i+4] == "status" {
			w.object += " status"
			if a, ok := nested(body, "status", "availableReplicas"); ok {
				w.detail = fmt.Sprintf("status.availableReplicas=%v", a)
			}
		}
	default:
		return write{}, false
	}
	return w, true
}

// fooKeyOf is the key of the Foo a write is for.
func (t *Tracer) fooKeyOf(w write) string {
	if w.foo {
		return w.namespace + "/" + w.name
	}
	return t.fooOf(w.namespace + "/" + w.name)
}

// peekBody reads a request's body, and leaves it to be sent.
func peekBody(req *http.Request) map[string]any {
	if req.Body == nil || req.GetBody == nil {
		return nil
	}
	body, err := req.GetBody()
	if err != nil {
		return nil
	}
	defer body.Close()
	b, err := io.ReadAll(body)
	if err != nil {
		return nil
	}
	return decode(b)
}

// readAnswer reads a response's body for the answer's row, and gives the
// client the same: the bytes read, then, if the read broke (a connection
// cut under a response), the same error. The client then fails as it would
// unwatched, on the network's error, not on half an object.
func readAnswer(resp *http.Response) ([]byte, error) {
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	var body io.Reader = bytes.NewReader(b)
	if err != nil {
		body = io.MultiReader(body, errReader{err})
	}
	resp.Body = io.NopCloser(body)
	return b, err
}

// errReader fails every Read with err.
type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// answered is a successful answer's new resourceVersion.
func answered(body []byte) string {
	if rv, ok := nested(decode(body), "metadata", "resourceVersion"); ok {
		return fmt.Sprintf("rv=%v", rv)
	}
	return ""
}

// decode reads an object as a map: JSON as it is, anything else (a typed
// client sends protobuf) through client-go's scheme, then to a map.
func decode(b []byte) map[string]any {
	var m map[string]any
	if json.Unmarshal(b, &m) == nil {
		return m
	}
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(b, nil, nil)
	if err != nil {
		return nil
	}
	m, err = runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil
	}
	return m
}

// statusError is a refused write's error, as the client returns it: the
// API's StatusError from the Status in the body (apierrors.IsConflict and
// the like work on it), or the HTTP status.
func statusError(resp *http.Response, b []byte) error {
	var st metav1.Status
	if json.Unmarshal(b, &st) != nil {
		// A typed client speaks protobuf, and so does the answer.
		if obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(b, nil, nil); err == nil {
			if s, ok := obj.(*metav1.Status); ok {
				st = *s
			}
		}
	}
	if st.Message != "" {
		if st.Code == 0 {
			st.Code = int32(resp.StatusCode)
		}
		return &apierrors.StatusError{ErrStatus: st}
	}
	return fmt.Errorf("%s", resp.Status)
}

func nameIn(m map[string]any) string {
	n, _ := nested(m, "metadata", "name")
	s, _ := n.(string)
	return s
}

func nested(m map[string]any, path ...string) (any, bool) {
	var v any = m
	for _, p := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = mm[p]; !ok {
			return nil, false
		}
	}
	return v, true
}

func indexOf(parts []string, s string) int {
	for i, p := range parts {
		if p == s {
			return i
		}
	}
	return -1
}
