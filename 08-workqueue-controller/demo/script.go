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
	"k8s.io/client-go/rest"

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
	s.tl.Step(saySceneTitle, saySceneWhy)
	ns, err := s.env.Namespace(playgroundNamespace)
	if err != nil {
		return err
	}
	s.ns = ns
	if err := crd.Register(s.env.Ctx, s.dyn, crd.Foo); err != nil {
		return err
	}
	s.tl.Event("demo", "CRD", crd.Foo.Name(), "", sayRegisteredCRD)
	s.tl.Note(sayStandin, layerStandin)
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
	s.tl.Step(sayStartTitle, sayStartWhy.Format(workersFlag))
	s.faults = &faults{namespace: s.ns}
	opts := controller.Options{
		Namespace:       s.ns,
		MetricsProvider: s.metrics,
	}
	// The timeline watches the controller from outside: its informers,
	// queue, limiter, reconciles and recorder wrapped, its writes seen on
	// the way out, its log in Run's context. Nothing of it is in the
	// controller.
	tracer := observe.New(s.trace.observe)
	cfg := s.controllerConfig(s.env.RESTConfig(), tracer)
	s.applyBreaks(&opts, cfg) // --break: off by default
	ctrl, err := controller.NewForConfig(cfg, tracer.Options(opts))
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

// controllerConfig is cfg as the controller writes through it: --fail's
// 500s inside the tracer's transport, so that an injected failure is an
// answer it prints; a held write's wait outside it, so that the write's
// row is printed when the write is sent, not a second before.
func (s *script) controllerConfig(cfg *rest.Config, tracer *observe.Tracer) *rest.Config {
	cfg.Wrap(s.faults.fail)
	cfg = tracer.Config(cfg)
	cfg.Wrap(s.faults.hold)
	return cfg
}

// createFoo creates the Foo "example": the controller creates its
// Deployment and reports its available replicas.
func (s *script) createFoo() error {
	s.tl.Step(sayCreateTitle, sayCreateWhy)
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
	s.tl.Step(sayScaleTitle, sayScaleWhy)
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
	s.tl.Step(sayDeleteDeplTitle, sayDeleteDeplWhy)
	mark := s.trace.mark()
	// The demo's own writes are printed before they are sent, so their
	// rows come before the events they cause.
	if err := s.deleteDeploymentByHand("example-web"); err != nil {
		return err
	}
	return s.wait("Deployment example-web back", mark,
		wrote("CREATE", s.deployment("example-web"), ""),
		s.fooStatus("example", 3))
}

// editDeployment changes the Deployment's replicas by hand; the controller
// puts them back.
func (s *script) editDeployment() error {
	s.tl.Step(sayEditTitle, sayEditWhy)
	mark := s.trace.mark()
	d, err := s.kube.AppsV1().Deployments(s.ns).Get(s.env.Ctx, "example-web", metav1.GetOptions{})
	if err != nil {
		return err
	}
	five := int32(5)
	d.Spec.Replicas = &five
	answered := s.trace.send("UPDATE", s.deployment("example-web"), "spec.replicas=5", sayByHand)
	d, err = s.kube.AppsV1().Deployments(s.ns).Update(s.env.Ctx, d, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	answered(d.ResourceVersion)
	return s.wait("Deployment example-web corrected", mark,
		wrote("UPDATE", s.deployment("example-web"), "spec.replicas=3"))
}

// failingReconcile makes the next Deployment creates fail, creates the Foo
// "flaky", and shows the rate-limited retries.
func (s *script) failingReconcile() error {
	if failFlag == 0 {
		return nil
	}
	s.tl.Step(sayFailTitle.Format(failFlag), sayFailWhy.Format(failFlag, failFlag))
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
	s.tl.Note(sayWaited, strings.Join(delays, s.tl.Sprintf(sayListSep)))
	return s.failAgain()
}

// deleteFoo deletes the Foo "flaky"; its Deployment goes with it, through
// its owner reference.
func (s *script) deleteFoo() error {
	if failFlag == 0 {
		return nil
	}
	who := sayGarbageCollector
	if s.playground {
		who = sayStandinAsGC
	}
	s.tl.Step(sayDeleteFooTitle, sayDeleteFooWhy.Format(who))
	mark := s.trace.mark()
	if err := s.deleteFooByHand(s.env.Ctx, "flaky"); err != nil {
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
	s.tl.Step(sayShutdownTitle, sayShutdownWhy)
	s.faults.slowNextWrite(time.Second)
	mark := s.trace.mark()
	if err := s.setFooReplicas("example", 2); err != nil {
		return err
	}
	if err := s.trace.waitFor(s.env.Ctx, s.timeout, "a worker taking Foo example", mark, 0, workerTook(s.ns+"/example")); err != nil {
		return err
	}
	s.tl.EventAbout(nil, "demo", "cancel", sayControllersContext, "", sayAsCtrlC)
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
		s.tl.Note(sayDrained)
	default:
		s.tl.Note(sayDrainCut)
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
	s.tl.Note(sayInterrupted)
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
	s.tl.Step(sayMetricsTitle, sayMetricsWhy)
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
	answered := s.trace.send("UPDATE", "Foo "+s.ns+"/"+name, fmt.Sprintf("spec.replicas %d → %d", before, replicas))
	foo, err = foos.Update(s.env.Ctx, foo, metav1.UpdateOptions{})
	if err != nil {
		return err
	}
	answered(foo.GetResourceVersion())
	return nil
}

// newFoo creates a Foo with one replica, labelled as the demo's, so that a
// real cluster's namespace can tell the demo's objects from anyone else's.
func (s *script) newFoo(name, deployment string) error {
	foo := crd.NewFoo(s.ns, name, deployment, 1, map[string]string{managedByLabel: managedBy})
	answered := s.trace.send("CREATE", "Foo "+s.ns+"/"+name, "spec.replicas=1")
	foo, err := s.dyn.Resource(crd.Foo.GVR()).Namespace(s.ns).Create(s.env.Ctx, foo, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	answered(foo.GetResourceVersion())
	return nil
}

// deleteDeploymentByHand deletes a Deployment behind the controller's
// back. Its answer is a Status, with no resourceVersion.
func (s *script) deleteDeploymentByHand(name string) error {
	answered := s.trace.send("DELETE", s.deployment(name), "", sayByHand)
	rv, err := demo.Delete(s.env.Ctx, s.kube.AppsV1().RESTClient(), s.ns, "deployments", name, metav1.DeleteOptions{})
	if err != nil {
		return err
	}
	answered(rv)
	return nil
}

// deleteFooByHand deletes a Foo, as kubectl delete would.
func (s *script) deleteFooByHand(ctx context.Context, name string) error {
	answered := s.trace.send("DELETE", "Foo "+s.ns+"/"+name, "", sayByHand)
	if err := s.dyn.Resource(crd.Foo.GVR()).Namespace(s.ns).Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		return err
	}
	answered("")
	return nil
}
