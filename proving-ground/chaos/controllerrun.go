package chaos

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/faultproxy"
	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/standin"
	"informer-from-scratch/internal/timeline"
)

// A ControllerSide is one stack under stage 08's controller: the same
// reconcile on our informers and workqueue, or on client-go's. The test
// files have both; client-go's, the oracle, is imported only by tests.
type ControllerSide interface {
	Name() string
	// Run runs one controller in namespace ns until ctx ends, every
	// request of it (its informers' LISTs and WATCHes and its writes)
	// made through cfg, every Step handed to observe. It returns what the
	// controller's Run returned.
	Run(ctx context.Context, cfg *rest.Config, ns string, tracer *observe.Tracer) error
}

// ControllerConfig is one chaos run of controllers.
type ControllerConfig struct {
	Seed uint64
	// Duration is how long the workload and the faults run.
	Duration time.Duration
	// FaultEvery is the mean gap between two faults.
	FaultEvery time.Duration
	// Kinds are the faults to draw from; nil means faultproxy.AllKinds.
	Kinds []faultproxy.Kind
	// Converge bounds the wait, once the faults end, for every namespace
	// to be the world its Foos ask for.
	Converge time.Duration
	// Pace is the gap between two changes of the workload.
	Pace time.Duration
	// Cluster is the playground, started with DisableWatchCache so that a
	// compaction reaches the watches.
	Cluster *playground.Cluster
	Sides   []ControllerSide
	// Timeline, if set, gets a row per fault, per LIST and WATCH of each
	// side, and per failed reconcile.
	Timeline *timeline.Timeline
	// Progress, if set, gets a line at each phase.
	Progress io.Writer
}

// RunController is Run for stage 08's controller. One run is:
//
//	a playground with the Foo CRD, and one namespace per side, where
//	  internal/standin plays the deployment controller's status and the
//	  garbage collector (straight to the apiserver, as kube-controller-
//	  manager would)
//	  ← a seeded FooWorkload makes the same changes in every namespace
//	  ← internal/faultproxy, injecting the seed's fault plan
//	      ← each side's controller: its informers and its writes (Deployments,
//	        Foo status) both go through the proxy, so a 429, a 500 or a stall
//	        meets a write too, and the controller's retries must cope
//
// When the workload and the faults stop, each namespace must become, within
// Converge, what its Foos ask for (FooWorld.Wanted, compared with cmp.Diff),
// and again after the last word (lastWord: every Foo scaled, the
// controllers' writes in answer failed with 500s, which only a retry puts
// right); then the namespaces must be equal to each other (the same Foos,
// so the same Deployments), and each controller's Run must return nil when
// stopped. The error is for the harness failing; a side that did not
// converge is in the report's Failures.
func RunController(ctx context.Context, cfg ControllerConfig) (*ControllerReport, error) {
	if cfg.Pace == 0 {
		cfg.Pace = 100 * time.Millisecond
	}
	if cfg.Kinds == nil {
		cfg.Kinds = faultproxy.AllKinds
	}
	progress := cfg.Progress
	if progress == nil {
		progress = io.Discard
	}
	kube, err := kubernetes.NewForConfig(cfg.Cluster.RESTConfig())
	if err != nil {
		return nil, err
	}
	dyn, err := dynamic.NewForConfig(cfg.Cluster.RESTConfig())
	if err != nil {
		return nil, err
	}
	if err := crd.Register(ctx, dyn, crd.Foo); err != nil {
		return nil, err
	}
	rep := &ControllerReport{Seed: cfg.Seed, Duration: cfg.Duration, Plan: faultproxy.Plan(cfg.Seed, cfg.Duration, cfg.FaultEvery, cfg.Kinds), Playground: map[faultproxy.Kind]int{}}
	states := make([]*controllerState, len(cfg.Sides))
	var namespaces []string
	for i, s := range cfg.Sides {
		ns := fmt.Sprintf("chaos-ctl-%s-%d-%d", s.Name(), cfg.Seed, time.Now().UnixNano()%100000)
		if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
			return nil, err
		}
		states[i] = newControllerState(s, ns, cfg.Timeline)
		namespaces = append(namespaces, ns)
	}
	proxy, err := startProxy(cfg.Cluster, cfg.Seed, cfg.Timeline)
	if err != nil {
		return nil, err
	}
	defer proxy.Close()

	// The stand-ins and the controllers, until the end.
	bgCtx, stopAll := context.WithCancel(ctx)
	var background sync.WaitGroup
	defer func() { stopAll(); background.Wait() }()
	for _, st := range states {
		background.Go(func() { standin.Run(bgCtx, kube, dyn, standin.Options{Namespace: st.ns}) })
	}
	sideCtx, stopSides := context.WithCancel(ctx)
	var sides sync.WaitGroup
	defer func() { stopSides(); sides.Wait() }()
	for _, st := range states {
		sides.Go(func() {
			st.runErr = st.side.Run(sideCtx, st.rec.Wrap(jsonOnly(proxy.RESTConfig())), st.ns, observe.New(st.observe))
		})
	}
	if err := waitUntil(ctx, time.Minute, func() bool { return allStarted(states) }); err != nil {
		return nil, fmt.Errorf("the controllers did not sync before the faults: %w", err)
	}
	fmt.Fprintf(progress, "controller chaos seed %d: %d faults planned over %s; workload and faults start\n", cfg.Seed, len(rep.Plan), cfg.Duration)

	// The workload and the faults, for Duration.
	sampler := startSampler()
	work := NewFooWorkload(kube, dyn, namespaces, cfg.Seed)
	faultsEnded, err := storm(ctx, cfg.Duration, cfg.Cluster, cfg.Timeline, proxy, rep.Plan, rep.Playground, func(ctx context.Context) error { return work.Run(ctx, cfg.Pace) })
	rep.Workload = work.Counts()
	if err != nil {
		return rep, err
	}
	fmt.Fprintf(progress, "controller chaos seed %d: faults over; waiting up to %s for convergence\n", cfg.Seed, cfg.Converge)

	// Convergence: nothing but the controllers and the stand-ins writes now.
	converge(ctx, kube, dyn, states, cfg.Converge, faultsEnded)
	for _, st := range states {
		st.convergedFirst, st.tookFirst = st.converged, st.took
	}

	// The last word, once every side has converged: see lastWord.
	if allConverged(states) && len(states[0].last.Foos) > 0 {
		fmt.Fprintf(progress, "controller chaos seed %d: the last word: every Foo scaled, once without faults, then with the controllers' writes answered 500\n", cfg.Seed)
		scaled, unsettled, err := lastWord(ctx, kube, dyn, proxy, states, cfg.Converge)
		if err != nil {
			return rep, err
		}
		rep.LastWord = scaled
		if unsettled != "" {
			rep.Failures = append(rep.Failures, unsettled)
		}
		proxy.Disarm()
	}
	rep.PeakGoroutines, rep.PeakHeap = sampler.stop()
	rep.Proxy = proxy.Stats()

	// Stop the controllers: each Run must return nil.
	stopSides()
	sides.Wait()
	for _, st := range states {
		rep.Sides = append(rep.Sides, st.report())
		name := st.side.Name()
		switch {
		case st.readErr != nil:
			rep.Failures = append(rep.Failures, fmt.Sprintf("%s: reading its namespace %s: %v", name, st.ns, st.readErr))
		case !st.converged:
			when := "the faults"
			if rep.LastWord > 0 {
				when = "the last word (every Foo scaled, the controllers' writes answered 500)"
			}
			rep.Failures = append(rep.Failures, fmt.Sprintf("%s's namespace %s is not what its Foos ask for %s after %s (-wanted +got):\n%s", name, st.ns, cfg.Converge, when, cmp.Diff(st.last.Wanted(), st.last)))
		}
		if st.runErr != nil {
			rep.Failures = append(rep.Failures, fmt.Sprintf("%s: the controller's Run returned %v", name, st.runErr))
		}
	}
	for _, st := range states[1:] {
		if diff := cmp.Diff(states[0].last, st.last); diff != "" {
			rep.Failures = append(rep.Failures, fmt.Sprintf("the namespaces of %s and %s hold different worlds (-%s +%s):\n%s", states[0].side.Name(), st.side.Name(), states[0].side.Name(), st.side.Name(), diff))
		}
	}
	if len(states) > 0 {
		rep.Foos, rep.Deployments = len(states[0].last.Foos), len(states[0].last.Deployments)
	}
	return rep, nil
}

// jsonOnly makes the clients built on cfg speak JSON. The clientset asks
// for protobuf by default, which the proxy passes through untouched (its
// body faults edit JSON), so without this its 410s, malformed and
// wrong-typed objects would reach the Foo informers only, never the
// Deployment informers.
func jsonOnly(cfg *rest.Config) *rest.Config {
	cfg.ContentType = "application/json"
	cfg.AcceptContentTypes = "application/json"
	return cfg
}

// converge waits, for every side at once, until its namespace is what its
// Foos ask for, or for bound; it records in each side's state whether it
// got there, how long after since it took, and the world it saw last.
//
// During the last word the bound stretches to cover the retries the side's
// controller has scheduled (retryDue): a retry the rate limiter put two
// minutes ahead is a retry all the same. It does after a storm with many
// failures: the default controller rate limiter's overall token bucket (10
// per second, a burst of 100) is then in debt, and every key's next retry
// waits the debt out, however new its own failure.
func converge(ctx context.Context, kube kubernetes.Interface, dyn dynamic.Interface, states []*controllerState, bound time.Duration, since time.Time) {
	var converging sync.WaitGroup
	for _, st := range states {
		converging.Go(func() {
			st.converged = false
			for {
				st.last, st.readErr = ReadFooWorld(ctx, kube, dyn, st.ns)
				if st.readErr == nil && cmp.Diff(st.last.Wanted(), st.last) == "" {
					st.converged = true
					break
				}
				deadline := since.Add(bound)
				if due := st.retryDue(); !due.IsZero() {
					if limit := since.Add(maxRetryWait); due.After(limit) {
						due = limit
					}
					if due = due.Add(retrySlack); due.After(deadline) {
						deadline = due
					}
				}
				if time.Now().After(deadline) || ctx.Err() != nil {
					break
				}
				select {
				case <-ctx.Done():
				case <-time.After(100 * time.Millisecond):
				}
			}
			st.took = time.Since(since)
		})
	}
	converging.Wait()
}

const (
	// maxRetryWait caps how far the last word's wait stretches for a
	// retry the rate limiter scheduled; retrySlack is the time given to a
	// retry, once due, to put things right.
	maxRetryWait = 10 * time.Minute
	retrySlack   = 10 * time.Second
)

func allConverged(states []*controllerState) bool {
	for _, st := range states {
		if !st.converged {
			return false
		}
	}
	return true
}
