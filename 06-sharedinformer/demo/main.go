// Command demo is stage 06's demo: a pod informer built from stages 01-05,
// with two handlers and a transform that drops managedFields. It creates,
// updates and deletes pods, adds a third handler late (its replayed adds
// show), and forces a relist that misses a delete (a tombstone shows), while
// an Observer prints every step of every pod through every layer: reflector,
// queue, indexer, processor, handler. --queue=deltafifo runs the same story
// through the classic queue; --chaos puts internal/faultproxy in front of the
// apiserver and ends with a cut watch, a 410 Gone and an apiserver restart;
// --web also draws it all in the browser, live, with buttons that act on the
// cluster; --break=NAME takes one mechanism away (tombstones, a listener's
// ring) to show what goes wrong without it. Run it with `make run-stage 6`
// (and ARGS=--chaos, ARGS=--web or ARGS=--break=help).
package main

import (
	"flag"
	"fmt"
	"os"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/playground"
)

// queueFlag is --queue: realfifo (what client-go v0.37 uses) or deltafifo.
var queueFlag string

var options = demo.Options{
	Stage: 6,
	Title: sayTitle,
	// Without the watch cache, etcd's compaction reaches the watch: the
	// forced relist meets a real 410.
	Playground: playground.Options{DisableWatchCache: true},
	Flags: func(fs *flag.FlagSet, l string) {
		fs.StringVar(&queueFlag, "queue", "realfifo", sayQueueFlag.In(l))
		breakFlag = "" // a test may run the demo again in the same process
		fs.Func("break", sayBreakFlag.In(l), func(v string) error {
			breakFlag = v // checkFlags checks the name, in the learner's language
			return nil
		})
		fs.BoolVar(&chaosFlag, "chaos", false, sayChaosFlag.In(l))
		webFlags(fs, l)
	},
	CheckFlags: checkFlags, // flags.go: every value, before the playground starts
}

func main() {
	if breakHelpAsked(os.Args[1:]) { // no playground needed to print a list
		printBreaks(os.Stdout, demo.LanguageOf(os.Args[1:]))
		return
	}
	demo.Main(options, run)
}

func run(env *demo.Env) error {
	s, err := newScript(env, queueFlag)
	if err != nil {
		return err
	}
	if s.breaks, err = informer.ParseBreak(breakFlag); err != nil {
		return fmt.Errorf("--break=%s: %w", breakFlag, err)
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
	if env.Writes && !chaosFlag { // after --chaos's faults, the proxy may still hold events back
		web.listeners("slow") // the handler stalledHandler adds
		if err := s.stalledHandler(); err != nil {
			return err
		}
	}
	web.stayUp(env.Ctx)
	return s.stop()
}
