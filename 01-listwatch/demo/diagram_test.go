package main

import (
	"context"
	listwatch "informer-from-scratch/01-listwatch"
	"net/url"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/seqdiagram"
	"informer-from-scratch/internal/timeline"
)

// TestSequenceDiagram draws chapter 01's sequence diagram from this demo's
// own steps (listInPages and its pager rows, printEvent's watch rows) run
// against a scripted apiserver instead of the playground: the pages and the
// events are fixed, so are the resourceVersions.
//
// How it is deterministic: seqdiagram.Server answers each LIST with the
// next prepared page and hands each WATCH to the test, which sends its
// events one at a time; everything runs on the test's goroutine but the
// fake watches, inside a testing/synctest bubble.
func TestSequenceDiagram(t *testing.T) {
	seqdiagram.CheckScripted(t, "01-listwatch", "list-watch-watchlist", listWatchSpec, func(t *testing.T, ctx context.Context, tl *timeline.Timeline) {
		srv := seqdiagram.NewServer(tl, "/api/v1/namespaces/stage01/pods")
		s := &script{env: &demo.Env{Ctx: ctx, Timeline: tl, Writes: true}, ns: "stage01"}
		lw := &listwatch.ListWatch{ListWithContextFunc: srv.ListWithContext, WatchFuncWithContext: srv.WatchWithContext}

		srv.QueueList(page("74", "next-page-02", pod("web-1", "70"), pod("web-2", "71")))
		srv.QueueList(page("74", "next-page-03", pod("web-3", "72"), pod("web-4", "73")))
		srv.QueueList(page("74", "", pod("web-5", "74")))
		rv, err := s.listInPages(lw)
		if err != nil {
			t.Fatal(err)
		}

		// WATCH from the list's resourceVersion, with the demo's options.
		w, err := lw.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true, TimeoutSeconds: ptr.To[int64](60)})
		if err != nil {
			t.Fatal(err)
		}
		fw := <-srv.Watches
		gold := pod("web-1", "75")
		gold.Labels = map[string]string{"tier": "gold"}
		deleting := pod("web-2", "76")
		deleting.DeletionTimestamp = &metav1.Time{}
		for _, e := range []watch.Event{
			{Type: watch.Modified, Object: gold},
			{Type: watch.Modified, Object: deleting},
			{Type: watch.Deleted, Object: pod("web-2", "77")},
			{Type: watch.Added, Object: pod("web-6", "78")},
		} {
			relay(t, s, fw, w, e)
		}
		w.Stop()

		// The same state and changes as one WatchList request.
		tl.NoteEN("one WatchList request replaces all of the above")
		w, err = lw.WatchWithContext(ctx, metav1.ListOptions{
			SendInitialEvents:    ptr.To(true),
			ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
			AllowWatchBookmarks:  true,
			TimeoutSeconds:       ptr.To[int64](60),
		})
		if err != nil {
			t.Fatal(err)
		}
		fw = <-srv.Watches
		end := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "78", Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}}
		for _, e := range []watch.Event{
			{Type: watch.Added, Object: gold},
			{Type: watch.Added, Object: pod("web-3", "72")},
			{Type: watch.Added, Object: pod("web-4", "73")},
			{Type: watch.Added, Object: pod("web-5", "74")},
			{Type: watch.Added, Object: pod("web-6", "78")},
			{Type: watch.Bookmark, Object: end},
			{Type: watch.Added, Object: pod("web-7", "79")},
		} {
			relay(t, s, fw, w, e)
		}
		w.Stop()
	})
}

// relay sends e as the server and prints it as the demo does on receipt.
func relay(t *testing.T, s *script, server *watch.FakeWatcher, client watch.Interface, e watch.Event) {
	t.Helper()
	go server.Action(e.Type, e.Object)
	got, ok := <-client.ResultChan()
	if !ok {
		t.Fatal("the watch closed")
	}
	if err := s.printEvent(got); err != nil {
		t.Fatal(err)
	}
}

func pod(name, rv string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "stage01", Name: name, ResourceVersion: rv}}
}

// page is one page of a paginated LIST: its items, the snapshot's
// resourceVersion, and the token for the next page ("" on the last).
func page(rv, next string, pods ...*corev1.Pod) *corev1.PodList {
	list := &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: rv, Continue: next}}
	for _, p := range pods {
		list.Items = append(list.Items, *p)
	}
	return list
}

// listWatchSpec draws the requests the ListWatch sends and what comes back,
// as the demo's pager and watch rows say it.
var listWatchSpec = seqdiagram.Spec{
	Participants: []seqdiagram.Participant{{ID: "C", Label: "client: ListWatch + pager"}, {ID: "A", Label: "kube-apiserver"}},
	Arrows: func(row timeline.Row) []seqdiagram.Arrow {
		switch {
		case row.Kind == timeline.KindNote && strings.HasPrefix(row.Detail, "one WatchList"):
			return []seqdiagram.Arrow{{Note: true, From: "C", To: "A", Text: row.Detail}}
		case row.Kind != timeline.KindEvent:
			return nil
		case row.Layer == "http":
			return []seqdiagram.Arrow{{From: "C", To: "A", Text: "GET pods?" + wire(row.Detail)}}
		case row.Layer == "pager" && row.What == "PAGE":
			page, _, _ := strings.Cut(row.Object, ":")
			// The last page's continue as the diagram has always said it.
			detail := strings.Replace(row.Protocol, `continue=""`, "continue=(none: last page)", 1)
			return []seqdiagram.Arrow{{From: "A", To: "C", Reply: true, Text: strings.TrimPrefix(row.Object, page+": ") + ", " + detail}}
		case row.Layer == "pager":
			return []seqdiagram.Arrow{{Note: true, From: "C", Text: row.Object + ", " + row.Detail}}
		case row.Layer == "watch":
			name := strings.TrimPrefix(row.Object, "stage01/")
			detail := row.Protocol
			if row.Explanation != nil && strings.HasPrefix(row.Explanation.EN, "deletionTimestamp set") {
				detail += " deletionTimestamp set"
			}
			return []seqdiagram.Arrow{{From: "A", To: "C", Reply: true, Text: strings.TrimSpace(row.What + " " + strings.TrimPrefix(name, "-") + " " + detail)}}
		}
		return nil
	},
}

// wire is the query as sent, without timeoutSeconds, which every watch of
// the demo sets to 60.
func wire(query string) string {
	q, _ := url.ParseQuery(query)
	q.Del("timeoutSeconds")
	s, _ := url.QueryUnescape(q.Encode())
	return s
}
