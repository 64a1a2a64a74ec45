package seqdiagram

import (
	"context"
	"io"
	"strings"
	"testing"
	"testing/synctest"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"informer-from-scratch/internal/timeline"
)

// TestTransportAnswersAWatchListAndNothingElse: a real clientset's
// WatchList gets the served pods and the initial-events-end bookmark; a
// LIST is an error, not an empty answer.
func TestTransportAnswersAWatchListAndNothingElse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := NewTransport(timeline.New(io.Discard))
		tr.Serve("/api/v1/namespaces/demo/pods", "9", &corev1.Pod{},
			&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "demo", Name: "a", ResourceVersion: "8"}})
		client, err := kubernetes.NewForConfig(tr.Config())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		yes := true
		w, err := client.CoreV1().Pods("demo").Watch(ctx, metav1.ListOptions{SendInitialEvents: &yes, AllowWatchBookmarks: true,
			ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for range 2 {
			e := <-w.ResultChan()
			p := e.Object.(*corev1.Pod)
			got = append(got, string(e.Type)+" "+p.Name+"@"+p.ResourceVersion+" "+p.Annotations[metav1.InitialEventsAnnotationKey])
		}
		if want := "ADDED a@8 |BOOKMARK @9 true"; strings.Join(got, "|") != want {
			t.Errorf("events %q, want %q", strings.Join(got, "|"), want)
		}
		w.Stop()
		if _, err := client.CoreV1().Pods("demo").List(ctx, metav1.ListOptions{}); err == nil || !strings.Contains(err.Error(), "did not expect") {
			t.Errorf("a LIST: err = %v, want the scenario's error", err)
		}
		for range w.ResultChan() { // Stop closes it (after, at most, the closed pipe's error)
		}
	})
}
