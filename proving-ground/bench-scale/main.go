// Command bench-scale measures our informer beside client-go's at the scale
// users feel (make bench-scale): the time from Run to HasSynced, the peak
// and held heap, the bytes allocated, for N = 1,000, 10,000 and 50,000
// realistic pods served by a replay server (proving-ground/replay) in JSON and
// protobuf, by WatchList, one LIST or a paged LIST; the floor (one LIST
// decoded, no informer); a transform that drops managedFields; DeltaFIFO
// beside RealFIFO; a stream of updates to 1 and 10 handlers (events per
// second, latency from the server's write to the handler's call); and the
// same sync against the playground's real apiserver, as a check.
//
// Every measurement runs in a process of its own (heap.go says why), the
// same command started again with -child; the repetitions are interleaved,
// so a noisy minute on a shared machine lands on every implementation, and
// the report gives medians. It prints the report and writes it, with mermaid
// charts drawn from the same numbers, to -out.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	"informer-from-scratch/proving-ground/replay"
)

func main() {
	child := flag.String("child", "", "run one measurement (used by bench-scale itself)")
	sizes := flag.String("n", "1000,10000,50000", "numbers of pods, comma-separated")
	reps := flag.Int("reps", 3, "repetitions of each measurement (the report gives medians)")
	out := flag.String("out", "docs/bench/scale.md", "where to write the report (empty: only print it)")
	playgroundN := flag.Int("playground", 10000, "pods for the check against the playground (0: skip it)")
	syncs := flag.Bool("sync", true, "measure the initial syncs at every -n")
	steady := flag.Bool("steady", true, "measure the steady state (updates to 1 and 10 handlers)")
	profile := flag.String("profile", "", "write a CPU and an allocation profile of every sync into this directory")
	only := flag.String("only", "", "measure only the syncs of this encoding/mode, e.g. json/watchlist")
	pairs := flag.Int("pairs", 0, "instead of the report: this many steady-state pairs, ours and client-go's back to back, order alternating")
	pairHandlers := flag.Int("pair-handlers", 1, "handlers in each -pairs measurement")
	flag.Parse()
	klog.SetLogger(logr.Discard())

	if *child != "" {
		if err := runChild(*child); err != nil {
			fmt.Fprintln(os.Stderr, "bench-scale child:", err)
			os.Exit(1)
		}
		return
	}
	var ns []int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "bench-scale: -n wants positive numbers, got %q\n", f)
			os.Exit(2)
		}
		ns = append(ns, n)
	}
	if *reps < 1 {
		fmt.Fprintln(os.Stderr, "bench-scale: -reps must be at least 1")
		os.Exit(2)
	}
	if *profile != "" {
		// Made here, before any sync, so a missing directory is not found
		// by the first child, after the replay has spent its time encoding.
		if err := os.MkdirAll(*profile, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "bench-scale: -profile:", err)
			os.Exit(2)
		}
	}
	b := &bench{reps: *reps, results: map[key][]result{}, started: time.Now(), profile: *profile, only: *only}
	if *pairs > 0 {
		summary, err := b.pairRuns(*pairs, max(*pairHandlers, 1))
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-scale:", err)
			os.Exit(1)
		}
		fmt.Print(summary)
		return
	}
	if !*syncs {
		ns = nil
	}
	if err := b.run(ns, *steady, *playgroundN); err != nil {
		fmt.Fprintln(os.Stderr, "bench-scale:", err)
		os.Exit(1)
	}
	report := b.report(ns, *playgroundN)
	fmt.Print(report)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(report), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "bench-scale:", err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "bench-scale: wrote", *out)
	}
}

// key names one measured configuration; its results are one per repetition.
type key struct {
	Kind, Impl string
	Source     string // "replay" or "playground"
	Encoding   replay.Encoding
	Mode       string
	N          int
	Transform  bool
	Handlers   int
}

type bench struct {
	profile string
	only    string
	reps    int
	results map[key][]result
	started time.Time
	// apiserver is the playground's kube-apiserver as the report names it:
	// its own build's version, or the learner's (PLAYGROUND_BINARIES,
	// KUBEBUILDER_ASSETS) as that one reported itself.
	apiserver string
}

var (
	encodings = []replay.Encoding{replay.JSON, replay.Protobuf}
	modes     = []string{"watchlist", "list", "list-paged"}
	impls     = []string{"client-go", "ours", "ours-deltafifo"}
)

func (b *bench) run(ns []int, steady bool, playgroundN int) error {
	for _, n := range ns {
		pods := replay.Pods(n)
		for _, enc := range encodings {
			if err := b.syncRuns(pods, enc); err != nil {
				return err
			}
		}
	}
	if steady {
		if err := b.steadyRuns(); err != nil {
			return err
		}
	}
	if playgroundN > 0 {
		if err := b.playgroundRuns(playgroundN); err != nil {
			return err
		}
	}
	return nil
}

// syncRuns measures every informer, mode and the floor at one N and
// encoding, and the transform at JSON WatchList (client-go's defaults).
func (b *bench) syncRuns(pods []corev1.Pod, enc replay.Encoding) error {
	n := len(pods)
	b.progress("N=%d %s: encoding the replay", n, enc)
	whole, err := replay.Start(pods, replay.Options{Encoding: enc})
	if err != nil {
		return err
	}
	defer whole.Close()
	paged, err := replay.Start(pods, replay.Options{Encoding: enc, Paged: true})
	if err != nil {
		return err
	}
	defer paged.Close()

	var specs []spec
	for _, mode := range modes {
		if b.only != "" && b.only != string(enc)+"/"+mode {
			continue
		}
		url := whole.URL()
		if mode == "list-paged" {
			url = paged.URL()
		}
		for _, impl := range impls {
			// DeltaFIFO against RealFIFO is a variant: JSON shows it.
			if impl == "ours-deltafifo" && enc != replay.JSON {
				continue
			}
			specs = append(specs, spec{Kind: "sync", Impl: impl, URL: url, Encoding: enc, Mode: mode, N: n})
		}
		specs = append(specs, spec{Kind: "floor", Impl: "floor", URL: url, Encoding: enc, Mode: mode, N: n},
			spec{Kind: "keep", Impl: "keep", URL: url, Encoding: enc, Mode: mode, N: n})
	}
	if enc == replay.JSON && (b.only == "" || b.only == "json/watchlist") {
		for _, impl := range impls[:2] {
			specs = append(specs, spec{Kind: "sync", Impl: impl, URL: whole.URL(), Encoding: enc, Mode: "watchlist", N: n, Transform: true})
		}
	}
	return b.repeat("replay", specs)
}

// Steady state: 1,000 pods (the size of the cache hardly matters to one
// event), a burst of 5,000 updates, then 1,000 at 200 a second: a rate
// well under what either informer can decode on a busy 2-core machine, so
// the latency is the pipeline's and not a queue's.
const (
	steadyPods     = 1000
	steadyBurst    = 5000
	steadyPaced    = 1000
	steadyInterval = 5 * time.Millisecond
)

// steadyRuns measures every informer with 1 and 10 handlers, reps times.
// The order of the informers rotates from one repetition to the next: a
// latency tail is sensitive to what ran just before on a shared machine,
// and a side that always ran first would always meet it first.
func (b *bench) steadyRuns() error {
	pods := replay.Pods(steadyPods)
	for rep := range b.reps {
		for _, handlers := range []int{1, 10} {
			for i := range impls {
				impl := impls[(i+rep)%len(impls)]
				r, err := b.steadyOnce(pods, impl, handlers, false)
				if err != nil {
					return err
				}
				b.record("replay", rep, spec{Kind: "steady", Impl: impl, Encoding: replay.JSON, Mode: "watchlist", N: steadyPods, Handlers: handlers}, r)
			}
		}
	}
	return nil
}

// repeat runs each spec reps times, interleaved: rep 1 of every spec, then
// rep 2, so that a slow minute is shared.
func (b *bench) repeat(source string, specs []spec) error {
	for rep := range b.reps {
		for _, s := range specs {
			if err := b.once(source, rep, s); err != nil {
				return err
			}
		}
	}
	return nil
}

func (b *bench) once(source string, rep int, s spec) error {
	if b.profile != "" && s.Kind == "sync" {
		s.Profile = filepath.Join(b.profile, fmt.Sprintf("%s-%s-%s-%d-%s%s-%d", source, s.Encoding, s.Mode, s.N, s.Impl, transformTag(s.Transform), rep+1))
	}
	r, err := runOne(s)
	if err != nil {
		return fmt.Errorf("%s %s %s %s N=%d: %w", s.Kind, s.Impl, s.Encoding, s.Mode, s.N, err)
	}
	b.record(source, rep, s, r)
	return nil
}

// record keeps one repetition's result and reports it.
func (b *bench) record(source string, rep int, s spec, r result) {
	k := key{Kind: s.Kind, Impl: s.Impl, Source: source, Encoding: s.Encoding, Mode: s.Mode, N: s.N, Transform: s.Transform, Handlers: s.Handlers}
	b.results[k] = append(b.results[k], r)
	b.progress("%-10s %-6s %-8s %-10s N=%-6d %-20s rep %d/%d: %s", source, s.Kind, s.Encoding, s.Mode, s.N,
		s.Impl+transformTag(s.Transform)+handlersTag(s.Handlers), rep+1, b.reps, r.summary())
}

func transformTag(t bool) string {
	if t {
		return "+transform"
	}
	return ""
}

func handlersTag(h int) string {
	if h > 0 {
		return fmt.Sprintf(" h=%d", h)
	}
	return ""
}

func (r result) summary() string {
	if r.EventsPerSec > 0 {
		return fmt.Sprintf("%.0f events/s, p50 %s, p99 %s", r.EventsPerSec, seconds(r.P50), seconds(r.P99))
	}
	return fmt.Sprintf("%s, peak heap %s, held %s/pod", seconds(r.SyncSeconds), mib(float64(r.PeakHeap)), kib(r.HeldPerObj))
}

func (b *bench) progress(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "[%5.0fs] %s\n", time.Since(b.started).Seconds(), fmt.Sprintf(format, args...))
}

// runOne starts this command again with -child and reads its result.
func runOne(s spec) (result, error) {
	self, err := os.Executable()
	if err != nil {
		return result{}, err
	}
	arg, err := json.Marshal(s)
	if err != nil {
		return result{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, "-child", string(arg))
	// client-go's reflector streams (WatchList) unless its feature gate,
	// read from the environment, is off.
	cmd.Env = append(os.Environ(), "KUBE_FEATURE_WatchListClient="+strconv.FormatBool(s.Mode == "watchlist"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return result{}, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var r result
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return result{}, fmt.Errorf("reading the child's result %q: %w", stdout.String(), err)
	}
	return r, nil
}
