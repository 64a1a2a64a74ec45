// Command demo is stage 08's demo: sample-controller's Foo controller,
// built on our factory (stage 07) and workqueue (stage 08), runs with two
// workers on the playground. The script creates a Foo, scales it, deletes
// its Deployment and edits it behind the controller's back, makes one
// reconcile fail a few times (--fail) to show the rate limiter's delays,
// deletes a Foo, and shuts the controller down with a drain while a
// reconcile is in flight. Every key's path is a row of the timeline:
// handler → workqueue (len, dirty) → worker → lister → API write; the
// workqueue's metrics close it. Run it with `make run-stage 8`; with
// ARGS=--web the page of web.go draws each key's path live, with buttons.
//
// The playground has no kube-controller-manager: internal/standin plays the
// deployment controller (a Deployment's status) and the garbage collector
// (a Foo's Deployment deleted with it), and the timeline says so on each of
// its rows. On a real cluster (--kubeconfig), the real ones do, and the
// demo writes only inside a namespace of its own (see realcluster.go).
//
// Ctrl-C (or SIGTERM) at any step once the controller runs is its graceful
// shutdown, as in sample-controller: it stops taking keys, drains the
// reconciles in flight, stops its informers, and the demo exits 0.
//
// ARGS=--break=NAME takes one mechanism away (the dirty set, Forget, the
// owner reference) to show what goes wrong without it; ARGS=--break=help
// lists them (breaks.go).
package main

import (
	"flag"
	"os"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"

	"informer-from-scratch/internal/demo"
)

// Flags.
var (
	// failFlag is --fail: how many times the Deployment create of the Foo
	// "flaky" fails before it succeeds (0 skips the step).
	failFlag int
	// workersFlag is --workers: how many workers the controller runs.
	workersFlag int
	// namespaceFlag and cleanupFlag are for a real cluster only.
	namespaceFlag string
	cleanupFlag   bool
)

var options = demo.Options{
	Stage: 8,
	Title: sayTitle,
	Flags: func(fs *flag.FlagSet, l string) {
		fs.IntVar(&failFlag, "fail", 3, sayFailFlag.In(l))
		fs.IntVar(&workersFlag, "workers", 2, sayWorkersFlag.In(l))
		fs.StringVar(&namespaceFlag, "namespace", defaultRealNamespace, sayNamespaceFlag.In(l))
		breakFlag = "" // a test may run the demo again in the same process
		fs.Func("break", sayBreakFlag.In(l), func(v string) error {
			breakFlag = v // checkFlags checks the name, in the learner's language
			return nil
		})
		fs.BoolVar(&cleanupFlag, "cleanup", false, sayCleanupFlag.In(l))
		webFlags(fs, l)
	},
	CheckFlags:          checkFlags, // flags.go: every value, before the playground starts
	WritesOnRealCluster: true,
}

func main() {
	// The controller reports each failed reconcile through
	// utilruntime.HandleError, which logs with klog; the timeline shows the
	// same error on its "worker failed" row, so the log would only say it
	// twice, out of line.
	klog.SetLogger(logr.Discard())
	if demo.FlagAsks(os.Args[1:], "break", "help") { // a list needs no playground
		printBreaks(os.Stdout, demo.LanguageOf(os.Args[1:]))
		return
	}
	demo.Main(options, run)
}

func run(env *demo.Env) error {
	s, err := newScript(env)
	if err != nil {
		return err
	}
	defer s.stop()
	web, err := startWeb(s) // nil without --web
	if err != nil {
		return err
	}
	defer web.close()
	shutdown := s.shutdown
	if web != nil {
		shutdown = web.stayUpThenStop // the buttons act until Ctrl-C; then a drained shutdown
	}
	for _, step := range []func() error{
		s.setScene,
		s.startController,
		s.createFoo,
		s.scaleFoo,
		s.deleteDeployment,
		s.editDeployment,
		s.failingReconcile,
		s.deleteFoo,
		s.changesWhileHeld,
		shutdown,
		s.printMetrics,
		s.cleanup,
	} {
		if err := step(); err != nil {
			if s.env.Ctx.Err() != nil {
				return s.interrupted()
			}
			return err
		}
	}
	return nil
}
