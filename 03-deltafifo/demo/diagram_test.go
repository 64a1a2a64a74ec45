package main

import (
	"context"
	listwatch "informer-from-scratch/01-listwatch"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/seqdiagram"
	"informer-from-scratch/internal/timeline"
)

// TestSequenceDiagram draws chapter 03's sequence diagram from this demo's
// own code: its queues (a DeltaFIFO and a RealFIFO fed the same writes, and
// the consumer of each), its relist and its feed of watch events, with the
// lists and events scripted instead of read from the playground.
//
// How it is deterministic: nothing runs concurrently. The demo plays the
// Reflector by hand on the test's goroutine, the queues are popped until
// empty on it too (the demo closes them so a Pop on an empty queue returns),
// and seqdiagram.Server's lists and the events are fixed. (CheckScripted
// runs it in a testing/synctest bubble, like every demo's; here the bubble
// has nothing to order.)
func TestSequenceDiagram(t *testing.T) {
	seqdiagram.CheckScripted(t, "03-deltafifo", "two-queues", queuesSpec, func(t *testing.T, ctx context.Context, tl *timeline.Timeline) {
		srv := seqdiagram.NewServer(tl, "/api/v1/namespaces/stage03/configmaps")
		s := &script{env: &demo.Env{Ctx: ctx, Timeline: tl, Writes: true}, ns: "stage03", lw: &listwatch.ListWatch{ListWithContextFunc: srv.ListWithContext, WatchFuncWithContext: srv.WatchWithContext}, q: newQueues(tl)}
		drain := func() {
			deltaRows, _, err := s.q.drainDelta()
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range deltaRows {
				tl.Event("deltafifo", "Pop", "", row)
			}
			realRows, _, err := s.q.drainReal()
			if err != nil {
				t.Fatal(err)
			}
			for _, row := range realRows {
				tl.Event("realfifo", "Pop", "", row)
			}
			s.q.fed = nil // as drain does: gaps are counted from one drain to the next
		}

		srv.QueueList(configMaps("68", cm("web-1", "67"), cm("web-2", "68")))
		if err := s.relist(); err != nil {
			t.Fatal(err)
		}
		drain()

		tl.NoteEN("four changes arrive before anyone pops")
		for _, e := range []watch.Event{
			{Type: watch.Modified, Object: cm("web-1", "69")},
			{Type: watch.Added, Object: cm("web-3", "70")},
			{Type: watch.Modified, Object: cm("web-1", "71")},
			{Type: watch.Deleted, Object: cm("web-2", "72")},
		} {
			if err := s.feed(e); err != nil {
				t.Fatal(err)
			}
		}
		drain()

		tl.NoteEN("the watch breaks; web-1 is deleted meanwhile; a relist")
		srv.QueueList(configMaps("75", cm("web-3", "70"), cm("web-4", "75")))
		if err := s.relist(); err != nil {
			t.Fatal(err)
		}
		drain()
	})
}

func cm(name, rv string) *corev1.ConfigMap {
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "stage03", Name: name, ResourceVersion: rv}}
}

func configMaps(rv string, items ...*corev1.ConfigMap) *corev1.ConfigMapList {
	list := &corev1.ConfigMapList{ListMeta: metav1.ListMeta{ResourceVersion: rv}}
	for _, c := range items {
		list.Items = append(list.Items, *c)
	}
	return list
}

// queuesSpec draws the Reflector's calls on both queues and what each
// queue's Pop hands its consumer.
var queuesSpec = seqdiagram.Spec{
	Participants: []seqdiagram.Participant{
		{ID: "R", Label: "Reflector (the demo)"},
		{ID: "D", Label: "DeltaFIFO"},
		{ID: "F", Label: "RealFIFO"},
		{ID: "C", Label: "consumer (the informer)"},
	},
	Arrows: func(row timeline.Row) []seqdiagram.Arrow {
		both := func(text string) []seqdiagram.Arrow {
			return []seqdiagram.Arrow{{From: "R", To: "D", Text: text}, {From: "R", To: "F", Text: text}}
		}
		switch {
		case row.Kind == timeline.KindNote:
			return []seqdiagram.Arrow{{Note: true, From: "R", To: "C", Text: row.Detail}}
		case row.Kind != timeline.KindEvent:
			return nil
		case row.Layer == "list":
			// "rv=75 [web-3@70 web-4@75]", then the explanation
			rv, items, _ := strings.Cut(row.Protocol, " ")
			return both("Replace(" + strings.Trim(items, "[]") + ", " + rv + ")")
		case row.Layer == "watch":
			call := map[string]string{"ADDED": "Add", "MODIFIED": "Update", "DELETED": "Delete"}[row.What]
			rv, _, _ := strings.Cut(strings.TrimPrefix(row.Protocol, "rv="), " ")
			return both(call + " " + row.Object + "@" + rv)
		case row.Layer == "deltafifo":
			return []seqdiagram.Arrow{{From: "D", To: "C", Reply: true, Text: "Pop: " + row.Detail}}
		case row.Layer == "realfifo" && strings.HasPrefix(strings.TrimSpace(row.Detail), "↳"):
			return []seqdiagram.Arrow{{Note: true, From: "C", Text: strings.TrimPrefix(strings.TrimSpace(row.Detail), "↳ consumer: ")}}
		case row.Layer == "realfifo":
			return []seqdiagram.Arrow{{From: "F", To: "C", Reply: true, Text: "Pop: " + row.Detail}}
		}
		return nil
	},
}
