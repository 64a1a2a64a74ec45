// Command demo is stage 05's demo: one stream of pod notifications fanned out
// to three handlers (a fast one, a slow one, one with its own resync period),
// printing each handler's timeline, how far behind each one is, and when
// each registration's HasSynced flips. A last step shows what the unbounded
// buffer costs. Run it with `make run-stage 5`.
package main

import (
	"informer-from-scratch/internal/demo"
)

var options = demo.Options{
	Stage: 5,
	Title: sayTitle,
}

func main() { demo.Main(options, run) }

func run(env *demo.Env) error {
	s := &script{env: env, tl: env.Timeline}
	if err := s.setScene(); err != nil {
		return err
	}
	if err := s.registerAndStart(); err != nil {
		return err
	}
	defer s.stop()
	if err := s.burst(); err != nil {
		return err
	}
	if err := s.resync(); err != nil {
		return err
	}
	s.stop()
	return s.bufferCost()
}
