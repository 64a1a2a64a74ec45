package seqdiagram

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"

	"informer-from-scratch/internal/timeline"
)

// Transport is a scripted apiserver behind a real clientset, for the
// scripted runs of code that takes a kubernetes.Interface (stage 07's
// factory): an http.RoundTripper in memory, with no socket, so all it does
// stays inside a testing/synctest bubble (a socket read is not a durable
// block; a pipe read is). It answers only what a reflector sends first by
// default in v0.37, a WatchList (watch=true&sendInitialEvents=true): the
// objects Serve gave for that path as ADDED events, then the BOOKMARK with
// the k8s.io/initial-events-end annotation, in JSON framed as the
// apiserver frames it (one metav1.WatchEvent per line); then the stream
// stays open, silent, until the request's context ends. Any other request
// is an error, so a scenario that sends one fails instead of drawing it.
type Transport struct {
	tl *timeline.Timeline

	mu          sync.Mutex
	collections map[string]collection // by URL path
}

type collection struct {
	rv      string
	objects []runtime.Object
	empty   func() runtime.Object // for the bookmark: the collection's type, empty
}

var _ http.RoundTripper = &Transport{}

// NewTransport returns a transport that prints a "server" row for each
// answer on tl.
func NewTransport(tl *timeline.Timeline) *Transport {
	return &Transport{tl: tl, collections: map[string]collection{}}
}

// Serve makes objects, at resourceVersion rv, the initial events of every
// WatchList of path ("/api/v1/namespaces/demo/pods"). like is an object of
// the collection's type (the bookmark is one), needed when objects is empty.
func (t *Transport) Serve(path, rv string, like runtime.Object, objects ...runtime.Object) {
	typ := reflect.TypeOf(like).Elem()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.collections[path] = collection{rv: rv, objects: objects, empty: func() runtime.Object {
		return reflect.New(typ).Interface().(runtime.Object)
	}}
}

// Config is a rest.Config whose requests this transport answers.
func (t *Transport) Config() *rest.Config {
	return &rest.Config{Host: "http://scripted.apiserver", Transport: t}
}

// RoundTrip answers a WatchList of a served path; it prints the answer on
// the goroutine that asked (the reflector's), before the events are read.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	q := req.URL.Query()
	t.mu.Lock()
	c, ok := t.collections[req.URL.Path]
	t.mu.Unlock()
	if !ok || req.Method != http.MethodGet || q.Get("watch") != "true" || q.Get("sendInitialEvents") != "true" {
		return nil, fmt.Errorf("scripted apiserver: a request the scenario did not expect: %s %s", req.Method, req.URL)
	}
	var body bytes.Buffer
	for _, obj := range c.objects {
		if err := writeEvent(&body, watch.Added, obj); err != nil {
			return nil, err
		}
	}
	bookmark := c.empty()
	m, err := meta.Accessor(bookmark)
	if err != nil {
		return nil, err
	}
	m.SetResourceVersion(c.rv)
	m.SetAnnotations(map[string]string{metav1.InitialEventsAnnotationKey: "true"})
	if err := writeEvent(&body, watch.Bookmark, bookmark); err != nil {
		return nil, err
	}
	t.tl.Event("server", "WATCH", req.URL.Path, fmt.Sprintf("%d ADDED, then BOOKMARK rv=%s (initial-events-end)", len(c.objects), c.rv))

	// The events, then nothing until the client goes away, as a watch
	// with no changes to report.
	r, w := io.Pipe()
	go func() {
		_, err := w.Write(body.Bytes())
		if err == nil {
			<-req.Context().Done()
		}
		w.Close()
	}()
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": []string{runtime.ContentTypeJSON}},
		Body:       r,
		Request:    req,
	}, nil
}

// writeEvent writes one watch event as the apiserver frames it in JSON:
// the object encoded whole (kind and apiVersion set) inside a WatchEvent,
// one per line.
func writeEvent(w io.Writer, typ watch.EventType, obj runtime.Object) error {
	codec := scheme.Codecs.LegacyCodec(scheme.Scheme.PrioritizedVersionsAllGroups()...)
	raw, err := runtime.Encode(codec, obj)
	if err != nil {
		return err
	}
	event, err := json.Marshal(metav1.WatchEvent{Type: string(typ), Object: runtime.RawExtension{Raw: bytes.TrimSpace(raw)}})
	if err != nil {
		return err
	}
	_, err = w.Write(append(event, '\n'))
	return err
}
