package controller_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/standin"
)

var runSeq atomic.Int64

// env is a namespace of its own on the package's playground, with the Foo
// CRD registered and the stand-in playing kube-controller-manager there.
type env struct {
	ns   string
	cfg  *rest.Config
	kube kubernetes.Interface
	dyn  dynamic.Interface
}

func newEnv(t *testing.T, c *playground.Cluster, prefix string) *env {
	t.Helper()
	e := &env{ns: fmt.Sprintf("%s-%d", prefix, runSeq.Add(1)), cfg: c.RESTConfig()}
	var err error
	if e.kube, err = kubernetes.NewForConfig(e.cfg); err != nil {
		t.Fatal(err)
	}
	if e.dyn, err = dynamic.NewForConfig(e.cfg); err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if err := crd.Register(ctx, e.dyn, crd.Foo); err != nil {
		t.Fatal(err)
	}
	if _, err := e.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: e.ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return e
}

// runStandin plays kube-controller-manager in the env's namespace until the
// test ends.
func (e *env) runStandin(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		standin.Run(ctx, e.kube, e.dyn, standin.Options{Namespace: e.ns})
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}

// waitFor polls the namespace until its summary is want, or a minute
// passes; it returns the last world it saw.
func (e *env) waitFor(t *testing.T, who string, want []string) world {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		got, err := snapshot(t.Context(), e.kube, e.dyn, e.ns)
		if err != nil {
			t.Fatal(err)
		}
		diff := cmp.Diff(want, got.summary())
		if diff == "" {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the world did not converge within a minute (-want +got):\n%s", who, diff)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// model is what the workload asked for: Foo name → replicas.
type model map[string]int64

// summary is the world the controller should make of the model, with every
// Deployment labelled edited=yes when edited is true.
func (m model) summary(edited bool) []string {
	var lines []string
	for _, name := range sortedKeys(m) {
		lines = append(lines, fmt.Sprintf("foo %s: replicas=%d deployment=%s-web status=%d", name, m[name], name, m[name]))
	}
	for _, name := range sortedKeys(m) {
		line := fmt.Sprintf("deployment %s-web: replicas=%d owner=Foo/%s available=%d", name, m[name], name, m[name])
		if edited {
			line += " edited=yes"
		}
		lines = append(lines, line)
	}
	return lines
}

// TestSeededWorkloadReachesTheSameWorld runs the controller twice on the
// playground, once on each stack, each in a namespace of its own with the
// stand-in playing kube-controller-manager there, while one seeded
// workload does the same things to both namespaces: Foos created, scaled
// and deleted (and created again under the same name), and their
// Deployments deleted and edited behind the controllers' backs, in bursts
// that do not wait for the controllers. When it stops, each namespace must
// converge to what the workload asked for: every Foo's Deployment, owned by
// it, with its replicas, and every Foo's status reporting them. Then every
// Deployment is edited once more (replicas and a label): the replicas must
// be put back, the label kept. Finally the two namespaces, object for
// object after normalising what the server sets by itself, must be equal,
// and no key may ever have been reconciled by two workers at once.
//
// Ours runs a second time, not watched (no Tracer, nothing wrapped), in a
// third namespace: the same workload on the real clock must leave it the
// same world as the watched one, or watching changes what it watches.
func TestSeededWorkloadReachesTheSameWorld(t *testing.T) {
	c := cluster(t)
	type sideRun struct {
		side
		*env
		tr   *trace
		ctrl *running
	}
	var all []*sideRun
	alone := ours
	alone.name = "ours alone"
	for _, s := range append(slices.Clone(sides), alone) {
		e := newEnv(t, c, "workload-"+strings.ReplaceAll(s.name, " ", "-"))
		e.runStandin(t)
		var tr *trace
		if s.name != alone.name {
			tr = newTrace()
		}
		r := start(t, s, e.kube, e.dyn, e.ns, 2, controller.Options{}, tr)
		all = append(all, &sideRun{side: s, env: e, tr: tr, ctrl: r})
	}
	defer func() {
		for _, r := range all {
			r.ctrl.stop(t, r.name)
		}
	}()

	ctx := t.Context()
	rnd := rand.New(rand.NewPCG(12, 8))
	want := model{}
	names := []string{"foo-0", "foo-1", "foo-2", "foo-3", "foo-4"}
	for round := range 5 {
		for range 8 {
			name := names[rnd.IntN(len(names))]
			replicas := int64(1 + rnd.IntN(5))
			// Create, scale, delete: 4, 3 and 2 in 9, so that Foos pile up
			// and some are deleted and created again.
			op := []int{0, 0, 0, 0, 1, 1, 1, 2, 2}[rnd.IntN(9)]
			for _, r := range all {
				foos := r.dyn.Resource(crd.Foo.GVR()).Namespace(r.ns)
				var err error
				switch op {
				case 0:
					_, err = foos.Create(ctx, crd.NewFoo(r.ns, name, name+"-web", replicas, nil), metav1.CreateOptions{})
				case 1:
					_, err = foos.Patch(ctx, name, types.MergePatchType, fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, replicas), metav1.PatchOptions{})
				default:
					err = foos.Delete(ctx, name, metav1.DeleteOptions{})
				}
				if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsAlreadyExists(err) {
					t.Fatalf("round %d: %v", round, err)
				}
			}
			_, exists := want[name]
			switch {
			case op == 0 && !exists, op == 1 && exists:
				want[name] = replicas
			case op == 2:
				delete(want, name)
			}
		}
		for range 4 {
			name := names[rnd.IntN(len(names))]
			replicas := 1 + rnd.IntN(9)
			op := rnd.IntN(2)
			for _, r := range all {
				deployments := r.kube.AppsV1().Deployments(r.ns)
				var err error
				if op == 0 {
					err = deployments.Delete(ctx, name+"-web", metav1.DeleteOptions{})
				} else {
					_, err = deployments.Patch(ctx, name+"-web", types.MergePatchType, fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, replicas), metav1.PatchOptions{})
				}
				if err != nil && !apierrors.IsNotFound(err) {
					t.Fatalf("round %d: %v", round, err)
				}
			}
		}
	}
	if len(want) == 0 {
		t.Fatal("the seed leaves no Foo: pick another, or the comparison proves little")
	}
	for _, r := range all {
		r.waitFor(t, r.name+", after the workload", want.summary(false))
	}
	for _, r := range all {
		for name := range want {
			patch := `{"metadata":{"labels":{"edited":"yes"}},"spec":{"replicas":9}}`
			if _, err := r.kube.AppsV1().Deployments(r.ns).Patch(ctx, name+"-web", types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	worlds := map[string]world{}
	for _, r := range all {
		worlds[r.name] = r.waitFor(t, r.name+", after the last edits", want.summary(true))
	}
	if diff := cmp.Diff(worlds["client-go"], worlds["ours"]); diff != "" {
		t.Errorf("the two controllers made different worlds (-client-go +ours):\n%s", diff)
	}
	if diff := cmp.Diff(worlds["ours"], worlds[alone.name]); diff != "" {
		t.Errorf("watching our controller changed the world it made (-watched +alone):\n%s", diff)
	}
	for _, r := range all {
		if r.tr == nil {
			continue
		}
		if len(r.tr.overlaps) > 0 {
			t.Errorf("%s: a key was reconciled by two workers at once: %v", r.name, r.tr.overlaps)
		}
		if testing.Verbose() {
			t.Logf("%s: %d steps, at most %d reconciles at once", r.name, len(r.tr.snapshot()), r.tr.most)
		}
	}
	if testing.Verbose() {
		t.Logf("the world:\n%s", worlds["ours"])
	}
}

// TestShutdownFinishesTheReconcileInFlight cancels the controller while a
// worker is in the middle of a reconcile: its create of the Deployment has
// left the worker and is held for a second on the way to the server. Run
// must wait for it (ShutDownWithDrain), with a context the cancel did not
// reach, so the Deployment is created; only then may the informers stop.
// The same on both stacks: the drain is the workqueue's.
func TestShutdownFinishesTheReconcileInFlight(t *testing.T) {
	c := cluster(t)
	for _, s := range sides {
		t.Run(s.name, func(t *testing.T) {
			e := newEnv(t, c, "drain-"+s.name)
			tr := newTrace()
			kube, dyn, inFlight := slowCreates(t, e.cfg, time.Second, tr)
			r := start(t, s, kube, dyn, e.ns, 2, controller.Options{}, tr)
			if _, err := e.dyn.Resource(crd.Foo.GVR()).Namespace(e.ns).Create(t.Context(), crd.NewFoo(e.ns, "a", "a-web", 1, nil), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			select {
			case <-inFlight:
			case <-time.After(30 * time.Second):
				t.Fatal("the Deployment's create never started")
			}
			r.stop(t, s.name)

			if _, err := e.kube.AppsV1().Deployments(e.ns).Get(t.Context(), "a-web", metav1.GetOptions{}); err != nil {
				t.Errorf("the reconcile in flight at shutdown did not finish its write: %v", err)
			}
			var order []string
			for _, st := range tr.snapshot() {
				switch {
				case st.Layer == observe.LayerWrite && st.Op == "CREATE" && st.Sent:
					order = append(order, "CREATE sent")
				case st.Layer == observe.LayerWrite && st.Op == "CREATE":
					order = append(order, fmt.Sprintf("CREATE answered err=%v", st.Err))
				case st.Layer == observe.LayerController && st.Op != "Start" && st.Op != "Synced" && st.Op != "Workers":
					order = append(order, st.Op+": "+st.Detail)
				}
			}
			want := []string{
				"CREATE sent",
				"ShutDownWithDrain: stop taking keys; wait for the reconciles in flight",
				"CREATE answered err=<nil>",
				"Drained: no reconcile in flight",
				"Shutdown: workers returned",
				"Shutdown: informers stopped",
			}
			if diff := cmp.Diff(want, order); diff != "" {
				t.Errorf("the shutdown's order (-want +got):\n%s", diff)
			}
		})
	}
}

// TestShutdownCutsADrainThatOutlastsItsTimeout: the same, but the create
// is held for a minute and the controller's DrainTimeout is 200ms. When
// the bound passes, the reconcile's context is cancelled (the create
// returns its error) and the queue shut down, and Run returns nil within a
// second or so, not a minute, with no goroutine left, and without
// claiming a drain it did not finish.
func TestShutdownCutsADrainThatOutlastsItsTimeout(t *testing.T) {
	c := cluster(t)
	for _, s := range sides {
		t.Run(s.name, func(t *testing.T) {
			e := newEnv(t, c, "drain-timeout-"+s.name)
			tr := newTrace()
			kube, dyn, inFlight := slowCreates(t, e.cfg, time.Minute, tr)
			r := start(t, s, kube, dyn, e.ns, 2, controller.Options{DrainTimeout: 200 * time.Millisecond}, tr)
			if _, err := e.dyn.Resource(crd.Foo.GVR()).Namespace(e.ns).Create(t.Context(), crd.NewFoo(e.ns, "a", "a-web", 1, nil), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			select {
			case <-inFlight:
			case <-time.After(30 * time.Second):
				t.Fatal("the Deployment's create never started")
			}
			began := time.Now()
			r.stop(t, s.name)
			if took := time.Since(began); took > 10*time.Second {
				t.Errorf("Run took %v to return after the cancel, with a drain bound of 200ms", took)
			}
			var order []string
			for _, st := range tr.snapshot() {
				switch {
				case st.Layer == observe.LayerWrite && st.Op == "CREATE" && st.Sent:
					order = append(order, "CREATE sent")
				case st.Layer == observe.LayerWrite && st.Op == "CREATE":
					order = append(order, fmt.Sprintf("CREATE cancelled=%v", errors.Is(st.Err, context.Canceled)))
				case st.Layer == observe.LayerController && st.Op != "Start" && st.Op != "Synced" && st.Op != "Workers":
					order = append(order, st.Op)
				}
			}
			// No "Drained": the drain was cut, not finished.
			want := []string{"CREATE sent", "ShutDownWithDrain", "DrainTimeout", "CREATE cancelled=true", "Shutdown", "Shutdown"}
			if diff := cmp.Diff(want, order); diff != "" {
				t.Errorf("the shutdown's order (-want +got):\n%s", diff)
			}
		})
	}
}

// slowCreates returns clients on cfg whose creates of Deployments are held
// for hold (or until their request is cancelled) on the way to the server,
// and a channel that hears of each as it is held.
//
// The tracer's transport goes outside the hold, so a write's row is printed
// when the controller sends it and its answer's when it returns, as on a
// slow network.
func slowCreates(t *testing.T, cfg *rest.Config, hold time.Duration, tr *trace) (kubernetes.Interface, dynamic.Interface, <-chan struct{}) {
	t.Helper()
	inFlight := make(chan struct{}, 1)
	slow := rest.CopyConfig(cfg)
	slow.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(req *http.Request) (*http.Response, error) {
			if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/deployments") {
				select {
				case inFlight <- struct{}{}:
				default:
				}
				select {
				case <-time.After(hold):
				case <-req.Context().Done():
					return nil, req.Context().Err()
				}
			}
			return rt.RoundTrip(req)
		})
	})
	slow = tr.tracer.Config(slow)
	kube, err := kubernetes.NewForConfig(slow)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(slow)
	if err != nil {
		t.Fatal(err)
	}
	return kube, dyn, inFlight
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
