package main

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"informer-from-scratch/06-sharedinformer/observe"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/seqdiagram"
	"informer-from-scratch/internal/timeline"
)

// TestSequenceDiagram draws chapter 06's sequence diagram from this demo's
// own code (start, lateHandler, the Observer's trail of rows, showCache)
// over a scripted apiserver: the initial WatchList, one pod created, a
// handler added late, and a relist after a 410 that finds a pod gone.
//
// How it is deterministic: the run is in a testing/synctest bubble, the
// server's events are sent one at a time by the test, and each stimulus
// comes a fake second after the last, so rows of different steps never
// share an instant. Within a step, processLoop, each handler and the test
// print from their own goroutines; the diagram orders rows of the same
// instant by the goroutine that printed them (Arrow.Lane), which keeps
// each goroutine's own order. The objects of one list come in map order, in
// client-go as in ours (the WatchList's temporary store, the cache replayed
// to the late handler): the diagram sorts each such run by name
// (Arrow.Unordered); a tombstone, whose place the code fixes, is left where
// it is. The relist's backoff is random, but only on the fake clock, which
// the diagram does not show.
func TestSequenceDiagram(t *testing.T) {
	seqdiagram.CheckScripted(t, "06-sharedinformer", "one-pod-late-handler-relist", informerSpec, func(t *testing.T, ctx context.Context, tl *timeline.Timeline) {
		srv := seqdiagram.NewServer(tl, "/api/v1/namespaces/stage06/pods")
		env := &demo.Env{Ctx: ctx, Timeline: tl, Writes: true}
		s, err := newScript(env, "realfifo")
		if err != nil {
			t.Fatal(err)
		}
		s.ns, s.source = "stage06", srv

		streamed := make(chan *watch.FakeWatcher)
		stream := func(rv string, pods ...*corev1.Pod) { // the server's WatchList answer
			w := <-srv.Watches
			for _, p := range pods {
				w.Add(p)
			}
			w.Action(watch.Bookmark, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: rv,
				Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}})
			streamed <- w
		}
		go stream("70", pod("web-1", "68"), pod("web-2", "69"), pod("web-3", "70"))
		if err := s.start(); err != nil {
			t.Fatal(err)
		}
		w := <-streamed

		time.Sleep(time.Second)
		tl.Event("demo", "CREATE", "stage06/web-4", "on the server")
		w.Add(pod("web-4", "71"))
		synctest.Wait()

		time.Sleep(time.Second)
		if err := s.lateHandler(); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()

		time.Sleep(time.Second)
		s.lw.Cut()
		tl.Event("demo", "CUT", "the informer's connection", "")
		tl.Event("demo", "DELETE", "stage06/web-3", "on the server, while nobody watches; etcd compacts")
		synctest.Wait()
		s.lw.Restore()
		w = <-srv.Watches
		expired := apierrors.NewResourceExpired("too old resource version: 71 (78)").ErrStatus
		w.Action(watch.Error, &expired)
		go stream("78", pod("web-1", "68"), pod("web-2", "69"), pod("web-4", "71"), pod("web-5", "77"))
		<-streamed
		synctest.Wait()
		s.showCache()
		if err := s.stop(); err != nil {
			t.Fatal(err)
		}
	})
}

func pod(name, rv string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "stage06", Name: name, ResourceVersion: rv}}
}

// informerSpec draws the Observer's rows: each layer a lifeline, each
// handler one (metrics is left out: it gets what audit gets).
var informerSpec = seqdiagram.Spec{
	Participants: []seqdiagram.Participant{
		{ID: "R", Label: "Reflector"},
		{ID: "Q", Label: "RealFIFO"},
		{ID: "L", Label: "processLoop: handleDeltas"},
		{ID: "I", Label: "Indexer"},
		{ID: "P", Label: "processor"},
		{ID: "A", Label: "handler audit"},
		{ID: "T", Label: "handler late"},
	},
	SameInstantByLane: true,
	Arrows: func(row timeline.Row) []seqdiagram.Arrow {
		key := strings.TrimPrefix(row.Fields["key"], "stage06/")
		what := strings.TrimSpace(row.What + " " + key)
		if key == "" {
			what = strings.TrimSpace(row.What + " " + strings.TrimPrefix(row.Object, "-"))
		}
		rv := ""
		if v := row.Fields["rv"]; v != "" {
			rv = " rv=" + v
		}
		flags := ""
		if strings.Contains(row.Detail, "isInInitialList=true") {
			flags += " (initial)"
		}
		if row.Explanation != nil && strings.Contains(row.Explanation.EN, "same rv: a sync") {
			flags += " (same rv: a sync)"
		}
		if strings.Contains(row.Detail, "DeletedFinalStateUnknown") {
			flags += " (tombstone)"
		}
		handler := map[string]string{"audit": "A", "late": "T"}[row.Fields["handler"]]
		unordered := key // one list's objects, in map order
		if flags == " (tombstone)" || row.Layer == string(observe.LayerReflector) || row.Layer == string(observe.LayerQueue) {
			unordered = ""
		}
		switch {
		case row.Kind == timeline.KindNote && strings.HasPrefix(row.Detail, "Cache:"):
			return []seqdiagram.Arrow{{Note: true, From: "I", Lane: "I", Text: row.Detail}}
		case row.Kind != timeline.KindEvent:
			return nil
		case row.Layer == "demo":
			return []seqdiagram.Arrow{{Note: true, From: "R", Text: "the server: " + strings.TrimSpace(row.What+" "+strings.TrimPrefix(row.Object, "stage06/")+" "+row.Detail)}}
		case row.Layer == "watch":
			return []seqdiagram.Arrow{{Note: true, From: "R", Text: "the watch: " + row.Protocol + ": " + row.Explanation.EN}}
		case row.Layer == "synced" && (row.Object == "audit" || row.Object == "late"):
			lane := map[string]string{"audit": "A", "late": "T"}[row.Object]
			return []seqdiagram.Arrow{{Note: true, From: lane, Lane: lane, Text: "registration HasSynced"}}
		case row.Layer == "synced" && row.ObjectText != nil && row.ObjectText.EN == "the informer":
			return []seqdiagram.Arrow{{Note: true, From: "L", Lane: "L", Text: "the informer's HasSynced"}}
		case row.Layer == string(observe.LayerReflector):
			return []seqdiagram.Arrow{{From: "R", To: "Q", Text: what + rv}}
		case row.Layer == string(observe.LayerQueue):
			return []seqdiagram.Arrow{{From: "Q", To: "L", Lane: "L", Reply: true, Text: "Pop: " + what + rv + flags}}
		case row.Layer == string(observe.LayerIndexer):
			return []seqdiagram.Arrow{{From: "L", To: "I", Text: what + rv, Unordered: unordered}}
		case row.Layer == string(observe.LayerProcessor) && row.What == "replay":
			if handler == "" {
				return nil
			}
			return []seqdiagram.Arrow{{From: "I", To: handler, Lane: "I", Text: "replay " + key + rv + flags, Unordered: unordered}}
		case row.Layer == string(observe.LayerProcessor):
			return []seqdiagram.Arrow{{From: "L", To: "P", Text: what + rv + flags, Unordered: unordered}}
		case row.Layer == string(observe.LayerHandler) && handler != "":
			return []seqdiagram.Arrow{{From: "P", To: handler, Lane: handler, Text: what + rv + flags, Unordered: unordered}}
		}
		return nil
	},
}
