// Package demo is the harness every stage's demo main package runs in, so
// that each main reads top to bottom like sample-controller's: flags, a
// signal-aware context, a cluster (the playground unless the learner asks for
// a real one by name), the stage's script, and a clean shutdown.
//
// Rules it enforces for every demo:
//   - every flag is checked before anything starts (Options.CheckFlags): a
//     value the demo cannot use, or a word that is not a flag, ends it at
//     once with status 2, before a playground is built or started and
//     before a real cluster is asked anything;
//   - the script runs and the demo exits by itself with status 0; --wait keeps
//     the cluster up afterwards for exploring;
//   - Ctrl-C at any moment cancels the context, stops the playground (apiserver,
//     then etcd) and removes its directory; the status is then 130, unless the
//     script shut down cleanly and said so (Env.ShutDownOnInterrupt): then 0;
//   - the playground is the default even when KUBECONFIG is exported: a real
//     cluster is used only when asked for with --kubeconfig or
//     INFORMER_KUBECONFIG, and the banner says which cluster is in use;
//   - against a real cluster a demo only reads (stage 08's controller, whose
//     Options say WritesOnRealCluster, writes only in a namespace of its own),
//     and no demo prints credentials.
package demo

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/timeline"
)

// KubeconfigEnv names the environment variable that points the demos at a
// real cluster, like --kubeconfig. KUBECONFIG itself is not read: most
// Kubernetes developers keep it exported, every chapter's transcript assumes
// the playground, and a demo should not turn to someone's cluster unasked.
const KubeconfigEnv = "INFORMER_KUBECONFIG"

// Options describe one stage's demo.
type Options struct {
	Stage int
	Title string
	// Playground is how to start the playground when no real cluster is given.
	Playground playground.Options
	// Flags, if set, defines the demo's own flags beside the common ones
	// (stage 06's --queue); they are parsed with them.
	Flags func(fs *flag.FlagSet)
	// CheckFlags, if set, checks the values of the demo's own flags, and
	// how they combine, once they are parsed and before anything starts:
	// no playground (on a first run, a build of several minutes) and no
	// connection to a cluster come before the learner hears that a flag is
	// wrong. realCluster says whether --kubeconfig or $INFORMER_KUBECONFIG
	// names a cluster. Every check of a flag belongs here, not in the
	// script; an error is a usage error: Run prints it and returns 2, as
	// for a value the flag package refuses.
	CheckFlags func(realCluster bool) error
	// WritesOnRealCluster lets the script write on a real cluster, inside a
	// namespace of its own (Env.Namespace). Only stage 08's controller
	// needs it: every other demo only reads there, whatever the flags.
	WritesOnRealCluster bool
}

// Env is what a demo script gets.
type Env struct {
	Ctx      context.Context
	Client   kubernetes.Interface
	Timeline *timeline.Timeline
	Out      io.Writer
	// Cluster is the playground, or nil on a real cluster.
	Cluster *playground.Cluster
	// Writes is true when the script may create and change objects: always on
	// the playground; on a real cluster only for a demo whose Options say
	// WritesOnRealCluster (stage 08), and then only in its own namespace.
	Writes bool

	config *rest.Config
	atExit []func()
	// shutDownOnInterrupt: see ShutDownOnInterrupt.
	shutDownOnInterrupt bool
}

// ShutDownOnInterrupt tells Run that the script took Ctrl-C (or SIGTERM) as
// the signal to shut down, and did so cleanly: if the script then returns
// nil, Run ends with "Done." and status 0, as a controller's main does after
// a graceful shutdown (sample-controller's returns from Run and exits 0),
// instead of 130. The script calls it from its own goroutine, after the
// interrupt.
func (e *Env) ShutDownOnInterrupt() { e.shutDownOnInterrupt = true }

// RESTConfig returns a fresh copy of the client configuration, so a demo can
// wrap its transport without affecting other clients.
func (e *Env) RESTConfig() *rest.Config { return rest.CopyConfig(e.config) }

// OnPlayground reports whether the demo runs on the embedded playground.
func (e *Env) OnPlayground() bool { return e.Cluster != nil }

// Main runs script as the demo of one stage and exits the process.
func Main(opts Options, script func(env *Env) error) {
	// On Ctrl-C the status is 130, the shell's convention for "stopped by
	// SIGINT". We exit with it rather than re-raising the signal: make, which
	// also received the SIGINT, then prints one line instead of three.
	os.Exit(Run(opts, os.Args[1:], os.Stdout, os.Stderr, script))
}

// exitInterrupted is the conventional status of a program stopped by SIGINT.
const exitInterrupted = 130

// Run is Main without the exit: it parses args, runs the script and returns
// the exit status. Tests run whole demos through it.
func Run(opts Options, args []string, out, errOut io.Writer, script func(env *Env) error) int {
	fs := flag.NewFlagSet(fmt.Sprintf("stage %02d demo", opts.Stage), flag.ContinueOnError)
	fs.SetOutput(errOut)
	kubeconfig := fs.String("kubeconfig", "", "run against the cluster in this kubeconfig instead of the playground (default $"+KubeconfigEnv+"; $KUBECONFIG is ignored)")
	wait := fs.Bool("wait", false, "after the script, keep running (and keep the playground up) until Ctrl-C")
	if opts.Flags != nil {
		opts.Flags(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	path, from := *kubeconfig, "--kubeconfig"
	if path == "" {
		path, from = os.Getenv(KubeconfigEnv), "$"+KubeconfigEnv
	}
	if err := checkFlags(fs, opts.CheckFlags, path != ""); err != nil {
		fmt.Fprintf(errOut, "error: %v\n", err)
		return exitUsage
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	fmt.Fprintf(out, "Stage %02d: %s\n", opts.Stage, opts.Title)
	env := &Env{Ctx: ctx, Out: out}
	var cleanup func()
	var err error
	if path != "" {
		err = connectReal(ctx, env, path, from, opts.WritesOnRealCluster)
	} else {
		cleanup, err = startPlayground(ctx, env, opts.Playground, errOut)
	}
	if cleanup != nil {
		defer cleanup()
	}
	if err != nil {
		return fail(ctx, out, errOut, err)
	}
	env.Timeline = timeline.New(out)
	defer func() {
		for i := len(env.atExit) - 1; i >= 0; i-- {
			env.atExit[i]()
		}
	}()

	if err := script(env); err != nil {
		return fail(ctx, out, errOut, err)
	}
	if ctx.Err() != nil && !env.shutDownOnInterrupt {
		return fail(ctx, out, errOut, ctx.Err())
	}
	if *wait && ctx.Err() == nil {
		fmt.Fprintln(out, "\n--wait: the demo stays up until you press Ctrl-C.")
		if env.Cluster != nil {
			fmt.Fprintf(out, "From a second terminal: export KUBECONFIG=%s\n", env.Cluster.Kubeconfig)
		}
		<-ctx.Done()
	}
	fmt.Fprintln(out, "\nDone.")
	return 0
}

// exitUsage is the status of a command line the demo cannot run, as the
// flag package's.
const exitUsage = 2

// checkFlags refuses what the parsed command line cannot mean before
// anything starts: a word that is not a flag (ARGS=fifo for
// ARGS=--queue=fifo would otherwise be dropped without a word), then
// whatever the demo's own check refuses.
func checkFlags(fs *flag.FlagSet, check func(realCluster bool) error, realCluster bool) error {
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q: the demo takes only flags, such as --wait (-h lists them)", fs.Arg(0))
	}
	if check == nil {
		return nil
	}
	return check(realCluster)
}

func fail(ctx context.Context, out, errOut io.Writer, err error) int {
	if ctx.Err() != nil {
		fmt.Fprintln(out, "\nInterrupted: stopping cleanly.")
		return exitInterrupted
	}
	fmt.Fprintf(errOut, "\nerror: %v\n", err)
	return 1
}

func startPlayground(ctx context.Context, env *Env, opts playground.Options, errOut io.Writer) (func(), error) {
	fmt.Fprintln(env.Out, "Cluster: the embedded playground (a real kube-apiserver and etcd on 127.0.0.1)")
	if os.Getenv("KUBECONFIG") != "" {
		fmt.Fprintf(env.Out, "         (KUBECONFIG is set, and ignored: for a real cluster pass --kubeconfig or set %s)\n", KubeconfigEnv)
	}
	start := time.Now()
	c, err := playground.Start(ctx, opts)
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(env.Out, "Playground start abandoned: its processes and directory are removed.")
		}
		return nil, fmt.Errorf("starting the playground: %w", err)
	}
	cleanup := func() {
		if err := c.Stop(); err != nil {
			fmt.Fprintf(errOut, "stopping the playground: %v\n", err)
			return
		}
		fmt.Fprintln(env.Out, "Playground stopped: apiserver, then etcd; its directory is removed.")
	}
	fmt.Fprintf(env.Out, "Playground ready in %s at %s\n", time.Since(start).Round(100*time.Millisecond), c.Host)
	env.Cluster = c
	env.Writes = true
	env.config = c.RESTConfig()
	env.Client, err = kubernetes.NewForConfig(env.config)
	return cleanup, err
}

func connectReal(ctx context.Context, env *Env, path, from string, write bool) error {
	cfg, desc, err := loadKubeconfig(path)
	if err != nil {
		return err
	}
	env.config = cfg
	env.Writes = write
	env.Client, err = kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	mode := "read-only: this demo makes no change to it"
	if write {
		mode = "it writes only in a namespace of its own, which it creates"
	}
	fmt.Fprintf(env.Out, "Cluster: a real cluster, %s, given with %s — %s\n", desc, from, mode)
	return reachable(ctx, env.Client, cfg.Host, reachTimeout)
}
