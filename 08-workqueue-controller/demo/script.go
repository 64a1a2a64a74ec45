// Not a mirror of client-go: the demo's steps, running stage 08's
// controller (sample-controller's controller.go, on our stages) on the
// playground, with internal/standin in kube-controller-manager's place.

package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/standin"
	"informer-from-scratch/internal/timeline"
)

// maxFail bounds --fail: the default rate limiter doubles the wait with each
// failure, and the step must end within its timeout.
const maxFail = 10

// playgroundNamespace is where the demo works on the playground.
const playgroundNamespace = "stage08"

// script holds what the steps share.
type script struct {
	env        *demo.Env
	tl         *timeline.Timeline
	playground bool
	ns         string
	// kube and dyn are the demo's own clients, for the changes it makes
	// "by hand", behind the controller's back.
	kube    kubernetes.Interface
	dyn     dynamic.Interface
	faults  *faults
	metrics *memMetrics
	trace   *trace
	// timeout bounds each wait: the playground answers in milliseconds, a
	// real cluster's controllers take longer.
	timeout time.Duration

	stopController context.CancelFunc
	controllerDone chan error
	stopStandin    context.CancelFunc
	standinDone    chan struct{}
	stopped        sync.Once
	// breaks is --break's switch (breaks.go); the zero value is none.
	breaks *breaks
	// createdCRD is set when the demo registered the Foo CRD on a real
	// cluster, so that --cleanup may remove it.
	createdCRD bool
}

func newScript(env *demo.Env) (*script, error) {
	dyn, err := dynamic.NewForConfig(env.RESTConfig())
	if err != nil {
		return nil, err
	}
	s := &script{env: env, tl: env.Timeline, playground: env.OnPlayground(), kube: env.Client, dyn: dyn,
		metrics: &memMetrics{}, timeout: 30 * time.Second}
	// The flags were checked before anything started (checkFlags).
	if s.breaks, err = parseBreak(breakFlag); err != nil {
		return nil, fmt.Errorf("--break=%s: %w", breakFlag, err)
	}
	if !s.playground {
		s.timeout = 2 * time.Minute
	}
	s.trace = &trace{tl: s.tl, dirty: s.metrics.depth.n.Load}
	return s, nil
}

// setScene registers the Foo CRD and makes the namespace; on the playground
// it also starts the stand-in.
func (s *script) setScene() error {
	if !s.playground {
		return s.prepareRealCluster()
	}
	s.tl.StepEN("Set the scene",
		"A namespace, sample-controller's Foo CRD, and the stand-in for kube-controller-manager.")
	ns, err := s.env.Namespace(playgroundNamespace)
	if err != nil {
		return err
	}
	s.ns = ns
	if err := crd.Register(s.env.Ctx, s.dyn, crd.Foo); err != nil {
		return err
	}
	s.tl.Event("demo", "CRD", crd.Foo.Name(), "registered and established: the apiserver serves foos")
	s.tl.NoteEN("The playground runs no kube-controller-manager: nothing would ever set a Deployment's status,")
	s.tl.NoteEN("nor delete a Foo's Deployment with it. internal/standin plays both parts, and says so on each")
	s.tl.NoteEN("of its rows (layer %q): the deployment controller's status, at once, as if every pod started;", layerStandin)
	s.tl.NoteEN("and the garbage collector's delete of a Deployment whose owner is gone.")
	ctx, cancel := context.WithCancel(s.env.Ctx)
	s.stopStandin, s.standinDone = cancel, make(chan struct{})
	go func() {
		defer close(s.standinDone)
		standin.Run(ctx, s.kube, s.dyn, standin.Options{Namespace: s.ns, OnAction: s.trace.standin})
	}()
	return nil
}

// startController builds the controller on our stages and runs it.
func (s *script) startController() error {
	s.tl.StepEN("Start the controller",
		fmt.Sprintf("controller.NewForConfig, then Run with %d workers: informers of Foos and Deployments", workersFlag),
		"from our factory, a rate-limited workqueue of keys, and the workers. Each row below is one",
		"step of a key's path: handler → workqueue (len: keys waiting; dirty: keys marked, some of them",
		"being processed) → worker → lister (the cache, never the server) → write (the API server).")
	s.faults = &faults{namespace: s.ns}
	cfg := s.env.RESTConfig()
	cfg.Wrap(s.faults.wrap)
	opts := controller.Options{
		Namespace:       s.ns,
		MetricsProvider: s.metrics,
	}
	s.applyBreaks(&opts, cfg) // --break: off by default
	// The timeline watches the controller from outside: its informers,
	// queue, limiter, reconciles and recorder wrapped, its writes seen on
	// the way out (outermost, so an injected fault is an answer it sees),
	// its log in Run's context. Nothing of it is in the controller.
	tracer := observe.New(s.trace.observe)
	ctrl, err := controller.NewForConfig(tracer.Config(cfg), tracer.Options(opts))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(s.env.Ctx)
	s.stopController, s.controllerDone = cancel, make(chan error, 1)
	mark := s.trace.mark()
	go func() { s.controllerDone <- ctrl.Run(tracer.Context(ctx), workersFlag) }()
	return s.wait("the workers to start", mark, func(st observe.Step) bool {
		return st.Layer == observe.LayerController && st.Op == "Workers"
	})
}

// createFoo creates the Foo "example": the controller creates its
// Deployment and reports its available replicas.
func (s *script) createFoo() error {
	s.tl.StepEN("Create a Foo",
		"Foo example asks for a Deployment example-web with 1 replica. The handler only enqueues the",
		"key; a worker reads the Foo from the lister, finds no Deployment there, and creates it.")
	mark := s.trace.mark()
	if err := s.newFoo("example", "example-web"); err != nil {
		return err
	}
	return s.wait("Foo example's Deployment and status", mark,
		wrote("CREATE", s.deployment("example-web"), ""),
		s.fooStatus("example", 1))
}

// scaleFoo changes the Foo's replicas; the controller updates the
// Deployment.
func (s *script) scaleFoo() error {
	s.tl.StepEN("Scale the Foo",
		"spec.replicas 1 → 3. The worker compares the Foo with its Deployment, both from the listers,",
		"and updates a copy of the Deployment: a lister's object belongs to the cache.")
	mark := s.trace.mark()
	if err := s.setFooReplicas("example", 3); err != nil {
		return err
	}
	return s.wait("Deployment example-web scaled", mark,
		wrote("UPDATE", s.deployment("example-web"), "spec.replicas=3"),
		s.fooStatus("example", 3))
}

// deleteDeployment deletes the Deployment behind the controller's back.
func (s *script) deleteDeployment() error {
	s.tl.StepEN("Delete the Deployment behind the controller's back",
		"The Deployment informer's OnDelete maps example-web to its Foo through the owner reference and",
		"enqueues example; the reconcile finds no Deployment and creates it again.")
	mark := s.trace.mark()
	// The demo's own writes are printed before they are sent, so their
	// rows come before the events they cause.
	s.tl.Event("demo", "DELETE", s.deployment("example-web"), "by hand")
	if err := s.kube.AppsV1().Deployments(s.ns).Delete(s.env.Ctx, "example-web", metav1.DeleteOptions{}); err != nil {
		return err
	}
	return s.wait("Deployment example-web back", mark,
		wrote("CREATE", s.deployment("example-web"), ""),
		s.fooStatus("example", 3))
}

// editDeployment changes the Deployment's replicas by hand; the controller
// puts them back.
func (s *script) editDeployment() error {
	s.tl.StepEN("Edit the Deployment by hand",
		"spec.replicas 3 → 5 on the Deployment itself. The Foo says 3; the reconcile does not care who",
		"changed what, only that the two differ, and writes 3 back.")
	mark := s.trace.mark()
	d, err := s.kube.AppsV1().Deployments(s.ns).Get(s.env.Ctx, "example-web", metav1.GetOptions{})
	if err != nil {
		return err
	}
	five := int32(5)
	d.Spec.Replicas = &five
	s.tl.Event("demo", "UPDATE", s.deployment("example-web"), "by hand: spec.replicas=5")
	d, err = s.kube.AppsV1().Deployments(s.ns).Update(s.env.Ctx, d, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	s.tl.Event("demo", "UPDATE", s.deployment("example-web"), "→ rv="+d.ResourceVersion)
	return s.wait("Deployment example-web corrected", mark,
		wrote("UPDATE", s.deployment("example-web"), "spec.replicas=3"))
}

// failingReconcile makes the next Deployment creates fail, creates the Foo
// "flaky", and shows the rate-limited retries.
func (s *script) failingReconcile() error {
	if failFlag == 0 {
		return nil
	}
	s.tl.StepEN(fmt.Sprintf("A reconcile that fails %d times", failFlag),
		fmt.Sprintf("--fail=%d: the demo's transport answers the next %d Deployment creates with a 500. Each", failFlag, failFlag),
		"failure re-queues the key with AddRateLimited: the default controller rate limiter's per-item",
		"backoff doubles the wait (5ms, 10ms, 20ms, …) until a reconcile succeeds and Forget resets it.")
	s.faults.failNextCreates(failFlag)
	s.breaks.ownerless.Store(s.breaks.noOwnerReference) // --break=owner-reference, from here on
	mark := s.trace.mark()
	if err := s.newFoo("flaky", "flaky-web"); err != nil {
		return err
	}
	if s.breaks.noOwnerReference {
		return s.refusedWithoutOwner(mark)
	}
	if err := s.wait("Foo flaky's Deployment after the failures", mark,
		wrote("CREATE", s.deployment("flaky-web"), ""),
		s.fooStatus("flaky", 1)); err != nil {
		return err
	}
	// The delays until the create went through (later ones, if any, are
	// conflicts of the status write, which the rows above show).
	var delays []string
	created := wrote("CREATE", s.deployment("flaky-web"), "")
	for _, st := range s.trace.since(mark) {
		if created(st) {
			break
		}
		if st.Op == "AddRateLimited" && st.Key == s.ns+"/flaky" {
			delays = append(delays, st.Delay.String())
		}
	}
	s.tl.NoteEN("Foo flaky waited %s between its attempts; then it succeeded and was forgotten:", strings.Join(delays, ", "))
	s.tl.NoteEN("its next failure would wait 5ms again.")
	return s.failAgain()
}

// deleteFoo deletes the Foo "flaky"; its Deployment goes with it, through
// its owner reference.
func (s *script) deleteFoo() error {
	if failFlag == 0 {
		return nil
	}
	who := "the garbage collector"
	if s.playground {
		who = "the stand-in, as the garbage collector,"
	}
	s.tl.StepEN("Delete a Foo",
		"The controller does nothing: the Deployment's owner reference names the Foo, and",
		who+" deletes what the Foo owned. The Deployment's OnDelete",
		"finds no Foo in the cache and is ignored.")
	mark := s.trace.mark()
	s.tl.Event("demo", "DELETE", "Foo "+s.ns+"/flaky", "by hand")
	if err := s.dyn.Resource(crd.Foo.GVR()).Namespace(s.ns).Delete(s.env.Ctx, "flaky", metav1.DeleteOptions{}); err != nil {
		return err
	}
	if s.breaks.noOwnerReference {
		return s.leftBehind(mark)
	}
	return s.wait("Deployment flaky-web gone with its Foo", mark, handled("OnDelete", s.deployment("flaky-web")))
}

// shutdown cancels the controller's context while a reconcile is in
// flight: ShutDownWithDrain lets it finish.
func (s *script) shutdown() error {
	s.tl.StepEN("Shut down with a reconcile in flight",
		"Scale the Foo to 2 with the next Deployment write held back for a second, and cancel the",
		"controller's context as soon as a worker takes the key. The queue stops taking keys; the drain",
		"waits for the reconcile to finish its write; then the informers stop.")
	s.faults.slowNextWrite(time.Second)
	mark := s.trace.mark()
	if err := s.setFooReplicas("example", 2); err != nil {
		return err
	}
	if err := s.trace.waitFor(s.env.Ctx, s.timeout, "a worker taking Foo example", mark, 0, workerTook(s.ns+"/example")); err != nil {
		return err
	}
	s.tl.Event("demo", "cancel", "the controller's context", "as Ctrl-C would")
	if err := s.stopControllerAndWait(); err != nil {
		return err
	}
	steps := s.trace.since(mark)
	write := slices.IndexFunc(steps, wrote("UPDATE", s.deployment("example-web"), "spec.replicas=2"))
	drained := slices.IndexFunc(steps, func(st observe.Step) bool {
		return st.Layer == observe.LayerController && st.Op == "Drained"
	})
	switch {
	case write >= 0 && write < drained:
		s.tl.NoteEN("The reconcile in flight finished its write before the drain ended; Run returned nil.")
	default:
		s.tl.NoteEN("The drain ended before the reconcile's write (it was cut short): see the rows above.")
	}
	s.stopStandinAndWait()
	return nil
}

// interrupted ends the story early on Ctrl-C (or SIGTERM), the way
// sample-controller's main ends: the interrupt cancelled the controller's
// context too, so it stops taking keys, drains the reconciles in flight and
// stops its informers. The metrics and a real cluster's --cleanup still run,
// on a context of their own, bounded. If the controller's Run returned nil,
// the demo exits 0. An interrupt before the controller started is an
// interrupted start, and exits 130.
func (s *script) interrupted() error {
	if s.stopController == nil {
		return s.env.Ctx.Err()
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(s.env.Ctx), time.Minute)
	defer cancel()
	s.env.Ctx = ctx
	if err := s.stopControllerAndWait(); err != nil {
		return err
	}
	s.stopStandinAndWait()
	s.tl.NoteEN("Ctrl-C: the controller stopped taking keys, drained and stopped its informers (the rows above); the rest of the story is skipped.")
	if err := s.printMetrics(); err != nil {
		return err
	}
	if err := s.cleanup(); err != nil {
		return err
	}
	s.env.ShutDownOnInterrupt()
	return nil
}

// printMetrics prints the workqueue's metrics.
func (s *script) printMetrics() error {
	s.tl.StepEN("The workqueue's metrics", "What a controller manager exports to Prometheus, from our queue's MetricsProvider.")
	s.metrics.print(s.tl, controller.QueueName)
	return nil
}

// stop ends the controller and the stand-in, whatever step failed.
func (s *script) stop() {
	s.stopControllerAndWait()
	s.stopStandinAndWait()
}

// stopControllerAndWait cancels the controller's context and returns Run's
// error, once.
func (s *script) stopControllerAndWait() error {
	var err error
	s.stopped.Do(func() {
		if s.stopController == nil {
			return
		}
		s.stopController()
		err = <-s.controllerDone
	})
	return err
}

func (s *script) stopStandinAndWait() {
	if s.stopStandin == nil {
		return
	}
	s.stopStandin()
	<-s.standinDone
}

// wait waits for wants, then for the controller to go quiet.
func (s *script) wait(what string, mark int, wants ...match) error {
	err := s.trace.waitFor(s.env.Ctx, s.timeout, what, mark, quiet, wants...)
	if err != nil && s.env.Ctx.Err() == nil {
		return errors.New("waiting for " + err.Error())
	}
	return err
}

// fooStatus matches the controller's write of a Foo's status with n
// available replicas. On a real cluster it matches anything: the real
// deployment controller takes its time (pods start), and the script does
// not wait for it.
func (s *script) fooStatus(name string, n int) match {
	if !s.playground {
		return func(observe.Step) bool { return true }
	}
	return wrote("UPDATE", "Foo "+s.ns+"/"+name+" status", fmt.Sprintf("status.availableReplicas=%d ", n))
}

func (s *script) deployment(name string) string { return "Deployment " + s.ns + "/" + name }

// setFooReplicas changes a Foo's spec.replicas, as kubectl edit would.
func (s *script) setFooReplicas(name string, replicas int64) error {
	foos := s.dyn.Resource(crd.Foo.GVR()).Namespace(s.ns)
	foo, err := foos.Get(s.env.Ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	before, _, _ := unstructured.NestedInt64(foo.Object, "spec", "replicas")
	if err := unstructured.SetNestedField(foo.Object, replicas, "spec", "replicas"); err != nil {
		return err
	}
	s.tl.Event("demo", "UPDATE", "Foo "+s.ns+"/"+name, fmt.Sprintf("spec.replicas %d → %d", before, replicas))
	foo, err = foos.Update(s.env.Ctx, foo, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	s.tl.Event("demo", "UPDATE", "Foo "+s.ns+"/"+name, "→ rv="+foo.GetResourceVersion())
	return nil
}

// newFoo creates a Foo with one replica, labelled as the demo's, so that a
// real cluster's namespace can tell the demo's objects from anyone else's.
func (s *script) newFoo(name, deployment string) error {
	foo := crd.NewFoo(s.ns, name, deployment, 1, map[string]string{managedByLabel: managedBy})
	s.tl.Event("demo", "CREATE", "Foo "+s.ns+"/"+name, "spec.replicas=1")
	foo, err := s.dyn.Resource(crd.Foo.GVR()).Namespace(s.ns).Create(s.env.Ctx, foo, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	s.tl.Event("demo", "CREATE", "Foo "+s.ns+"/"+name, "→ rv="+foo.GetResourceVersion())
	return nil
}
