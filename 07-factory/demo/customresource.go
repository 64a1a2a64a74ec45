// Not a mirror of client-go: the demo's CustomResource step, running our
// dynamic factory (dynamic/dynamicinformer/informer.go's) on
// sample-controller's Foo, registered through internal/crd.

package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/07-factory/dynamicinformer"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/lang"
)

// customResource registers the Foo CRD (playground only), and reads Foos
// through the dynamic factory's ForResource, then watches one arrive.
func (s *script) customResource() error {
	gvr := crd.Foo.GVR()
	if !s.playground {
		gvr = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
		s.tl.Step(sayAnyResourceTitle, sayAnyResourceWhy)
	} else {
		s.tl.Step(sayCRTitle, sayCRWhy)
		if err := s.registerFoos(); err != nil {
			return err
		}
		_, err := s.factory.ForResource(gvr)
		s.tl.Event("factory", "ForResource", gvr.Resource, "error: "+firstClause(err), sayTypedFactory)
	}

	dyn, err := dynamic.NewForConfig(s.env.TimelineRESTConfig(s.counts.add))
	if err != nil {
		return err
	}
	s.counts.reset()
	f := dynamicinformer.NewFilteredDynamicSharedInformerFactory(dyn, 0, s.ns, nil)
	foos := f.ForResource(gvr)
	s.tl.Event("factory", "ForResource", gvr.String(), "", sayDynamicFactory)
	arrived := make(chan string, 16)
	if _, err := foos.Informer().AddEventHandler(informer.ResourceEventHandlerFuncs{AddFunc: func(obj any) {
		if u, ok := obj.(*unstructured.Unstructured); ok && s.playground {
			arrived <- u.GetName()
		}
	}}); err != nil {
		return err
	}
	stopCh := make(chan struct{})
	defer func() {
		close(stopCh)
		f.Shutdown()
	}()
	f.Start(stopCh)
	timeout := make(chan struct{})
	timer := time.AfterFunc(30*time.Second, func() { close(timeout) })
	defer timer.Stop()
	if !f.WaitForCacheSync(timeout)[gvr] {
		return fmt.Errorf("the dynamic informer of %v did not sync within 30s", gvr)
	}
	s.tl.Event("synced", "cache", gvr.Resource, "WaitForCacheSync: true")

	objs, err := foos.Lister().List(labels.Everything())
	if err != nil {
		return err
	}
	slices.SortFunc(objs, func(a, b runtime.Object) int { return strings.Compare(key(a), key(b)) })
	for i, obj := range objs {
		if i == 5 {
			s.tl.Note(sayAndMore, len(objs)-5)
			break
		}
		s.tl.Event("lister", "List", key(obj), describe(obj))
	}
	one, many := sayFoo, sayFoos
	if !s.playground {
		one, many = sayDeployment, sayDeployments
	}
	s.tl.Note(sayFromCache, lang.Count(len(objs), one, many))
	if !s.playground {
		return nil
	}

	// One more Foo: the watch brings it. The handler's row below is
	// printed by this goroutine, after the create's rows.
	if err := s.createFoo("third", "third-web", 3); err != nil {
		return err
	}
	for {
		select {
		case name := <-arrived:
			if name == "third" {
				s.tl.Event("handler", "OnAdd", s.ns+"/third", "", sayNewFoo)
				s.counts.print(s.tl, sayDynamicCount)
				return nil
			}
		case <-timeout:
			return fmt.Errorf("the new Foo did not reach the handler within 30s")
		}
	}
}

// registerFoos registers the CRD and creates two Foos.
func (s *script) registerFoos() error {
	admin, err := dynamic.NewForConfig(s.env.RESTConfig()) // not counted
	if err != nil {
		return err
	}
	if err := crd.Register(s.env.Ctx, admin, crd.Foo); err != nil {
		return err
	}
	s.tl.Event("demo", "CRD", crd.Foo.Name(), "", sayRegistered)
	for _, f := range []struct {
		name, deployment string
		replicas         int64
	}{{"example", "example-web", 2}, {"other", "other-web", 1}} {
		if err := s.createFoo(f.name, f.deployment, f.replicas); err != nil {
			return err
		}
	}
	return nil
}

// createFoo creates a Foo, printed as every demo prints a write: its
// request's row as it is sent, its answer's when it comes back.
func (s *script) createFoo(name, deployment string, replicas int64) error {
	admin, err := dynamic.NewForConfig(s.env.RESTConfig())
	if err != nil {
		return err
	}
	call := s.tl.Send("demo", "CREATE", s.ns+"/"+name, fmt.Sprintf("spec.replicas=%d", replicas))
	created, err := admin.Resource(crd.Foo.GVR()).Namespace(s.ns).Create(s.env.Ctx, crd.NewFoo(s.ns, name, deployment, replicas, nil), metav1.CreateOptions{})
	if err != nil {
		return err
	}
	call.Answered(created.GetResourceVersion(), "")
	return nil
}

// key is "namespace/name".
func key(obj runtime.Object) string {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return fmt.Sprintf("<%T>", obj)
	}
	if u.GetNamespace() == "" {
		return u.GetName()
	}
	return u.GetNamespace() + "/" + u.GetName()
}

// describe shows a few fields of an unstructured object: the kind, and a
// Foo's spec.
func describe(obj runtime.Object) string {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return ""
	}
	detail := fmt.Sprintf("kind=%s rv=%s", u.GetKind(), u.GetResourceVersion())
	if deployment, ok, _ := unstructured.NestedString(u.Object, "spec", "deploymentName"); ok {
		replicas, _, _ := unstructured.NestedInt64(u.Object, "spec", "replicas")
		detail += fmt.Sprintf(" spec.deploymentName=%s spec.replicas=%d", deployment, replicas)
	}
	return detail
}

// firstClause shortens an error for a timeline row.
func firstClause(err error) string {
	if err == nil {
		return "error=nil"
	}
	msg, _, _ := strings.Cut(err.Error(), ";")
	return msg
}
