package controller_test

import (
	"context"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/standin"
	"informer-from-scratch/internal/testenv"
)

const fakeNS = "ns"

// checkpoint is what a scenario step left: the world and the Events
// recorded since the last checkpoint.
type checkpoint struct {
	Step    string
	Summary []string
	World   world
	Events  []string
}

// scenarioStep changes the world behind the controller's back.
type scenarioStep struct {
	name string
	do   func(t *testing.T, w *fakeWorld)
	want []string
}

// TestScenarioOnFakeClients runs one controller per side on fake clients,
// in a testing/synctest bubble, with the stand-in (internal/standin)
// playing the deployment controller's status and the garbage collector,
// through a script: a Foo that exists at start, scaled; its Deployment
// deleted and edited behind the controller's back; a second Foo; the first
// deleted and created again; a Foo whose Deployment name is taken by a
// Deployment it does not control (a Warning Event at every retry). After each step (and a second of fake
// time for the retries) both sides' worlds must be what the step expects,
// and equal to each other object for object, with the same kinds of Event.
//
// Each side runs twice, alone and watched by observe's Tracer (every seam
// wrapped, as the demo and the live view run it): watching must change
// nothing the controller does, so the two runs must leave the same worlds.
func TestScenarioOnFakeClients(t *testing.T) {
	steps := []scenarioStep{
		{"start with Foo a", func(*testing.T, *fakeWorld) {}, []string{
			"foo a: replicas=1 deployment=a-web status=1",
			"deployment a-web: replicas=1 owner=Foo/a available=1",
		}},
		{"scale a to 3", func(t *testing.T, w *fakeWorld) { scaleFoo(t, w, "a", 3) }, []string{
			"foo a: replicas=3 deployment=a-web status=3",
			"deployment a-web: replicas=3 owner=Foo/a available=3",
		}},
		{"delete a-web behind the controller's back", func(t *testing.T, w *fakeWorld) { deleteDeployment(t, w, "a-web") }, []string{
			"foo a: replicas=3 deployment=a-web status=3",
			"deployment a-web: replicas=3 owner=Foo/a available=3",
		}},
		{"edit a-web: 7 replicas and a label", func(t *testing.T, w *fakeWorld) { editDeployment(t, w, "a-web", 7) }, []string{
			"foo a: replicas=3 deployment=a-web status=3",
			"deployment a-web: replicas=3 owner=Foo/a available=3 edited=yes",
		}},
		{"create Foo b", func(t *testing.T, w *fakeWorld) { createFoo(t, w, "b", "b-web", 2) }, []string{
			"foo a: replicas=3 deployment=a-web status=3",
			"foo b: replicas=2 deployment=b-web status=2",
			"deployment a-web: replicas=3 owner=Foo/a available=3 edited=yes",
			"deployment b-web: replicas=2 owner=Foo/b available=2",
		}},
		{"delete Foo a", func(t *testing.T, w *fakeWorld) { deleteFoo(t, w, "a") }, []string{
			"foo b: replicas=2 deployment=b-web status=2",
			"deployment b-web: replicas=2 owner=Foo/b available=2",
		}},
		{"create Foo a again", func(t *testing.T, w *fakeWorld) { createFoo(t, w, "a", "a-web", 1) }, []string{
			"foo a: replicas=1 deployment=a-web status=1",
			"foo b: replicas=2 deployment=b-web status=2",
			"deployment a-web: replicas=1 owner=Foo/a available=1",
			"deployment b-web: replicas=2 owner=Foo/b available=2",
		}},
		{"a Deployment no Foo controls", func(t *testing.T, w *fakeWorld) { create(t, w, demo.Deployment(fakeNS, "taken", nil)) }, []string{
			"foo a: replicas=1 deployment=a-web status=1",
			"foo b: replicas=2 deployment=b-web status=2",
			"deployment a-web: replicas=1 owner=Foo/a available=1",
			"deployment b-web: replicas=2 owner=Foo/b available=2",
			"deployment taken: replicas=1 owner=none available=1",
		}},
		{"Foo c wants that Deployment, with 2 replicas", func(t *testing.T, w *fakeWorld) { createFoo(t, w, "c", "taken", 2) }, []string{
			"foo a: replicas=1 deployment=a-web status=1",
			"foo b: replicas=2 deployment=b-web status=2",
			"foo c: replicas=2 deployment=taken status=unset",
			"deployment a-web: replicas=1 owner=Foo/a available=1",
			"deployment b-web: replicas=2 owner=Foo/b available=2",
			"deployment taken: replicas=1 owner=none available=1",
		}},
	}
	testenv.CaptureErrors(t)
	results := map[string][]checkpoint{}
	for _, s := range sides {
		for _, watched := range []bool{false, true} {
			name := s.name
			var tr *trace
			if watched {
				name, tr = s.name+" watched", newTrace()
			}
			// A subtest per side: synctest.Test ends its test at the first
			// failure, and the other side should still run.
			t.Run(name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					w := newFakeWorld(crd.NewFoo(fakeNS, "a", "a-web", 1, nil))
					ctx, cancel := context.WithCancel(context.Background())
					standinDone := make(chan struct{})
					go func() {
						defer close(standinDone)
						standin.Run(ctx, w.kube, w.dyn, standin.Options{Namespace: fakeNS})
					}()
					recorder := fakeRecorder()
					r := start(t, s, w.kube, w.dyn, fakeNS, 2, controller.Options{Recorder: recorder}, tr)
					defer func() {
						r.stop(t, s.name)
						cancel()
						<-standinDone
					}()
					for _, step := range steps {
						step.do(t, w)
						time.Sleep(time.Second)
						synctest.Wait()
						got, err := snapshot(context.Background(), w.kube, w.dyn, fakeNS)
						if err != nil {
							t.Fatal(err)
						}
						// Which Events, not how many: how many intermediate states a
						// reconcile sees depends on how its worker and the stand-in
						// interleave, on either stack.
						events := drainEvents(recorder)
						slices.Sort(events)
						events = slices.Compact(events)
						results[name] = append(results[name], checkpoint{Step: step.name, Summary: got.summary(), World: got, Events: events})
						if diff := cmp.Diff(step.want, got.summary()); diff != "" {
							t.Errorf("%s, after %q (-want +got):\n%s", name, step.name, diff)
						}
					}
				})
			})
		}
	}
	if diff := cmp.Diff(results["client-go"], results["ours"]); diff != "" {
		t.Errorf("the two stacks left different worlds or Events (-client-go +ours):\n%s", diff)
	}
	for _, s := range sides {
		if diff := cmp.Diff(results[s.name], results[s.name+" watched"]); diff != "" {
			t.Errorf("%s: watching the controller changed what it did (-alone +watched):\n%s", s.name, diff)
		}
	}
}

// create adds a typed object through the fake clientset.
func create(t testing.TB, w *fakeWorld, d *appsv1.Deployment) {
	t.Helper()
	if _, err := w.kube.AppsV1().Deployments(d.Namespace).Create(context.Background(), d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func createFoo(t *testing.T, w *fakeWorld, name, deployment string, replicas int64) {
	t.Helper()
	if _, err := w.dyn.Resource(crd.Foo.GVR()).Namespace(fakeNS).Create(context.Background(), crd.NewFoo(fakeNS, name, deployment, replicas, nil), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func scaleFoo(t *testing.T, w *fakeWorld, name string, replicas int64) {
	t.Helper()
	foos := w.dyn.Resource(crd.Foo.GVR()).Namespace(fakeNS)
	foo, err := foos.Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	foo.Object["spec"].(map[string]any)["replicas"] = replicas
	if _, err := foos.Update(context.Background(), foo, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func deleteFoo(t *testing.T, w *fakeWorld, name string) {
	t.Helper()
	if err := w.dyn.Resource(crd.Foo.GVR()).Namespace(fakeNS).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func deleteDeployment(t *testing.T, w *fakeWorld, name string) {
	t.Helper()
	if err := w.kube.AppsV1().Deployments(fakeNS).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// editDeployment sets a Deployment's replicas and labels it edited=yes, as
// a person with kubectl edit would.
func editDeployment(t *testing.T, w *fakeWorld, name string, replicas int32) {
	t.Helper()
	deployments := w.kube.AppsV1().Deployments(fakeNS)
	d, err := deployments.Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Spec.Replicas = ptr.To(replicas)
	if d.Labels == nil {
		d.Labels = map[string]string{}
	}
	d.Labels["edited"] = "yes"
	if _, err := deployments.Update(context.Background(), d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}
