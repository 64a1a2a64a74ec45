package main

import (
	"context"
	"fmt"
	listwatch "informer-from-scratch/01-listwatch"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/seqdiagram"
	"informer-from-scratch/internal/timeline"
)

// TestSequenceDiagram draws chapter 05's sequence diagram from this demo's
// own code (registerAndStart, the stand-in informer, the three handlers and
// their rows) over a scripted apiserver: three pods listed, a burst of four
// changes, then the resync tick.
//
// How it is deterministic: the run is in a testing/synctest bubble, so the
// slow handler's 400ms and the 5s resync period pass on a fake clock and
// every row's offset is the same on every run (the diagram shows the slow
// handler's). Within one instant the handlers' goroutines run in any order,
// so the diagram orders rows of the same instant by lifeline
// (Spec.SameInstantByLane): each lifeline's rows come from one goroutine,
// in their own order.
func TestSequenceDiagram(t *testing.T) {
	seqdiagram.CheckScripted(t, "05-processor", "fan-out", processorSpec, func(t *testing.T, ctx context.Context, tl *timeline.Timeline) {
		srv := seqdiagram.NewServer(tl, "/api/v1/namespaces/stage05/pods")
		s := &script{env: &demo.Env{Ctx: ctx, Timeline: tl, Writes: true}, tl: tl, ns: "stage05", lw: &listwatch.ListWatch{ListWithContextFunc: srv.ListWithContext, WatchFuncWithContext: srv.WatchWithContext}}

		srv.QueueList(&corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "70"},
			Items: []corev1.Pod{*pod("web-1", "68"), *pod("web-2", "69"), *pod("web-3", "70")}})
		go func() {
			w := <-srv.Watches // the watch from the list's resourceVersion
			time.Sleep(1500 * time.Millisecond)
			w.Add(pod("web-4", "73"))
			w.Add(pod("web-5", "74"))
			w.Modify(pod("web-1", "75"))
			w.Modify(pod("web-3", "77"))
		}()
		if err := s.registerAndStart(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(4 * time.Second) // past the burst, and the slow handler's backlog
		synctest.Wait()
		time.Sleep(time.Second) // past the resync tick at 5s
		synctest.Wait()
		s.stop()
	})
}

func pod(name, rv string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "stage05", Name: name, ResourceVersion: rv}}
}

// processorSpec draws what the stand-in informer distributes and when each
// handler gets round to it.
var processorSpec = seqdiagram.Spec{
	Participants: []seqdiagram.Participant{
		{ID: "I", Label: "informer (stand-in): Distribute"},
		{ID: "F", Label: "fast"},
		{ID: "S", Label: "slow: 400ms a call"},
		{ID: "Y", Label: "resync: asks for 5s"},
	},
	SameInstantByLane: true,
	Arrows: func(row timeline.Row) []seqdiagram.Arrow {
		lane := map[string]string{"fast": "F", "slow": "S", "resync": "Y"}[row.Layer]
		at := fmt.Sprintf("t=%.1fs", row.Offset.Seconds())
		switch {
		case row.Kind != timeline.KindEvent || row.What == "STOPPED":
			return nil
		case row.Layer == "informer":
			text := row.What + " " + strings.TrimPrefix(row.Object, "stage05/") + " " + row.Protocol
			if row.What == "RESYNC" {
				text = "RESYNC: sync updates for the handlers whose resync is due, no request"
			}
			return []seqdiagram.Arrow{{Note: true, From: "I", Text: at + " " + text}}
		case lane != "" && row.What == "SYNCED":
			return []seqdiagram.Arrow{{Note: true, From: lane, Text: at + " HasSynced"}}
		case lane != "":
			detail := strings.NewReplacer("isInInitialList=true", "(initial)").Replace(row.Protocol)
			if row.Explanation != nil { // a resync's replay
				detail += " (resync)"
			}
			return []seqdiagram.Arrow{{From: "I", To: lane, Lane: lane, Text: at + " " + row.What + " " + strings.TrimPrefix(row.Object, "stage05/") + " " + detail}}
		}
		return nil
	},
}
