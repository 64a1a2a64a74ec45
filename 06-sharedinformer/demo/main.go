// Command demo is stage 06's demo: a pod informer built from stages 01-05,
// with two handlers and a transform that drops managedFields. It creates,
// updates and deletes pods, adds a third handler late (its replayed adds
// show), and forces a relist that misses a delete (a tombstone shows), while
// an Observer prints every step of every pod through every layer: reflector,
// queue, indexer, processor, handler. --queue=deltafifo runs the same story
// through the classic queue; --chaos puts internal/faultproxy in front of the
// apiserver and ends with a cut watch, a 410 Gone and an apiserver restart;
// --web also draws it all in the browser, live, with buttons that act on the
// cluster. Run it with `make run-stage 6` (and ARGS=--chaos or ARGS=--web).
package main

import (
	"flag"

	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/playground"
)

// queueFlag is --queue: realfifo (what client-go v0.37 uses) or deltafifo.
var queueFlag string

var options = demo.Options{
	Stage: 6,
	Title: "SharedIndexInformer: stages 1-5 assembled, one pod followed through every layer",
	// Without the watch cache, etcd's compaction reaches the watch: the
	// forced relist meets a real 410.
	Playground: playground.Options{DisableWatchCache: true},
	Flags: func(fs *flag.FlagSet) {
		fs.StringVar(&queueFlag, "queue", "realfifo", "the informer's queue: realfifo (client-go v0.37's) or deltafifo (the classic one)")
		fs.BoolVar(&chaosFlag, "chaos", false, "put a fault-injecting proxy before the informer, and end with a cut watch, a 410 Gone and an apiserver restart")
		webFlags(fs)
	},
}

func main() { demo.Main(options, run) }

func run(env *demo.Env) error {
	s, err := newScript(env, queueFlag)
	if err != nil {
		return err
	}
	web, err := startWeb(s) // nil without --web
	if err != nil {
		return err
	}
	defer web.close()
	if err := s.setScene(); err != nil {
		return err
	}
	web.listeners("audit", "metrics") // the handlers start adds
	if err := s.start(); err != nil {
		return err
	}
	defer s.stop()
	if env.Writes {
		if err := s.followOnePod(); err != nil {
			return err
		}
	}
	web.listeners("late") // the handler lateHandler adds
	if err := s.lateHandler(); err != nil {
		return err
	}
	if err := s.missedDelete(); err != nil {
		return err
	}
	if chaosFlag {
		if err := s.chaos(); err != nil {
			return err
		}
	}
	web.stayUp(env.Ctx)
	return s.stop()
}
