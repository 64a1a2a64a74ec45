// Command demo is stage 04's demo: a Reflector (stage 02) fills our Indexer
// with pods spread over namespaces and fake nodes; the demo adds a by-node and
// a by-label index to the filled cache, answers questions from it without a
// single request to the apiserver, and shows an update moving a pod from one
// index bucket to another. Run it with `make run-stage 4`.
package main

import (
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/reqlog"
)

var options = demo.Options{
	Stage: 4,
	Title: sayTitle,
}

func main() { demo.Main(options, run) }

func run(env *demo.Env) error {
	tl := env.Timeline

	// The Reflector's client prints every request it sends as an "http" row
	// and counts them, so the demo can show that answering from the cache
	// sends none.
	s := &script{env: env}
	client, err := env.TimelineClient(func(reqlog.Request) { s.requests.Add(1) })
	if err != nil {
		return err
	}

	if env.Writes {
		if err := s.setScene(); err != nil {
			return err
		}
	} else {
		tl.Step(sayReadOnlyTitle, sayReadOnlyWhy)
	}

	stop, err := s.fillFromReflector(client)
	if err != nil {
		return err
	}
	defer stop()

	if err := s.addIndexes(); err != nil {
		return err
	}
	if err := s.askTheCache(); err != nil {
		return err
	}
	if !env.Writes {
		tl.Note(sayNoUpdate)
		return nil
	}
	return s.moveBetweenBuckets()
}
