package main

import (
	"context"
	"net/url"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/seqdiagram"
	"informer-from-scratch/internal/timeline"
)

// TestSequenceDiagram draws chapter 07's sequence diagram from this demo's
// own step (sharedFactory: two parts ask one factory for their informers,
// Start, WaitForCacheSync, the request count) over a real clientset whose
// transport is a scripted apiserver (seqdiagram.Transport): one WatchList
// per type, however many parts asked.
//
// How it is deterministic: the run is in a testing/synctest bubble and the
// transport has no socket, so every goroutine blocks durably; each
// informer's rows come from its own reflector goroutine, and the diagram
// orders the rows of one instant by lane (Spec.SameInstantByLane). Nothing
// advances the fake clock, so every row shares one instant: the test
// goroutine's rows up to Start are in the factory's lane, before the
// informers'; its rows after WaitForCacheSync, which waited for every
// informer's answer, are in the apiserver's lane, the last. The
// watch's timeoutSeconds is random (the reflector's), so the diagram shows
// only the parameters that say what kind of request it is.
func TestSequenceDiagram(t *testing.T) {
	seqdiagram.CheckScripted(t, "07-factory", "two-parts-one-watch", factorySpec, func(t *testing.T, ctx context.Context, tl *timeline.Timeline) {
		srv := seqdiagram.NewTransport(tl)
		srv.Serve("/api/v1/namespaces/stage07/pods", "120", &corev1.Pod{},
			demo.Pod("stage07", "web-1", nil), demo.Pod("stage07", "web-2", nil), demo.Pod("stage07", "db-1", nil))
		srv.Serve("/apis/apps/v1/namespaces/stage07/deployments", "120", &appsv1.Deployment{},
			demo.Deployment("stage07", "web", nil), demo.Deployment("stage07", "api", nil), demo.Deployment("stage07", "db", nil))
		srv.Serve("/api/v1/namespaces/stage07/configmaps", "120", &corev1.ConfigMap{},
			&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "stage07", Name: "dashboard-settings"}})

		env := &demo.Env{Ctx: ctx, Timeline: tl, Writes: true}
		s := &script{env: env, tl: tl, ns: "stage07", counts: newRequestCounts()}
		var err error
		if s.client, err = env.TimelineClientFor(srv.Config(), s.counts.add); err != nil {
			t.Fatal(err)
		}
		if err := s.sharedFactory(); err != nil {
			t.Fatal(err)
		}
		s.stop()
	})
}

// informerOfPath is the lifeline of the informer that requested path.
func informerOfPath(path string) string {
	switch path[strings.LastIndex(path, "/")+1:] {
	case "pods":
		return "P"
	case "deployments":
		return "D"
	case "configmaps":
		return "C"
	}
	return ""
}

// afterSync is the lane of the rows the test goroutine prints once
// WaitForCacheSync has returned: the last lane, after every informer's.
const afterSync = "S"

// factorySpec draws the parts, the factory, one lifeline per informer it
// built, and the apiserver.
var factorySpec = seqdiagram.Spec{
	Participants: []seqdiagram.Participant{
		{ID: "A", Label: "autoscaler"},
		{ID: "B", Label: "dashboard"},
		{ID: "F", Label: "factory"},
		{ID: "P", Label: "pods informer"},
		{ID: "D", Label: "deployments informer"},
		{ID: "C", Label: "configmaps informer"},
		{ID: "S", Label: "apiserver"},
	},
	SameInstantByLane: true,
	Arrows: func(row timeline.Row) []seqdiagram.Arrow {
		part := map[string]string{"autoscaler": "A", "dashboard": "B"}
		switch {
		case row.Kind == timeline.KindNote && strings.Contains(row.Detail, "pod handler was called"):
			who, _, _ := strings.Cut(row.Detail, "'")
			return []seqdiagram.Arrow{{Note: true, From: part[who], Lane: afterSync, Text: strings.TrimSuffix(row.Detail, ".")}}
		case row.Kind == timeline.KindNote:
			// The request table's rows: "  pods  0  1".
			f := strings.Fields(row.Detail)
			if len(f) == 3 && informerOfPath("/"+f[0]) != "" {
				return []seqdiagram.Arrow{{Note: true, From: "S", Lane: afterSync, Text: "served for " + f[0] + ": " + f[1] + " LIST, " + f[2] + " WATCH"}}
			}
			return nil
		case row.Kind != timeline.KindEvent:
			return nil
		case row.Layer == "factory" && row.What == "asks":
			who, kind, _ := strings.Cut(row.Object, ": ")
			answer := "a new " + kind + " informer (the first request for this type)"
			if strings.Contains(row.Detail, "the same informer") {
				answer = "the same " + kind + " informer, the same cache"
			}
			return []seqdiagram.Arrow{
				{From: part[who], To: "F", Lane: "F", Text: kind + " informer, please"},
				{From: "F", To: part[who], Reply: true, Text: answer},
			}
		case row.Layer == "factory" && row.What == "Start":
			return []seqdiagram.Arrow{{From: "F", To: "P", Text: "Start: run"}, {From: "F", To: "D", Text: "Start: run"}, {From: "F", To: "C", Text: "Start: run"}}
		case row.Layer == "http":
			inf := informerOfPath(row.Object)
			return []seqdiagram.Arrow{{From: inf, To: "S", Text: row.What + " " + row.Object[strings.LastIndex(row.Object, "/")+1:] + "?" + kindOfRequest(row.Detail)}}
		case row.Layer == "server":
			inf := informerOfPath(row.Object)
			return []seqdiagram.Arrow{{From: "S", To: inf, Lane: inf, Reply: true, Text: row.Detail}}
		case row.Layer == "synced":
			return []seqdiagram.Arrow{{Note: true, From: "F", Lane: afterSync, Text: "WaitForCacheSync: " + row.Object + " synced"}}
		}
		return nil
	},
}

// kindOfRequest keeps the parameters of a LIST or WATCH that say what it
// asks for, in the order the query has them.
func kindOfRequest(query string) string {
	values, err := url.ParseQuery(query)
	if err != nil {
		return query
	}
	var kept []string
	for _, k := range []string{"watch", "sendInitialEvents", "resourceVersion", "resourceVersionMatch", "allowWatchBookmarks"} {
		if v, ok := values[k]; ok {
			kept = append(kept, k+"="+v[0])
		}
	}
	return strings.Join(kept, "&")
}
