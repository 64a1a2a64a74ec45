package chaos

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"informer-from-scratch/internal/crd"
)

// FooWorld is a namespace as stage 08's controller promises to leave it,
// normalised so that two namespaces compare equal when they hold the same
// Foos and Deployments: names and the fields the controller answers for,
// nothing the server sets by itself (uids, resourceVersions, timestamps).
type FooWorld struct {
	Foos        map[string]FooState
	Deployments map[string]DeploymentState
}

// FooState is a Foo: what it asks for and what its status reports.
type FooState struct {
	DeploymentName string
	Replicas       int64
	// Available is status.availableReplicas; nil while the controller has
	// not written it.
	Available *int64
}

// DeploymentState is a Deployment: its replicas, who controls it, and what
// its status reports.
type DeploymentState struct {
	// Replicas is spec.replicas (the apiserver defaults it to 1).
	Replicas int32
	// Owner is the controller owner reference: "Foo/name" when it names
	// the Foo of that name now in the namespace, by uid; "Foo/name (a
	// deleted Foo's uid)" when a Foo of that name was deleted and created
	// again; "Kind/name" for another kind; "none" without one.
	Owner     string
	Available int32
}

// ReadFooWorld reads a namespace's Foos and Deployments from the server.
func ReadFooWorld(ctx context.Context, kube kubernetes.Interface, dyn dynamic.Interface, ns string) (FooWorld, error) {
	w := FooWorld{Foos: map[string]FooState{}, Deployments: map[string]DeploymentState{}}
	foos, err := dyn.Resource(crd.Foo.GVR()).Namespace(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return w, fmt.Errorf("listing Foos: %w", err)
	}
	uids := map[string]types.UID{}
	for _, foo := range foos.Items {
		w.Foos[foo.GetName()] = fooState(foo)
		uids[foo.GetName()] = foo.GetUID()
	}
	deployments, err := kube.AppsV1().Deployments(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return w, fmt.Errorf("listing Deployments: %w", err)
	}
	for _, d := range deployments.Items {
		s := DeploymentState{Replicas: 1, Owner: "none", Available: d.Status.AvailableReplicas}
		if d.Spec.Replicas != nil {
			s.Replicas = *d.Spec.Replicas
		}
		if ref := metav1.GetControllerOf(&d); ref != nil {
			s.Owner = ref.Kind + "/" + ref.Name
			if ref.Kind == crd.Foo.Kind && ref.UID != uids[ref.Name] {
				s.Owner += " (a deleted Foo's uid)"
			}
		}
		w.Deployments[d.Name] = s
	}
	return w, nil
}

func fooState(foo unstructured.Unstructured) FooState {
	var s FooState
	s.DeploymentName, _, _ = unstructured.NestedString(foo.Object, "spec", "deploymentName")
	s.Replicas, _, _ = unstructured.NestedInt64(foo.Object, "spec", "replicas")
	if available, found, _ := unstructured.NestedInt64(foo.Object, "status", "availableReplicas"); found {
		s.Available = &available
	}
	return s
}

// Wanted is the world the controller must make of w's Foos, with the
// stand-in's help: every Foo reports its replicas as available, and has
// exactly its Deployment, with its replicas, controlled by it, all
// available; no other Deployment is left (an orphan of a deleted Foo
// shows as one too many).
func (w FooWorld) Wanted() FooWorld {
	want := FooWorld{Foos: map[string]FooState{}, Deployments: map[string]DeploymentState{}}
	for name, foo := range w.Foos {
		replicas := foo.Replicas
		want.Foos[name] = FooState{DeploymentName: foo.DeploymentName, Replicas: replicas, Available: &replicas}
		want.Deployments[foo.DeploymentName] = DeploymentState{Replicas: int32(replicas), Owner: crd.Foo.Kind + "/" + name, Available: int32(replicas)}
	}
	return want
}
