package chaos

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"sync"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"informer-from-scratch/internal/faultproxy"
	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/reqlog"
	"informer-from-scratch/internal/timeline"
)

// A Side is one library's informers under chaos. The test files have two:
// client-go's and ours. Stage 08's controller is not a third Side: its
// truth is not a LIST of what the workload wrote but what the controller
// should have written (every Foo's Deployment), so it has a run of its own,
// RunController, with a ControllerSide, a FooWorkload and FooWorld.Wanted.
type Side interface {
	Name() string
	// Run starts one informer per resource of Resources in namespace ns,
	// listing and watching through cfg, with the Views of views[resource]
	// as its handlers, and returns once they have all stopped after ctx
	// ends.
	Run(ctx context.Context, cfg *rest.Config, ns string, views map[string][]*View)
	// HasSynced reports whether every informer and every registration
	// has synced.
	HasSynced() bool
	// Caches are the informers' caches, resource → key → resourceVersion
	// (CacheContent).
	Caches() map[string]map[string]string
	// Tombstone unwraps the library's DeletedFinalStateUnknown.
	Tombstone(obj any) (key string, last any, ok bool)
	// Recovered is how many handler panics the library caught.
	Recovered() int
}

// Config is one chaos run.
type Config struct {
	Seed uint64
	// Duration is how long the workload and the faults run.
	Duration time.Duration
	// FaultEvery is the mean gap between two faults.
	FaultEvery time.Duration
	// Kinds are the faults to draw from; nil means faultproxy.AllKinds.
	Kinds []faultproxy.Kind
	// Converge bounds the wait, once the faults end, for every side to
	// match the server.
	Converge time.Duration
	// Pace is the gap between two changes of the workload.
	Pace time.Duration
	// Cluster is the playground, started with DisableWatchCache so that a
	// compaction reaches the watches.
	Cluster *playground.Cluster
	Sides   []Side
	// Timeline, if set, gets a row per fault and per request each side
	// makes: a run a person can read.
	Timeline *timeline.Timeline
	// Progress, if set, gets a line at each phase.
	Progress io.Writer
}

// handlerNames are the three handlers each informer has.
var handlerNames = []string{"plain", "slow", "panicky"}

// Run runs the workload and the faults, then waits for convergence, and
// reports. The error is for the harness failing (the playground, the
// workload); a side that did not converge is in Report.Failures.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Pace == 0 {
		cfg.Pace = 15 * time.Millisecond
	}
	if cfg.Kinds == nil {
		cfg.Kinds = faultproxy.AllKinds
	}
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	client, err := kubernetes.NewForConfig(cfg.Cluster.RESTConfig())
	if err != nil {
		return nil, err
	}
	ns := fmt.Sprintf("chaos-%d-%d", cfg.Seed, time.Now().UnixNano()%100000)
	if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		return nil, err
	}
	rep := &Report{Seed: cfg.Seed, Duration: cfg.Duration, Plan: faultproxy.Plan(cfg.Seed, cfg.Duration, cfg.FaultEvery, cfg.Kinds)}
	proxy, err := startProxy(cfg.Cluster, cfg.Seed, cfg.Timeline)
	if err != nil {
		return nil, err
	}
	defer proxy.Close()

	// The sides, each on its own recorded connection to the proxy.
	sideCtx, stopSides := context.WithCancel(ctx)
	var running sync.WaitGroup
	defer func() { stopSides(); running.Wait() }()
	states := make([]*sideState, len(cfg.Sides))
	for i, s := range cfg.Sides {
		st := newSideState(s, cfg.Timeline)
		states[i] = st
		views := st.makeViews(s)
		running.Go(func() { s.Run(sideCtx, st.rec.Wrap(proxy.RESTConfig()), ns, views) })
	}
	if err := waitUntil(ctx, time.Minute, func() bool { return allSynced(cfg.Sides) }); err != nil {
		return nil, fmt.Errorf("the sides did not sync before the faults: %w", err)
	}
	fmt.Fprintf(progress, "chaos seed %d: %d faults planned over %s; workload and faults start\n", cfg.Seed, len(rep.Plan), cfg.Duration)

	// The workload, the faults and the sampler, for Duration.
	sampler := startSampler()
	work := NewWorkload(client, ns, cfg.Seed)
	rep.Playground = map[faultproxy.Kind]int{}
	faultsEnded, err := storm(ctx, cfg.Duration, cfg.Cluster, cfg.Timeline, proxy, rep.Plan, rep.Playground, func(ctx context.Context) error { return work.Run(ctx, cfg.Pace) })
	rep.Workload = work.Counts()
	if err != nil {
		return rep, err
	}
	fmt.Fprintf(progress, "chaos seed %d: faults over (%d made); waiting up to %s for convergence\n", cfg.Seed, len(rep.Plan), cfg.Converge)

	// Convergence: the truth is fixed now that nothing writes.
	var truth map[string]map[string]string
	if err := waitUntil(ctx, cfg.Converge, func() bool {
		truth, err = ServerContent(ctx, client, ns)
		return err == nil
	}); err != nil {
		return rep, fmt.Errorf("listing the server's objects after the faults: %v", err)
	}
	var converging sync.WaitGroup
	for _, st := range states {
		converging.Go(func() {
			st.converged = waitUntil(ctx, cfg.Converge, func() bool { return st.diff(truth) == "" }) == nil
			st.took = time.Since(faultsEnded)
		})
	}
	converging.Wait()
	rep.PeakGoroutines, rep.PeakHeap = sampler.stop()
	rep.Proxy = proxy.Stats()
	rep.Objects = 0
	for _, objs := range truth {
		rep.Objects += len(objs)
	}
	for _, st := range states {
		rep.Sides = append(rep.Sides, st.report())
		if !st.converged {
			rep.Failures = append(rep.Failures, fmt.Sprintf("%s did not converge within %s (-server +%s):\n%s", st.side.Name(), cfg.Converge, st.side.Name(), st.diff(truth)))
		}
		if got, want := st.side.Recovered(), st.panics(); got != want {
			rep.Failures = append(rep.Failures, fmt.Sprintf("%s: its panicky handlers panicked %d times, the library recovered %d", st.side.Name(), want, got))
		}
		for _, v := range st.allViews() {
			d := v.Delivered()
			if len(d.Errors) > 0 {
				rep.Failures = append(rep.Failures, fmt.Sprintf("%s's handler %s was given what is not an object: %v", st.side.Name(), v.Name, d.Errors))
			}
			if len(d.Broken) > 0 {
				rep.Failures = append(rep.Failures, fmt.Sprintf("%s's handler %s got %d calls that contradict the ones before (the first five): %q", st.side.Name(), v.Name, len(d.Broken), d.Broken[:min(5, len(d.Broken))]))
			}
		}
	}
	return rep, nil
}

// startProxy starts the fault proxy in front of the playground, telling
// the timeline, if there is one, of every fault and of every ERROR event
// the apiserver itself sends.
func startProxy(c *playground.Cluster, seed uint64, tl *timeline.Timeline) (*faultproxy.Proxy, error) {
	return faultproxy.Start(c.RESTConfig(), faultproxy.Options{Seed: seed,
		OnFault: func(f faultproxy.Fault) {
			if tl != nil {
				tl.Event("fault", string(f.Kind), f.Resource, f.Detail)
			}
		},
		OnServerError: func(res string, code int, reason string) {
			if tl != nil {
				tl.Event("apiserver", "ERROR", res, fmt.Sprintf("%d %s, the apiserver's own", code, reason))
			}
		},
	})
}

// storm runs work and the fault plan side by side for duration, then
// disarms the proxy: what a chaos run does between its sides' sync and its
// wait for convergence. It returns when the faults ended, and the errors of
// work and of the faults. A fault under way when duration ends is finished
// on ctx.
func storm(ctx context.Context, duration time.Duration, c *playground.Cluster, tl *timeline.Timeline, proxy *faultproxy.Proxy, plan []faultproxy.Planned, made map[faultproxy.Kind]int, work func(context.Context) error) (time.Time, error) {
	runCtx, stopRun := context.WithTimeout(ctx, duration)
	defer stopRun()
	var phase sync.WaitGroup
	var workErr, playErr error
	phase.Go(func() { workErr = work(runCtx) })
	phase.Go(func() { playErr = playFaults(ctx, runCtx, c, tl, proxy, plan, made) })
	phase.Wait()
	proxy.Disarm()
	return time.Now(), errors.Join(workErr, playErr)
}

// playFaults makes the plan's faults until it is done or runCtx ends,
// counting the playground's own (compactions, restarts) in made. A
// fault under way is finished on ctx. It returns the first error.
func playFaults(ctx, runCtx context.Context, c *playground.Cluster, tl *timeline.Timeline, proxy *faultproxy.Proxy, plan []faultproxy.Planned, made map[faultproxy.Kind]int) error {
	var first error
	faultproxy.Play(runCtx, plan, func(f faultproxy.Planned) {
		if err := makeFault(ctx, Config{Cluster: c, Timeline: tl}, proxy, f.Kind); err != nil && first == nil {
			first = err
		}
		if f.Kind == faultproxy.Compact || f.Kind == faultproxy.Restart {
			made[f.Kind]++
		}
	})
	return first
}

// makeFault makes one planned fault. An etcd compaction happens while the
// informers are cut off: their watches end, the workload writes on for a
// second, etcd compacts, and the connection comes back, so that each
// watch resumes from before the compacted revision and meets the real 410.
// (Compacting under open watches would change nothing: they are past it.)
func makeFault(ctx context.Context, cfg Config, proxy *faultproxy.Proxy, k faultproxy.Kind) error {
	switch k {
	case faultproxy.Compact:
		if err := proxy.Disconnect(); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
		rev, err := cfg.Cluster.Compact(ctx)
		if rerr := proxy.Reconnect(); err == nil {
			err = rerr
		}
		if err != nil {
			return err
		}
		if cfg.Timeline != nil {
			cfg.Timeline.Event("fault", string(k), "etcd", fmt.Sprintf("while the informers were cut off for 1s: history before revision %d is gone", rev))
		}
		return nil
	case faultproxy.Restart:
		if cfg.Timeline != nil {
			cfg.Timeline.Event("fault", string(k), "kube-apiserver", "stopped; etcd keeps running with its data")
		}
		start := time.Now()
		// The proxy goes down with the apiserver, so the informers see
		// what they would see without it: their connections refused.
		if err := proxy.Disconnect(); err != nil {
			return err
		}
		err := cfg.Cluster.RestartAPIServer(ctx)
		if rerr := proxy.Reconnect(); err == nil {
			err = rerr
		}
		if cfg.Timeline != nil && err == nil {
			cfg.Timeline.Event("fault", string(k), "kube-apiserver", fmt.Sprintf("ready again after %s", time.Since(start).Round(time.Millisecond)))
		}
		return err
	}
	return proxy.Inject(k)
}

// sideState is what Run keeps about one side.
type sideState struct {
	side      Side
	rec       *reqlog.Recorder
	views     map[string][]*View
	converged bool
	took      time.Duration
	mu        sync.Mutex
	lists     int
	watches   int
}

func newSideState(s Side, tl *timeline.Timeline) *sideState {
	st := &sideState{side: s}
	st.rec = &reqlog.Recorder{OnRequest: func(r reqlog.Request) {
		kind := classify(r)
		st.mu.Lock()
		switch kind {
		case "LIST":
			st.lists++
		case "WATCH":
			st.watches++
		}
		st.mu.Unlock()
		if tl != nil && kind != "" {
			tl.Event(s.Name(), kind, resourceOfPath(r.Path), shortQuery(r))
		}
	}}
	return st
}

func (st *sideState) makeViews(s Side) map[string][]*View {
	st.views = map[string][]*View{}
	for _, res := range Resources {
		for _, name := range handlerNames {
			v := &View{Name: res + "/" + name, Tombstone: s.Tombstone}
			switch name {
			case "slow":
				v.Delay = 5 * time.Millisecond
			case "panicky":
				v.PanicOnBoom = true
			}
			st.views[res] = append(st.views[res], v)
		}
	}
	return st.views
}

func (st *sideState) allViews() []*View {
	var out []*View
	for _, res := range Resources {
		out = append(out, st.views[res]...)
	}
	return out
}

func (st *sideState) panics() int {
	n := 0
	for _, v := range st.allViews() {
		n += v.Delivered().Panics
	}
	return n
}

// diff compares the side's caches and every View with the truth; "" when
// all are equal.
func (st *sideState) diff(truth map[string]map[string]string) string {
	got, want := map[string]map[string]string{}, map[string]map[string]string{}
	caches := st.side.Caches()
	for _, res := range Resources {
		got["cache "+res], want["cache "+res] = caches[res], truth[res]
		for _, v := range st.views[res] {
			got["handler "+v.Name], want["handler "+v.Name] = v.Objects(), truth[res]
		}
	}
	return cmp.Diff(want, got, cmpopts.EquateEmpty())
}

func (st *sideState) report() SideReport {
	st.mu.Lock()
	defer st.mu.Unlock()
	r := SideReport{Name: st.side.Name(), Lists: st.lists, Watches: st.watches, Converged: st.converged, ConvergeTime: st.took, Recovered: st.side.Recovered()}
	for _, v := range st.allViews() {
		d := v.Delivered()
		r.Delivered.Adds += d.Adds
		r.Delivered.Updates += d.Updates
		r.Delivered.Deletes += d.Deletes
		r.Delivered.Tombstones += d.Tombstones
		r.Delivered.Panics += d.Panics
	}
	return r
}

// classify names a recorded request: LIST (a LIST, or a WatchList stream,
// which is a list), WATCH, or "" for anything else.
func classify(r reqlog.Request) string {
	if r.Method != "GET" {
		return ""
	}
	if w := r.Query.Get("watch"); w == "true" || w == "1" {
		if r.Query.Get("sendInitialEvents") == "true" {
			return "LIST"
		}
		return "WATCH"
	}
	return "LIST"
}

func resourceOfPath(path string) string {
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			return path[i+1:]
		}
	}
	return path
}

func shortQuery(r reqlog.Request) string {
	q := ""
	if rv := r.Query.Get("resourceVersion"); rv != "" {
		q = "rv=" + rv
	}
	if r.Query.Get("sendInitialEvents") == "true" {
		q += " (WatchList)"
	}
	return q
}

func allSynced(sides []Side) bool {
	for _, s := range sides {
		if !s.HasSynced() {
			return false
		}
	}
	return true
}

// waitUntil polls cond every 100ms for up to d.
func waitUntil(ctx context.Context, d time.Duration, cond func() bool) error {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return fmt.Errorf("not within %s", d)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil
}

// CacheContent reads a cache as key → resourceVersion; an object that is
// not of type want is listed as such, so it cannot pass for the server's.
func CacheContent(objs []any, want reflect.Type) map[string]string {
	out := map[string]string{}
	for _, obj := range objs {
		m, err := meta.Accessor(obj)
		if err != nil {
			out[fmt.Sprintf("<%T>", obj)] = "not an object"
			continue
		}
		rv := m.GetResourceVersion()
		if reflect.TypeOf(obj) != want {
			rv = fmt.Sprintf("%s, of the wrong type %T", rv, obj)
		}
		out[m.GetNamespace()+"/"+m.GetName()] = rv
	}
	return out
}

func metaList(list apiruntime.Object) (map[string]string, error) {
	items, err := meta.ExtractList(list)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, obj := range items {
		m, err := meta.Accessor(obj)
		if err != nil {
			return nil, err
		}
		out[m.GetNamespace()+"/"+m.GetName()] = m.GetResourceVersion()
	}
	return out, nil
}

// sampler records the process's peak goroutines and heap, every 100ms.
type sampler struct {
	done       chan struct{}
	finished   sync.WaitGroup
	goroutines int
	heap       uint64
}

func startSampler() *sampler {
	s := &sampler{done: make(chan struct{})}
	s.finished.Go(func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			s.goroutines = max(s.goroutines, runtime.NumGoroutine())
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			s.heap = max(s.heap, ms.HeapAlloc)
			select {
			case <-s.done:
				return
			case <-t.C:
			}
		}
	})
	return s
}

func (s *sampler) stop() (int, uint64) {
	close(s.done)
	s.finished.Wait()
	return s.goroutines, s.heap
}
