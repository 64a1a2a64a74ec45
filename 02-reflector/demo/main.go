// Command demo is stage 02's demo: a Reflector on pods writing into a store
// that prints every call it receives, first with LIST then WATCH (changes
// arrive as events; a lost connection plus an etcd compaction force a 410
// and a relist), then with WatchList streaming (the initial-events-end
// bookmark, the same stream carrying on, and resync). Every HTTP request the
// reflector sends and every watch event it receives is printed, so a learner
// sees why each request is made. Run it with `make run-stage 2`.
package main

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	listwatch "informer-from-scratch/01-listwatch"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/reqlog"
)

var options = demo.Options{
	Stage: 2,
	Title: sayTitle,
	// Without the watch cache, etcd's compaction reaches the watch: a
	// watch from a compacted resourceVersion gets 410 Expired.
	Playground: playground.Options{DisableWatchCache: true},
}

func main() { demo.Main(options, run) }

func run(env *demo.Env) error {
	s := &script{env: env, tl: env.Timeline, requests: newHistory[reqlog.Request]()}

	// The reflectors' own client: every request it sends is an "http" row.
	client, err := env.TimelineClient(s.requests.add)
	if err != nil {
		return err
	}

	if env.Writes {
		if err := s.setScene(); err != nil {
			return err
		}
	} else {
		s.tl.Step(sayReadOnlyTitle, sayReadOnlyWhy)
	}
	s.lw = listwatch.NewFilteredListWatchFromClient(client.CoreV1().RESTClient(), "pods", s.ns, func(*metav1.ListOptions) {})

	if err := s.listThenWatch(); err != nil {
		return err
	}
	return s.watchList()
}
