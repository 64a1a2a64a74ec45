// Not a mirror of client-go: test and demo machinery standing in for two
// controllers of kube-controller-manager (kubernetes pkg/controller/
// deployment and pkg/controller/garbagecollector), reduced to the one
// effect of each that stage 08's controller depends on.

// Package standin plays, on the playground, the parts of
// kube-controller-manager that the playground does not run and that stage
// 08's Foo controller relies on:
//
//   - the deployment controller's status: on a real cluster, a
//     Deployment's status.availableReplicas follows its pods as they
//     start. The playground has no controller manager, no scheduler and no
//     kubelet, so no pod ever starts and the status never changes. The
//     stand-in writes, for every Deployment whose status does not match its
//     spec, the status a healthy rollout ends with: every replica updated,
//     ready and available, observedGeneration caught up. At once: it does
//     not pretend pods take time to start.
//   - the garbage collector: on a real cluster, deleting a Foo deletes the
//     Deployments whose owner reference points at it. The stand-in deletes
//     every Deployment whose controller owner reference names a Foo (by
//     UID) that no longer exists.
//
// It watches Deployments and Foos in one namespace and, after every batch
// of events, looks at everything again: level-triggered, like the
// controllers it stands in for, but with plain LISTs and WATCHes instead of
// informers, so that it depends on nothing the stages build.
package standin

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"

	"informer-from-scratch/internal/crd"
)

// Action is one write the stand-in made.
type Action struct {
	// What is STATUS (the deployment controller's part) or DELETE (the
	// garbage collector's).
	What string
	// Object is "Deployment namespace/name".
	Object string
	// Detail says what is written, or why the Deployment is deleted; on
	// the row after the write, its new resourceVersion, or why it failed.
	// In English: a demo that narrates in another language reads the
	// fields below.
	Detail string
	// Replicas is the availableReplicas a STATUS writes, Owner the Foo a
	// DELETE's Deployment names as its gone owner.
	Replicas int32
	Owner    string
	// Answer marks the report of a write's answer: RV is the resourceVersion
	// it carries ("" for a DELETE's), Err why the write was refused.
	Answer bool
	RV     string
	Err    error
}

// Options configure Run.
type Options struct {
	// Namespace is where the stand-in looks; it must not be empty.
	Namespace string
	// OnAction, if set, hears of each write twice: when it is sent (so the
	// watch events it causes come after it), and when its answer comes.
	OnAction func(Action)
	// Pause, if set, is called before each pass; a demo uses it to hold
	// the stand-in back while it shows a step.
	Pause func(ctx context.Context)
}

// retryAfter is how long Run waits after a failed LIST or WATCH.
const retryAfter = 200 * time.Millisecond

// Run plays both parts in opts.Namespace until ctx ends.
func Run(ctx context.Context, kube kubernetes.Interface, dyn dynamic.Interface, opts Options) error {
	if opts.Namespace == "" {
		return fmt.Errorf("standin: Run needs a namespace")
	}
	s := &standin{kube: kube, dyn: dyn, opts: opts}
	for ctx.Err() == nil {
		if err := s.watchAndAct(ctx); err != nil && ctx.Err() == nil {
			select {
			case <-time.After(retryAfter):
			case <-ctx.Done():
			}
		}
	}
	return nil
}

type standin struct {
	kube kubernetes.Interface
	dyn  dynamic.Interface
	opts Options
}

// watchAndAct opens a watch on Deployments and one on Foos, then looks at
// everything, and again after every batch of events, until a watch ends.
// The watches are opened before the first look so that no change falls
// between the two.
func (s *standin) watchAndAct(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	deployments, err := s.kube.AppsV1().Deployments(s.opts.Namespace).Watch(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	defer deployments.Stop()
	foos, err := s.dyn.Resource(crd.Foo.GVR()).Namespace(s.opts.Namespace).Watch(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	defer foos.Stop()
	for {
		if s.opts.Pause != nil {
			s.opts.Pause(ctx)
		}
		if err := s.pass(ctx); err != nil {
			return err
		}
		if !waitForEvents(ctx, deployments, foos) {
			return nil
		}
	}
}

// waitForEvents blocks until an event comes, then takes every event already
// waiting, so that a burst costs one pass. It returns false when a watch
// ended (or ctx did).
func waitForEvents(ctx context.Context, watches ...watch.Interface) bool {
	got := func(e watch.Event, ok bool) bool { return ok && e.Type != watch.Error }
	select {
	case e, ok := <-watches[0].ResultChan():
		if !got(e, ok) {
			return false
		}
	case e, ok := <-watches[1].ResultChan():
		if !got(e, ok) {
			return false
		}
	case <-ctx.Done():
		return false
	}
	for {
		select {
		case e, ok := <-watches[0].ResultChan():
			if !got(e, ok) {
				return false
			}
		case e, ok := <-watches[1].ResultChan():
			if !got(e, ok) {
				return false
			}
		default:
			return true
		}
	}
}

// pass lists Deployments and Foos and acts on every Deployment that needs
// it. Conflicts and NotFounds are left to the next pass: the change that
// caused them is an event on the way.
//
// Deployments are listed first: a Deployment's owner existed before it, so
// a Foo list taken afterwards holds every owner still alive. The other
// order collects a live Foo's new Deployment when the Foo and its
// Deployment are both created between the two lists. (The real garbage
// collector asks the server for the owner before it deletes a dependent.)
func (s *standin) pass(ctx context.Context) error {
	list, err := s.kube.AppsV1().Deployments(s.opts.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	fooList, err := s.dyn.Resource(crd.Foo.GVR()).Namespace(s.opts.Namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	foos := map[types.UID]bool{}
	for _, foo := range fooList.Items {
		foos[foo.GetUID()] = true
	}
	for i := range list.Items {
		d := &list.Items[i]
		var err error
		if owner := metav1.GetControllerOf(d); owner != nil && owner.Kind == crd.Foo.Kind && !foos[owner.UID] {
			err = s.collect(ctx, d, owner.Name)
		} else if needsStatus(d) {
			err = s.writeStatus(ctx, d)
		}
		if err != nil && !apierrors.IsConflict(err) && !apierrors.IsNotFound(err) {
			return err
		}
	}
	return nil
}

// collect deletes a Deployment whose Foo is gone, as the garbage collector
// would: in the background, and only that Deployment (the UID
// precondition), not a new one of the same name.
func (s *standin) collect(ctx context.Context, d *appsv1.Deployment, owner string) error {
	object := "Deployment " + d.Namespace + "/" + d.Name
	s.act(Action{What: "DELETE", Object: object, Owner: owner, Detail: fmt.Sprintf("its owner, Foo %s, is gone (the garbage collector's part)", owner)})
	err := s.kube.AppsV1().Deployments(d.Namespace).Delete(ctx, d.Name, metav1.DeleteOptions{
		Preconditions:     &metav1.Preconditions{UID: ptr.To(d.UID)},
		PropagationPolicy: ptr.To(metav1.DeletePropagationBackground),
	})
	s.answered("DELETE", object, "", err)
	return err
}

// needsStatus reports whether a Deployment's status is not yet that of a
// finished rollout of its spec.
func needsStatus(d *appsv1.Deployment) bool {
	want := desiredReplicas(d)
	st := d.Status
	return st.ObservedGeneration != d.Generation || st.Replicas != want || st.UpdatedReplicas != want ||
		st.ReadyReplicas != want || st.AvailableReplicas != want
}

// desiredReplicas is spec.replicas, which the apiserver defaults to 1.
func desiredReplicas(d *appsv1.Deployment) int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}

// writeStatus writes the status a finished rollout has.
func (s *standin) writeStatus(ctx context.Context, d *appsv1.Deployment) error {
	want := desiredReplicas(d)
	d = d.DeepCopy()
	d.Status.ObservedGeneration = d.Generation
	d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.ReadyReplicas, d.Status.AvailableReplicas = want, want, want, want
	d.Status.UnavailableReplicas = 0
	object := "Deployment " + d.Namespace + "/" + d.Name
	s.act(Action{What: "STATUS", Object: object, Replicas: want, Detail: fmt.Sprintf("availableReplicas=%d (the deployment controller's part)", want)})
	updated, err := s.kube.AppsV1().Deployments(d.Namespace).UpdateStatus(ctx, d, metav1.UpdateOptions{FieldManager: "standin-deployment-controller"})
	rv := ""
	if err == nil {
		rv = updated.ResourceVersion
	}
	s.answered("STATUS", object, rv, err)
	return err
}

// answered reports a write's answer: its new resourceVersion, or why it
// was refused (a conflict or a gone object is retried, or moot, at the
// next pass).
func (s *standin) answered(what, object, rv string, err error) {
	a := Action{What: what, Object: object, Answer: true, RV: rv, Err: err}
	switch {
	case err != nil:
		a.Detail = "not written: " + err.Error()
	case rv != "":
		a.Detail = "→ rv=" + rv
	default:
		a.Detail = "→ done"
	}
	s.act(a)
}

func (s *standin) act(a Action) {
	if s.opts.OnAction != nil {
		s.opts.OnAction(a)
	}
}
