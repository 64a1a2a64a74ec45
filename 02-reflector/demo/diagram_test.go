package main

import (
	"context"
	listwatch "informer-from-scratch/01-listwatch"
	"net/url"
	"strings"
	"testing"
	"testing/synctest"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	reflector "informer-from-scratch/02-reflector"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/seqdiagram"
	"informer-from-scratch/internal/timeline"
)

// TestSequenceDiagram draws chapter 02's two sequence diagrams from this
// demo's own code (its reflector runner, printing store and watch rows) run
// against a scripted apiserver instead of the playground.
//
// How it is deterministic: the apiserver is seqdiagram.Server, whose lists
// are fixed and whose watch events are sent one at a time by the test; the
// whole run is in a testing/synctest bubble, and after each event
// synctest.Wait returns only once the reflector has done everything the
// event causes, so rows never race. The backoff after the 410 is random,
// but in the bubble it only moves the fake clock, which the diagram does
// not show; so are the watches' random timeoutSeconds, which it leaves out.
func TestSequenceDiagram(t *testing.T) {
	t.Run("list-watch-relist", func(t *testing.T) { check(t, "list-watch-relist", listWatchRelist) })
	t.Run("watchlist", func(t *testing.T) { check(t, "watchlist", watchListStream) })
}

// check runs scenario against a scripted apiserver and checks its drawing
// against the chapter's block called name.
func check(t *testing.T, name string, scenario func(s *script, srv *seqdiagram.Server)) {
	seqdiagram.CheckScripted(t, "02-reflector", name, reflectorSpec, func(t *testing.T, ctx context.Context, tl *timeline.Timeline) {
		srv := seqdiagram.NewServer(tl, "/api/v1/namespaces/stage02/pods")
		s := &script{env: &demo.Env{Ctx: ctx, Writes: true}, tl: tl, ns: "stage02", lw: &listwatch.ListWatch{ListWithContextFunc: srv.ListWithContext, WatchFuncWithContext: srv.WatchWithContext}}
		scenario(s, srv)
	})
}

// listWatchRelist: LIST then WATCH, an event, a bookmark, the server ending
// the watch, a 410 on the next one, and the relist after the backoff.
func listWatchRelist(s *script, srv *seqdiagram.Server) {
	srv.QueueList(podList("73", pod("web-1", "71"), pod("web-2", "72"), pod("web-3", "73")))
	srv.QueueList(podList("80", pod("web-1", "71"), pod("web-2", "72"), pod("web-4", "74")))
	run := s.start(reflector.ReflectorOptions{Name: "list-watch", UseWatchList: ptr.To(false)})

	w := <-srv.Watches
	send(w, watch.Event{Type: watch.Added, Object: pod("web-4", "74")})
	send(w, watch.Event{Type: watch.Bookmark, Object: bookmark("79", false)})
	s.tl.NoteEN("no object changed: the last synced rv is now 79")
	s.tl.Event("server", "END", "the watch", "its timeoutSeconds passed")
	w.Stop()

	w = <-srv.Watches
	s.tl.NoteEN("meanwhile web-3 was deleted, and etcd compacted past 79")
	expired := apierrors.NewResourceExpired("too old resource version: 79 (80)").ErrStatus
	send(w, watch.Event{Type: watch.Error, Object: &expired})
	s.tl.NoteEN("ListAndWatch returns: backoff 0.8s to 1.6s, then a relist")

	<-srv.Watches // the watch after the relist: it stays open
	synctest.Wait()
	s.stop(run)
}

// watchListStream: one WatchList request, the initial events into the
// temporary store, the bookmark that ends them, and the stream carrying on.
func watchListStream(s *script, srv *seqdiagram.Server) {
	run := s.start(reflector.ReflectorOptions{Name: "watch-list", UseWatchList: ptr.To(true)})
	w := <-srv.Watches
	for _, p := range []*corev1.Pod{pod("web-1", "71"), pod("web-2", "72"), pod("web-4", "74")} {
		send(w, watch.Event{Type: watch.Added, Object: p})
	}
	s.tl.NoteEN("held in a temporary store: the store sees nothing yet")
	send(w, watch.Event{Type: watch.Bookmark, Object: bookmark("80", true)})
	send(w, watch.Event{Type: watch.Added, Object: pod("web-6", "81")})
	s.stop(run)
}

// send hands one event to the reflector and waits until it has done all the
// event causes.
func send(w *watch.FakeWatcher, e watch.Event) {
	w.Action(e.Type, e.Object)
	synctest.Wait()
}

func pod(name, rv string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "stage02", Name: name, ResourceVersion: rv}}
}

func podList(rv string, pods ...*corev1.Pod) *corev1.PodList {
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: rv}}
	for _, p := range pods {
		list.Items = append(list.Items, *p)
	}
	return list
}

// bookmark is a BOOKMARK's object: only a resourceVersion, and for the one
// that ends a WatchList's initial events, the annotation that says so.
func bookmark(rv string, initialEventsEnd bool) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: rv}}
	if initialEventsEnd {
		p.Annotations = map[string]string{metav1.InitialEventsAnnotationKey: "true"}
	}
	return p
}

// reflectorSpec draws the rows this demo prints: the reflector's requests,
// the events that come back, and the calls it makes on its store.
var reflectorSpec = seqdiagram.Spec{
	Participants: []seqdiagram.Participant{{ID: "R", Label: "Reflector"}, {ID: "A", Label: "kube-apiserver"}, {ID: "S", Label: "store"}},
	Arrows: func(row timeline.Row) []seqdiagram.Arrow {
		switch {
		case row.Kind == timeline.KindNote:
			return []seqdiagram.Arrow{{Note: true, From: "R", Text: row.Detail}}
		case row.Kind != timeline.KindEvent:
			return nil
		case row.Layer == "http":
			return []seqdiagram.Arrow{{From: "R", To: "A", Text: request(row.Detail)}}
		case row.Layer == "watch":
			text := row.What + " " + strings.TrimPrefix(row.Object, "stage02/") + " " + row.Detail
			text = strings.Replace(text, " - ", " ", 1)
			if row.What == "ERROR" {
				text = "ERROR " + strings.Join(strings.Fields(row.Protocol)[:2], " ") // the code and the reason
			}
			return []seqdiagram.Arrow{{From: "A", To: "R", Reply: true, Text: text}}
		case row.Layer == "server" && row.What == "LIST":
			return []seqdiagram.Arrow{{From: "A", To: "R", Reply: true, Text: row.Detail}}
		case row.Layer == "server":
			return []seqdiagram.Arrow{{From: "A", To: "R", Reply: true, Text: "the stream ends: " + row.Detail}}
		case row.Layer == "store":
			rv, _, _ := strings.Cut(row.Detail, " ")
			if row.Object == "-" {
				return []seqdiagram.Arrow{{From: "R", To: "S", Text: row.What + " " + rv}}
			}
			return []seqdiagram.Arrow{{From: "R", To: "S", Text: row.What + "(" + strings.TrimPrefix(row.Object, "stage02/") + ") " + rv}}
		}
		return nil
	},
}

// request names a LIST or WATCH by the parameters that decide what it
// returns: not the random timeoutSeconds, nor allowWatchBookmarks, which
// every watch of a reflector sends.
func request(query string) string {
	q, _ := url.ParseQuery(query)
	rv := "rv=" + q.Get("resourceVersion")
	if !q.Has("resourceVersion") {
		rv = "rv unset"
	}
	if q.Get("watch") != "true" {
		limit := "no limit"
		if q.Has("limit") {
			limit = "limit=" + q.Get("limit")
		}
		return "LIST " + rv + " " + limit
	}
	if q.Get("sendInitialEvents") == "true" {
		return "WATCH sendInitialEvents=true, " + rv + ", " + q.Get("resourceVersionMatch")
	}
	return "WATCH " + rv
}
