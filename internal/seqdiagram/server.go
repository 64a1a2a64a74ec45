package seqdiagram

import (
	"context"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"informer-from-scratch/internal/reqlog"
	"informer-from-scratch/internal/timeline"
)

// Server is a scripted apiserver for one collection, for the scripted runs
// behind the diagrams: a ListerWatcher (stage 01's interface) whose LISTs
// return the lists the scenario queued, in order, and whose WATCHes hand
// the scenario a watch to feed, event by event. It prints every request as
// an "http" row, as internal/demo's TimelineClient prints what goes on the
// wire (the query is what the REST client would encode for those options),
// so the scripted run's timeline has the demo's rows.
//
// Nothing in it depends on timing: a watch's events go out when the
// scenario sends them (a FakeWatcher with no buffer, so each send waits for
// the reader), and a scenario inside a testing/synctest bubble calls
// synctest.Wait after each to let everything it caused happen.
type Server struct {
	tl   *timeline.Timeline
	path string

	mu    sync.Mutex
	lists []runtime.Object

	// Watches receives every watch the server opens, in order of request.
	Watches chan *watch.FakeWatcher
}

// NewServer serves the collection at path ("/api/v1/namespaces/demo/pods").
func NewServer(tl *timeline.Timeline, path string) *Server {
	return &Server{tl: tl, path: path, Watches: make(chan *watch.FakeWatcher, 16)}
}

// QueueList makes list the answer to the next LIST not yet answered.
func (s *Server) QueueList(list runtime.Object) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lists = append(s.lists, list)
}

// ListWithContext prints the request and answers with the next queued list.
func (s *Server) ListWithContext(_ context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	s.print(opts)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.lists) == 0 {
		return nil, fmt.Errorf("scripted server: a LIST the scenario did not expect (%s)", query(opts))
	}
	list := s.lists[0]
	s.lists = s.lists[1:]
	s.tl.Event("server", "LIST", s.path, answer(list))
	return list, nil
}

// WatchWithContext prints the request and opens a watch for the scenario to
// feed.
func (s *Server) WatchWithContext(_ context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	opts.Watch = true // what the REST client's watch sets (01-listwatch's fromclient.go)
	s.print(opts)
	w := watch.NewFakeWithChanSize(0, false)
	s.Watches <- w
	return w, nil
}

// List is ListWithContext without a context.
func (s *Server) List(opts metav1.ListOptions) (runtime.Object, error) {
	return s.ListWithContext(context.Background(), opts)
}

// Watch is WatchWithContext without a context.
func (s *Server) Watch(opts metav1.ListOptions) (watch.Interface, error) {
	return s.WatchWithContext(context.Background(), opts)
}

func (s *Server) print(opts metav1.ListOptions) {
	s.tl.Event("http", "GET", s.path, query(opts))
}

// answer says what a LIST returns: how many items, at which resourceVersion.
func answer(list runtime.Object) string {
	m, err := meta.ListAccessor(list)
	if err != nil {
		return fmt.Sprintf("a %T", list)
	}
	return fmt.Sprintf("%d items, rv=%s", meta.LenList(list), m.GetResourceVersion())
}

// query is the request's query string as reqlog prints it.
func query(opts metav1.ListOptions) string {
	values, err := metav1.ParameterCodec.EncodeParameters(&opts, schema.GroupVersion{Version: "v1"})
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return reqlog.Request{Query: values}.QueryString()
}
