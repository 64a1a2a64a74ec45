// Not a mirror of client-go: the demo's rules on a real cluster, where it is
// the one demo that writes (demo.Options.WritesOnRealCluster). It writes only
// in a namespace of its own, and checks everything before its first write:
//
//   - the namespace (--namespace) is created by the demo and labelled as its
//     own; an existing namespace without that label is refused, and so is
//     one of ours that holds a Foo or a Deployment the demo did not make;
//   - the Foo CRD is registered by the demo, with an annotation saying so;
//     an existing one without it (someone's sample-controller, which would
//     reconcile the demo's Foos too) or with another schema is refused, and
//     never replaced;
//   - the real deployment controller and garbage collector do what
//     internal/standin does on the playground, so the stand-in does not run;
//   - --cleanup deletes the namespace at the end, and the CRD if the demo
//     registered it and no Foo is left anywhere. Without it both stay, for
//     kubectl, and the next run reuses them.

package main

import (
	"encoding/json"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/lang"
)

const (
	// defaultRealNamespace is --namespace's default.
	defaultRealNamespace = "informer-from-scratch-stage08"
	// managedByLabel, set to managedBy, marks what the demo created: its
	// namespace and Foos (a label), the Foo CRD (an annotation).
	managedByLabel = "app.kubernetes.io/managed-by"
	managedBy      = "informer-from-scratch-stage08-demo"
)

// prepareRealCluster checks the namespace and the CRD, refuses what is not
// the demo's, then creates what is missing.
func (s *script) prepareRealCluster() error {
	s.ns = namespaceFlag
	s.tl.Step(sayRealTitle, sayRealWhy.Format(s.ns, managedByLabel, managedBy))
	crdExists, err := s.checkCRD()
	if err != nil {
		return err
	}
	nsExists, err := s.checkNamespace(crdExists)
	if err != nil {
		return err
	}

	// Every check passed: the first writes.
	if !crdExists {
		def := crd.Foo
		def.Annotations = map[string]string{managedByLabel: managedBy}
		for k, v := range crd.Foo.Annotations {
			def.Annotations[k] = v
		}
		if err := crd.Register(s.env.Ctx, s.dyn, def); err != nil {
			return err
		}
		s.createdCRD = true
		s.tl.Event("demo", "CRD", crd.Foo.Name(), "", sayRegisteredOurs)
	} else {
		s.tl.Event("demo", "CRD", crd.Foo.Name(), "", sayReused)
	}
	if !nsExists {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: s.ns, Labels: map[string]string{managedByLabel: managedBy}}}
		answered := s.trace.send("CREATE", "Namespace "+s.ns, managedByLabel+"="+managedBy, sayLabelledOurs)
		created, err := s.kube.CoreV1().Namespaces().Create(s.env.Ctx, ns, metav1.CreateOptions{})
		if err != nil {
			return lang.Errorf(sayCreatingNamespace, s.ns, err)
		}
		answered(created.ResourceVersion)
	}
	return s.removeLeftovers()
}

// checkCRD reports whether the Foo CRD exists, and refuses one that is not
// the demo's or whose schema is not crd.Foo's.
func (s *script) checkCRD() (bool, error) {
	existing, err := s.dyn.Resource(crd.Resource).Get(s.env.Ctx, crd.Foo.Name(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, lang.Errorf(sayReadingCRD, crd.Foo.Name(), err)
	}
	if existing.GetAnnotations()[managedByLabel] != managedBy {
		return true, lang.Errorf(sayCRDNotOurs, crd.Foo.Name())
	}
	have, _, _ := unstructured.NestedFieldNoCopy(existing.Object, "spec", "versions")
	want, _, _ := unstructured.NestedFieldNoCopy(crd.Foo.Object().Object, "spec", "versions")
	if !sameJSON(have, want) {
		return true, lang.Errorf(sayCRDSchema, crd.Foo.Name())
	}
	return true, nil
}

// checkNamespace reports whether the namespace exists, and refuses one that
// is not the demo's, or holds Foos or Deployments the demo did not make.
func (s *script) checkNamespace(crdExists bool) (bool, error) {
	ns, err := s.kube.CoreV1().Namespaces().Get(s.env.Ctx, s.ns, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, lang.Errorf(sayReadingNamespace, s.ns, err)
	}
	if ns.Labels[managedByLabel] != managedBy {
		return true, lang.Errorf(sayNamespaceNotOurs, s.ns, managedByLabel, managedBy)
	}
	ours := map[string]bool{}
	if crdExists {
		foos, err := s.dyn.Resource(crd.Foo.GVR()).Namespace(s.ns).List(s.env.Ctx, metav1.ListOptions{})
		if err != nil {
			return true, err
		}
		for _, foo := range foos.Items {
			if foo.GetLabels()[managedByLabel] != managedBy {
				return true, lang.Errorf(sayForeignFoo, s.ns, foo.GetName())
			}
			ours[foo.GetName()] = true
		}
	}
	deployments, err := s.kube.AppsV1().Deployments(s.ns).List(s.env.Ctx, metav1.ListOptions{})
	if err != nil {
		return true, err
	}
	for _, d := range deployments.Items {
		if !ownedByOurFoo(&d, ours) {
			return true, lang.Errorf(sayForeignDeployment, s.ns, d.Name)
		}
	}
	return true, nil
}

// ownedByOurFoo reports whether a Deployment's controller is one of the
// demo's Foos.
func ownedByOurFoo(d *appsv1.Deployment, foos map[string]bool) bool {
	owner := metav1.GetControllerOf(d)
	return owner != nil && owner.Kind == crd.Foo.Kind && foos[owner.Name]
}

// removeLeftovers deletes the Foos an earlier run left in the namespace,
// and waits until the garbage collector has deleted their Deployments, so
// that this run starts from an empty namespace.
func (s *script) removeLeftovers() error {
	foos := s.dyn.Resource(crd.Foo.GVR()).Namespace(s.ns)
	list, err := foos.List(s.env.Ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, foo := range list.Items {
		answered := s.trace.send("DELETE", "Foo "+s.ns+"/"+foo.GetName(), "", sayLeftEarlier)
		if err := foos.Delete(s.env.Ctx, foo.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		answered("")
	}
	deadline := time.Now().Add(s.timeout)
	for {
		deployments, err := s.kube.AppsV1().Deployments(s.ns).List(s.env.Ctx, metav1.ListOptions{})
		if err != nil {
			return err
		}
		if len(deployments.Items) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return lang.Errorf(sayLeftoversStay, s.ns, s.timeout)
		}
		select {
		case <-time.After(time.Second):
		case <-s.env.Ctx.Done():
			return s.env.Ctx.Err()
		}
	}
}

// cleanup, on a real cluster with --cleanup, deletes the namespace, and the
// CRD if it is the demo's and no Foo is left in any other namespace.
func (s *script) cleanup() error {
	if s.playground {
		return nil
	}
	s.tl.Step(sayCleanupTitle)
	if !cleanupFlag {
		s.tl.Note(sayTheyStay, s.ns, crd.Foo.Name())
		return nil
	}
	answered := s.trace.send("DELETE", "Namespace "+s.ns, "--cleanup")
	if err := s.kube.CoreV1().Namespaces().Delete(s.env.Ctx, s.ns, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return lang.Errorf(sayDeletingNamespace, s.ns, err)
	}
	answered("")
	foos, err := s.dyn.Resource(crd.Foo.GVR()).List(s.env.Ctx, metav1.ListOptions{})
	if err != nil {
		return err
	}
	for _, foo := range foos.Items {
		if foo.GetNamespace() != s.ns {
			s.tl.Note(sayCRDStays, crd.Foo.Name(), foo.GetNamespace(), foo.GetName())
			return nil
		}
	}
	existing, err := s.dyn.Resource(crd.Resource).Get(s.env.Ctx, crd.Foo.Name(), metav1.GetOptions{})
	if err != nil || existing.GetAnnotations()[managedByLabel] != managedBy {
		return err
	}
	answered = s.trace.send("DELETE", "CRD "+crd.Foo.Name(), "--cleanup", sayCleanupCRD)
	if err := crd.Unregister(s.env.Ctx, s.dyn, crd.Foo); err != nil {
		return err
	}
	answered("")
	return nil
}

// sameJSON compares two unstructured values by their JSON, which does not
// care whether a number decoded as int64 or float64.
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}
