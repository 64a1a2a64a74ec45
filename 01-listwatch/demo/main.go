// Command demo is stage 01's demo: LIST in pages, WATCH from the list's
// resourceVersion while pods change, then the same with one WatchList
// request. Every HTTP request the ListWatch sends is printed, so a learner
// sees the protocol itself. Run it with `make run-stage 1`.
package main

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	listwatch "informer-from-scratch/01-listwatch"
	"informer-from-scratch/internal/demo"
)

var options = demo.Options{
	Stage: 1,
	Title: sayTitle,
}

func main() { demo.Main(options, run) }

func run(env *demo.Env) error {
	tl := env.Timeline

	// A client of its own for the ListWatch, with every request it sends
	// printed on the timeline as an "http" row.
	client, err := env.TimelineClient(nil)
	if err != nil {
		return err
	}

	s := &script{env: env}
	if env.Writes {
		tl.Step(saySceneTitle, saySceneWhy)
		if s.ns, err = env.Namespace("stage01"); err != nil {
			return err
		}
		for i := 1; i <= 5; i++ {
			if err := s.createPod(fmt.Sprintf("web-%d", i)); err != nil {
				return err
			}
		}
	} else {
		tl.Step(sayReadOnlyTitle, sayReadOnlyWhy)
	}

	lw := listwatch.NewFilteredListWatchFromClient(client.CoreV1().RESTClient(), "pods", s.ns,
		func(*metav1.ListOptions) {})

	rv, err := s.listInPages(lw)
	if err != nil {
		return err
	}
	if err := s.watchFrom(lw, rv); err != nil {
		return err
	}
	return s.watchList(lw)
}
