package main

import (
	"context"
	"fmt"
	listwatch "informer-from-scratch/01-listwatch"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/seqdiagram"
	"informer-from-scratch/internal/timeline"
)

// TestSequenceDiagram draws chapter 04's sequence diagram from this demo's
// own steps (fillFrom, addIndexes, askTheCache, printBuckets) with the
// demo's scene, served by a scripted apiserver: the Reflector fills the
// Indexer, indexes are added to the filled cache, a controller asks its
// questions, and two watch events move a key between buckets and empty one.
//
// How it is deterministic: seqdiagram.Server streams the scene and then
// the two changes one event at a time, inside a testing/synctest bubble;
// synctest.Wait after each event returns once the Reflector has written it
// into the Indexer. The questions run on the test's goroutine.
func TestSequenceDiagram(t *testing.T) {
	seqdiagram.CheckScripted(t, "04-indexer", "fill-index-ask", indexerSpec, func(t *testing.T, ctx context.Context, tl *timeline.Timeline) {
		srv := seqdiagram.NewServer(tl, "/api/v1/pods")
		s := &script{env: &demo.Env{Ctx: ctx, Timeline: tl, Writes: true}}

		watches := make(chan *watch.FakeWatcher, 1)
		go func() { // the server: the scene as a WatchList stream
			w := <-srv.Watches
			for _, p := range scene {
				w.Add(scenePod(p.ns, p.name, p.node, p.app, "72"))
			}
			w.Action(watch.Bookmark, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{ResourceVersion: "79",
				Annotations: map[string]string{metav1.InitialEventsAnnotationKey: "true"}}})
			watches <- w
		}()
		stop, err := s.fillFrom(&listwatch.ListWatch{ListWithContextFunc: srv.ListWithContext, WatchFuncWithContext: srv.WatchWithContext})
		if err != nil {
			t.Fatal(err)
		}
		w := <-watches
		if err := s.addIndexes(); err != nil {
			t.Fatal(err)
		}
		if err := s.askTheCache(); err != nil {
			t.Fatal(err)
		}

		s.printBuckets(sayBefore)
		tl.Event("demo", "PATCH", "shop/web-2", "app=cache")
		w.Modify(scenePod("shop", "web-2", "node-2", "cache", "80"))
		synctest.Wait()
		s.printBuckets(sayAfter)
		tl.Event("demo", "DELETE", "blog/worker-1", "the only app=worker pod")
		w.Delete(scenePod("blog", "worker-1", "node-1", "worker", "82"))
		synctest.Wait()
		values := s.idx.ListIndexFuncValues(byLabel)
		slices.Sort(values)
		tl.Event("index", byLabel, "values", strings.Join(values, " "))
		stop()
	})
}

// scenePod is a pod of the demo's scene, as the server holds it.
func scenePod(ns, name, node, app, rv string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, ResourceVersion: rv,
			Labels: map[string]string{"app": app, demoLabel: demoValue}},
		Spec: corev1.PodSpec{NodeName: node},
	}
}

// indexerSpec draws the Reflector's writes into the cache, the questions a
// controller asks it, and what moves in the indices.
var indexerSpec = seqdiagram.Spec{
	Participants: []seqdiagram.Participant{
		{ID: "R", Label: "Reflector"},
		{ID: "I", Label: "Indexer: items and indices"},
		{ID: "C", Label: "controller: indexes and listers"},
	},
	Arrows: func(row timeline.Row) []seqdiagram.Arrow {
		ask := func(question, answer string) []seqdiagram.Arrow {
			return []seqdiagram.Arrow{{From: "C", To: "I", Text: question}, {From: "I", To: "C", Reply: true, Text: answer}}
		}
		switch {
		case row.Kind == timeline.KindNote && strings.Contains(row.Detail, "HTTP request"):
			return []seqdiagram.Arrow{{Note: true, From: "I", To: "C", Text: row.Detail}}
		case row.Kind != timeline.KindEvent:
			return nil
		case row.Layer == "cache":
			return []seqdiagram.Arrow{{From: "R", To: "I", Text: row.What + " " + row.Object + " " + row.Protocol}}
		case row.Layer == "demo":
			return []seqdiagram.Arrow{{Note: true, From: "R", Text: "the server: " + row.What + " " + row.Object + ", " + row.Detail}}
		case row.Layer == "index" && row.What == byNode && row.Object == "node-1":
			// The first bucket AddIndexers filled: one arrow for the call.
			return []seqdiagram.Arrow{{From: "C", To: "I", Text: "AddIndexers(byNode, byLabel) on the filled cache"},
				{Note: true, From: "I", Text: "byNode node-1: " + row.Detail}}
		case row.Layer == "index" && row.What == "ADD":
			return ask("AddIndexers(byNode) again", "refused: "+strings.TrimPrefix(row.Protocol, "error: "))
		case row.Layer == "index" && row.What == "ByIndex":
			return ask(fmt.Sprintf("ByIndex(%s)", row.Object), row.Detail)
		case row.Layer == "index" && row.What == "IndexKeys":
			return ask(fmt.Sprintf("IndexKeys(%s)", row.Object), row.Protocol+", "+row.Explanation.EN)
		case row.Layer == "lister":
			return ask(fmt.Sprintf("lister %s(%s)", row.What, row.Object), strings.TrimPrefix(row.Detail, "error: "))
		case row.Layer == "index" && row.What == byLabel && row.Explanation != nil:
			// A bucket before or after the patch.
			return []seqdiagram.Arrow{{Note: true, From: "I", Text: "byLabel " + row.Object + " " + row.Explanation.EN + ": " + row.Protocol}}
		case row.Layer == "index" && row.Object == "values":
			return []seqdiagram.Arrow{{Note: true, From: "I", Text: "byLabel values now: " + row.Detail}}
		}
		return nil
	},
}
