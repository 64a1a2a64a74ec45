package chaos

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"informer-from-scratch/internal/crd"
)

// fooPool is how many Foo names the workload draws from: few, so that
// creates, scales and deletes keep meeting the same Foos, and a Foo is
// often deleted and created again under its old name while its old
// Deployment still waits for the garbage collector.
const fooPool = 6

// FooWorkload makes seeded random changes for stage 08's controllers: it
// creates, scales and deletes Foos, and, behind the controllers' backs,
// deletes Deployments and sets their replicas to something else. Each
// change is made in every one of its namespaces in turn (one per
// controller), so that when it stops every namespace holds the same Foos.
// Like Workload, it writes straight to the apiserver, not through the
// proxy, and tries a change again while the apiserver restarts.
type FooWorkload struct {
	kube       kubernetes.Interface
	foos       dynamic.NamespaceableResourceInterface
	namespaces []string
	rand       *rand.Rand
	counts     FooWorkloadCounts
}

// FooWorkloadCounts is what a FooWorkload did, counted once per change
// (not once per namespace).
type FooWorkloadCounts struct {
	Creates, Scales, Deletes int
	// DeploymentDeletes and DeploymentEdits are the changes made behind
	// the controllers' backs.
	DeploymentDeletes, DeploymentEdits int
	// NoOps are writes the server refused as they stood (a create of a Foo
	// that exists, a change to one that does not), per namespace.
	NoOps int
	// Retries are writes tried again after the apiserver failed them.
	Retries int
}

// NewFooWorkload returns the workload of seed for the namespaces.
func NewFooWorkload(kube kubernetes.Interface, dyn dynamic.Interface, namespaces []string, seed uint64) *FooWorkload {
	return &FooWorkload{kube: kube, foos: dyn.Resource(crd.Foo.GVR()), namespaces: namespaces, rand: rand.New(rand.NewPCG(seed, 0xf00))}
}

// Counts returns what the workload did so far.
func (w *FooWorkload) Counts() FooWorkloadCounts { return w.counts }

// Run makes a change every pace until ctx ends. It returns an error only
// when a write keeps failing for a minute.
func (w *FooWorkload) Run(ctx context.Context, pace time.Duration) error {
	return paced(ctx, pace, w.Step)
}

// Step makes one change, in every namespace. Of ten changes, three create a
// Foo, three scale one, two delete one, one deletes a Deployment and one
// edits a Deployment's replicas.
func (w *FooWorkload) Step(ctx context.Context) error {
	name := fmt.Sprintf("foo-%d", w.rand.IntN(fooPool))
	deployment := name + "-web"
	replicas := int64(1 + w.rand.IntN(5))
	op := w.rand.IntN(10)
	var do func(ns string) error
	switch {
	case op < 3:
		w.counts.Creates++
		do = func(ns string) error {
			_, err := w.foos.Namespace(ns).Create(ctx, crd.NewFoo(ns, name, deployment, replicas, nil), metav1.CreateOptions{})
			return err
		}
	case op < 6:
		w.counts.Scales++
		do = func(ns string) error {
			_, err := w.foos.Namespace(ns).Patch(ctx, name, types.MergePatchType, fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, replicas), metav1.PatchOptions{})
			return err
		}
	case op < 8:
		w.counts.Deletes++
		do = func(ns string) error { return w.foos.Namespace(ns).Delete(ctx, name, metav1.DeleteOptions{}) }
	case op < 9:
		w.counts.DeploymentDeletes++
		do = func(ns string) error {
			return w.kube.AppsV1().Deployments(ns).Delete(ctx, deployment, metav1.DeleteOptions{})
		}
	default:
		w.counts.DeploymentEdits++
		// 6 to 10: never what a Foo asks for, so every edit is one the
		// controller must undo.
		edited := 6 + w.rand.IntN(5)
		do = func(ns string) error {
			_, err := w.kube.AppsV1().Deployments(ns).Patch(ctx, deployment, types.MergePatchType, fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, edited), metav1.PatchOptions{})
			return err
		}
	}
	var errs []error
	for _, ns := range w.namespaces {
		noOp, retries, err := retry(ctx, func() error { return do(ns) }, refusedAsItStands)
		w.counts.Retries += retries
		if noOp {
			w.counts.NoOps++
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// refusedAsItStands tells a write the server refused because of what the
// namespace holds (the Foo exists, or does not) from one it failed: right
// after a restart, the apiserver answers 404 for every Foo until it serves
// the CRD again, a NotFound that names no object, and that write must be
// tried again or the namespaces would end up holding different Foos.
func refusedAsItStands(err error) bool {
	if apierrors.IsAlreadyExists(err) {
		return true
	}
	var status apierrors.APIStatus
	if !apierrors.IsNotFound(err) || !errors.As(err, &status) {
		return false
	}
	details := status.Status().Details
	return details != nil && details.Name != ""
}
