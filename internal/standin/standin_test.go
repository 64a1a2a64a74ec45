package standin_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/kubernetes"
	kubefake "k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/standin"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// owned is a Deployment whose controller is the Foo called foo with uid.
func owned(name, foo, uid string) *appsv1.Deployment {
	d := demo.Deployment("ns", name, nil)
	d.Generation = 1
	d.OwnerReferences = []metav1.OwnerReference{{
		APIVersion: crd.Foo.GVK().GroupVersion().String(), Kind: crd.Foo.Kind,
		Name: foo, UID: types.UID("uid-" + uid), Controller: ptr.To(true),
	}}
	return d
}

// running is a stand-in started by start, with the actions it reported.
type running struct {
	cancel context.CancelFunc
	done   chan error

	mu      sync.Mutex
	actions []string
}

// start runs the stand-in on namespace ns until stop.
func start(kube kubernetes.Interface, dyn dynamic.Interface) *running {
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{cancel: cancel, done: make(chan error, 1)}
	go func() {
		// Each write comes twice: when it is sent, then its answer. A
		// write that went through is kept, as "WHAT Object: detail".
		sent := map[string]string{}
		r.done <- standin.Run(ctx, kube, dyn, standin.Options{Namespace: "ns", OnAction: func(a standin.Action) {
			r.mu.Lock()
			defer r.mu.Unlock()
			write := a.What + " " + a.Object
			switch {
			case strings.HasPrefix(a.Detail, "→"):
				r.actions = append(r.actions, write+": "+sent[write])
			case strings.HasPrefix(a.Detail, "not written"):
			default:
				sent[write] = a.Detail
			}
		}})
	}()
	return r
}

// stop ends the stand-in, checks that Run returned no error, and returns
// the writes it made, as "WHAT Object: detail".
func (r *running) stop(t *testing.T) []string {
	t.Helper()
	r.cancel()
	if err := <-r.done; err != nil {
		t.Errorf("Run returned %v", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.actions
}

// TestStandinPlaysStatusAndGarbageCollector: a Deployment whose Foo is
// alive gets the status of a finished rollout, and again when it is scaled;
// one whose Foo is gone (or whose owner reference names the uid of a Foo
// deleted and created again under the same name) is deleted; one with no
// owner gets a status and is kept. Each write is reported as an Action.
func TestStandinPlaysStatusAndGarbageCollector(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		foo := crd.NewFoo("ns", "alive", "alive-web", 2, nil)
		foo.SetUID("uid-alive")
		dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
			map[schema.GroupVersionResource]string{crd.Foo.GVR(): "FooList"}, foo)
		kube := kubefake.NewClientset(
			owned("alive-web", "alive", "alive"),
			owned("gone-web", "gone", "gone"),
			owned("stale-web", "alive", "an-older-alive"),
			demo.Deployment("ns", "plain", nil),
			demo.Deployment("elsewhere", "other-ns", nil),
		)
		r := start(kube, dyn)
		time.Sleep(time.Second)
		synctest.Wait()

		ctx := context.Background()
		d, err := kube.AppsV1().Deployments("ns").Get(ctx, "alive-web", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d.Spec.Replicas = ptr.To[int32](4)
		if _, err := kube.AppsV1().Deployments("ns").Update(ctx, d, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		actions := r.stop(t)

		list, err := kube.AppsV1().Deployments("").List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var left []string
		for _, d := range list.Items {
			left = append(left, fmt.Sprintf("%s/%s available=%d", d.Namespace, d.Name, d.Status.AvailableReplicas))
		}
		slices.Sort(left)
		if diff := cmp.Diff([]string{"elsewhere/other-ns available=0", "ns/alive-web available=4", "ns/plain available=1"}, left); diff != "" {
			t.Errorf("the Deployments left (-want +got):\n%s", diff)
		}
		slices.Sort(actions)
		want := []string{
			"DELETE Deployment ns/gone-web: its owner, Foo gone, is gone (the garbage collector's part)",
			"DELETE Deployment ns/stale-web: its owner, Foo alive, is gone (the garbage collector's part)",
			"STATUS Deployment ns/alive-web: availableReplicas=1 (the deployment controller's part)",
			"STATUS Deployment ns/alive-web: availableReplicas=4 (the deployment controller's part)",
			"STATUS Deployment ns/plain: availableReplicas=1 (the deployment controller's part)",
		}
		if diff := cmp.Diff(want, actions); diff != "" {
			t.Errorf("the stand-in's actions (-want +got):\n%s", diff)
		}
	})
}

// TestStandinSparesADeploymentBornBetweenItsLists: a Foo and its
// Deployment created while a pass is between its two lists (the controller
// is that fast on the playground) are left alone. Listing Foos before
// Deployments would see the Deployment and not its owner, and collect it.
func TestStandinSparesADeploymentBornBetweenItsLists(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dyn := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
			map[schema.GroupVersionResource]string{crd.Foo.GVR(): "FooList"})
		kube := kubefake.NewClientset()
		var lists atomic.Int32
		born := func(k8stesting.Action) (bool, runtime.Object, error) {
			if lists.Add(1) == 2 { // the second list of the first pass
				foo := crd.NewFoo("ns", "born", "born-web", 1, nil)
				foo.SetUID("uid-born")
				if err := dyn.Tracker().Add(foo); err != nil {
					t.Error(err)
				}
				if err := kube.Tracker().Add(owned("born-web", "born", "born")); err != nil {
					t.Error(err)
				}
			}
			return false, nil, nil
		}
		dyn.PrependReactor("list", "*", born)
		kube.PrependReactor("list", "*", born)

		r := start(kube, dyn)
		time.Sleep(time.Second)
		synctest.Wait()
		actions := r.stop(t)
		if lists.Load() < 2 {
			t.Fatalf("the stand-in listed %d times, want a pass's two lists", lists.Load())
		}
		if slices.ContainsFunc(actions, func(a string) bool { return strings.HasPrefix(a, "DELETE Deployment ns/born-web:") }) {
			t.Errorf("the stand-in collected born-web, whose Foo is alive; its actions: %v", actions)
		}
		if _, err := kube.AppsV1().Deployments("ns").Get(context.Background(), "born-web", metav1.GetOptions{}); err != nil {
			t.Errorf("born-web: %v", err)
		}
	})
}

// TestStandinNeedsANamespace: it never acts on a whole cluster.
func TestStandinNeedsANamespace(t *testing.T) {
	err := standin.Run(context.Background(), kubefake.NewClientset(), dynamicfake.NewSimpleDynamicClient(runtime.NewScheme()), standin.Options{})
	if err == nil || !strings.Contains(err.Error(), "needs a namespace") {
		t.Errorf("Run without a namespace returned %v, want an error", err)
	}
}
