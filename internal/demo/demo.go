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
//   - it narrates in the learner's language: --lang=en|zh, else the locale's
//     (LC_ALL, LC_MESSAGES or LANG starting with zh: Chinese), else English;
//     the banner, the help, the closing lines, the errors a learner can
//     cause, the playground's progress lines, the timeline's steps and
//     notes and the words of its rows follow it; a row's protocol (keys,
//     resourceVersions, HTTP lines) does not;
//   - the playground is the default even when KUBECONFIG is exported: a real
//     cluster is used only when asked for with --kubeconfig or
//     INFORMER_KUBECONFIG, and the banner says which cluster is in use;
//   - against a real cluster a demo only reads (stage 08's controller, whose
//     Options say WritesOnRealCluster, writes only in a namespace of its own),
//     and no demo prints credentials.
package demo

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"informer-from-scratch/internal/lang"
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
	Title lang.Text
	// Playground is how to start the playground when no real cluster is given.
	Playground playground.Options
	// Flags, if set, defines the demo's own flags beside the common ones
	// (stage 06's --queue); they are parsed with them. l is the language
	// the demo narrates in (--lang's, else the locale's): the flags' help
	// texts are said in it, as the common ones' are.
	Flags func(fs *flag.FlagSet, l string)
	// CheckFlags, if set, checks the values of the demo's own flags, and
	// how they combine, once they are parsed and before anything starts:
	// no playground (on a first run, a build of several minutes) and no
	// connection to a cluster come before the learner hears that a flag is
	// wrong. realCluster says whether --kubeconfig or $INFORMER_KUBECONFIG
	// names a cluster. Every check of a flag belongs here, not in the
	// script; an error is a usage error: Run prints it and returns 2, as
	// for a value the flag package refuses. An error made with
	// lang.Errorf is printed in the demo's language.
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
	// Lang is the language the demo narrates in: lang.EN or lang.ZH.
	Lang string
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
	// The help is printed while the flags are parsed, so its language is
	// read from args first; a --lang the demo cannot take is refused below.
	l := LanguageOf(args)
	fs := flag.NewFlagSet(sayFlagSet.Sprintf(l, opts.Stage), flag.ContinueOnError)
	kubeconfig := fs.String("kubeconfig", "", sayKubeconfig.Sprintf(l, KubeconfigEnv))
	wait := fs.Bool("wait", false, sayWaitFlag.In(l))
	langFlag := fs.String("lang", "", sayLangFlag.In(l))
	if opts.Flags != nil {
		opts.Flags(fs, l)
	}
	if code, ok := parse(fs, args, l, errOut); !ok {
		return code
	}
	path, from := *kubeconfig, "--kubeconfig"
	if path == "" {
		path, from = os.Getenv(KubeconfigEnv), "$"+KubeconfigEnv
	}
	l, err := checkFlags(fs, *langFlag, opts.CheckFlags, path != "")
	if err != nil {
		fmt.Fprint(errOut, sayError.Sprintf(l, lang.Message(err, l)))
		return exitUsage
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	fmt.Fprint(out, sayBanner.Sprintf(l, opts.Stage, opts.Title.In(l)))
	env := &Env{Ctx: ctx, Out: out, Lang: l}
	var cleanup func()
	if path != "" {
		err = connectReal(ctx, env, path, from, opts.WritesOnRealCluster)
	} else {
		cleanup, err = startPlayground(ctx, env, opts.Playground, errOut)
	}
	if cleanup != nil {
		defer cleanup()
	}
	if err != nil {
		return fail(ctx, env, errOut, err)
	}
	env.Timeline = timeline.NewIn(out, l)
	defer func() {
		for i := len(env.atExit) - 1; i >= 0; i-- {
			env.atExit[i]()
		}
	}()

	if err := script(env); err != nil {
		return fail(ctx, env, errOut, err)
	}
	if ctx.Err() != nil && !env.shutDownOnInterrupt {
		return fail(ctx, env, errOut, ctx.Err())
	}
	if *wait && ctx.Err() == nil {
		fmt.Fprintln(out, sayWaiting.In(l))
		if env.Cluster != nil {
			fmt.Fprint(out, saySecondTerminal.Sprintf(l, env.Cluster.Kubeconfig))
		}
		<-ctx.Done()
	}
	fmt.Fprintln(out, sayDone.In(l))
	return 0
}

// parse parses args, printing the help (-h) or a usage error in language
// l. It returns the status to exit with when the demo must not go on.
func parse(fs *flag.FlagSet, args []string, l string, errOut io.Writer) (code int, ok bool) {
	// The flag package prints its error and the help itself; they are
	// caught here so that Chinese can introduce its English sentence.
	var said bytes.Buffer
	fs.SetOutput(&said)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), sayUsage.Sprintf(l, fs.Name()))
		fs.PrintDefaults()
	}
	err := fs.Parse(args)
	fs.SetOutput(errOut)
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		errOut.Write(said.Bytes())
		return 0, false
	case l == lang.EN:
		errOut.Write(said.Bytes()) // the flag package's own words, as ever
	default:
		fmt.Fprint(errOut, sayBadFlag.Sprintf(l, err))
		fs.Usage()
	}
	// A workshop tries --break on every stage; only two demos take it.
	if strings.HasSuffix(err.Error(), "provided but not defined: -break") {
		fmt.Fprint(errOut, sayNoBreak.In(l))
	}
	return exitUsage, false
}

// LanguageOf is the language a demo run with args narrates in: the one
// --lang names, else the locale's (lang.FromEnv), also when --lang names
// one the course does not speak (Run refuses it, in the locale's). A demo
// that answers a flag before Main (--break=help) says it in this language.
func LanguageOf(args []string) string {
	l, err := lang.Parse(langArg(args))
	if err != nil {
		return lang.FromEnv()
	}
	return l
}

// langArg is the value args give --lang (in any spelling the flag package
// accepts), or "".
func langArg(args []string) string {
	for i, a := range args {
		switch {
		case a == "--":
			return "" // the flag package stops here
		case strings.HasPrefix(a, "--lang="), strings.HasPrefix(a, "-lang="):
			_, v, _ := strings.Cut(a, "=")
			return v
		case (a == "--lang" || a == "-lang") && i+1 < len(args):
			return args[i+1]
		}
	}
	return ""
}

// exitUsage is the status of a command line the demo cannot run, as the
// flag package's.
const exitUsage = 2

// checkFlags refuses what the parsed command line cannot mean before
// anything starts: a language the course does not speak, a word that is
// not a flag (ARGS=fifo for ARGS=--queue=fifo would otherwise be dropped
// without a word), then whatever the demo's own check refuses. It returns
// the language to narrate in: --lang's, or the locale's.
func checkFlags(fs *flag.FlagSet, langFlag string, check func(realCluster bool) error, realCluster bool) (string, error) {
	l, err := lang.Parse(langFlag)
	if err != nil {
		return lang.FromEnv(), lang.Errorf(sayBadLanguage, langFlag)
	}
	if fs.NArg() > 0 {
		return l, lang.Errorf(sayUnexpected, fs.Arg(0))
	}
	if check == nil {
		return l, nil
	}
	return l, check(realCluster)
}

func fail(ctx context.Context, env *Env, errOut io.Writer, err error) int {
	if ctx.Err() != nil {
		fmt.Fprintln(env.Out, sayInterrupted.In(env.Lang))
		return exitInterrupted
	}
	fmt.Fprint(errOut, sayErrorAfter.Sprintf(env.Lang, lang.Message(err, env.Lang)))
	return 1
}

func startPlayground(ctx context.Context, env *Env, opts playground.Options, errOut io.Writer) (func(), error) {
	l := env.Lang
	fmt.Fprintln(env.Out, SayPlayground.In(l))
	if os.Getenv("KUBECONFIG") != "" {
		fmt.Fprint(env.Out, sayKubeconfigIgnored.Sprintf(l, KubeconfigEnv))
	}
	start := time.Now()
	// The playground's own lines (its first build, the binaries it uses)
	// are the harness's: said in the learner's language too.
	if opts.Progress == nil {
		opts.Progress = os.Stderr
	}
	opts.Progress = playground.Speaking(opts.Progress, l)
	c, err := playground.Start(ctx, opts)
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(env.Out, sayStartAbandoned.In(l))
		}
		return nil, lang.Errorf(sayStarting, err)
	}
	cleanup := func() {
		if err := c.Stop(); err != nil {
			fmt.Fprint(errOut, sayStopping.Sprintf(l, err))
			return
		}
		fmt.Fprintln(env.Out, SayPlaygroundStopped.In(l))
	}
	fmt.Fprint(env.Out, sayPlaygroundUp.Sprintf(l, time.Since(start).Round(100*time.Millisecond), c.Host))
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
	mode := sayReadOnly
	if write {
		mode = sayOwnNamespace
	}
	fmt.Fprint(env.Out, sayRealCluster.Sprintf(env.Lang, desc.Sprintf(env.Lang), from, mode.In(env.Lang)))
	return reachable(ctx, env.Client, cfg.Host, reachTimeout)
}

// WrapTransport wraps the transport of every client the script makes from
// now on, Client included (it is made again): a test holds back the
// answers to writes with it (demotest), to see that the demo prints a
// write before what the write causes.
func (e *Env) WrapTransport(wrap func(http.RoundTripper) http.RoundTripper) error {
	e.config.Wrap(wrap)
	client, err := kubernetes.NewForConfig(e.config)
	if err != nil {
		return err
	}
	e.Client = client
	return nil
}
