package dynamicinformer_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"

	factory "informer-from-scratch/07-factory"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/reqlog"
	"informer-from-scratch/internal/testenv"
)

var (
	fooGVR = crd.Foo.GVR()
	runSeq atomic.Int64
)

// outcome is what one dynamic factory did in a scenario.
type outcome struct {
	SameCache bool
	Synced    map[string]bool
	Calls     []string
	Listers   map[string][]string
	Requests  map[string]int
	// After Shutdown: the Foo informer stopped; one asked for later never
	// started.
	Stopped, LateStarted bool
}

// TestDynamicFakeMatchesClientGo: both dynamic factories on client-go's
// dynamic/fake (which, like kubernetes/fake, cannot stream a WatchList),
// in testing/synctest. Two callers ask for Foos and must share one
// informer; Foos are created, relabelled and deleted through the fake
// client; handlers' calls, listers' answers (by namespace, selector, name
// and key), WaitForCacheSync and the list and watch actions must match, and
// after Shutdown the informer is stopped and a Start does nothing.
func TestDynamicFakeMatchesClientGo(t *testing.T) {
	run := func(t *testing.T, newSide func(dynamic.Interface, string) *side) (out outcome) {
		synctest.Test(t, func(t *testing.T) {
			client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
				map[schema.GroupVersionResource]string{fooGVR: "FooList"},
				crd.NewFoo("a", "foo-0", "web-0", 1, map[string]string{"app": "web"}),
				crd.NewFoo("b", "foo-1", "db-1", 2, map[string]string{"app": "db"}),
			)
			s := newSide(client, "")
			rec := testenv.NewRecorder()
			first, err := s.forResource(fooGVR, rec)
			if err != nil {
				t.Fatal(err)
			}
			second, _ := s.forResource(fooGVR, nil)
			out.SameCache = first.store == second.store

			stopCh := make(chan struct{})
			s.start(stopCh)
			synced := s.waitForCacheSync(stopCh)
			out.Synced = map[string]bool{}
			for gvr, ok := range synced {
				out.Synced[gvr.String()] = ok
			}
			foos := client.Resource(fooGVR)
			ctx := context.Background()
			steps := []func() error{
				func() error {
					_, err := foos.Namespace("a").Create(ctx, crd.NewFoo("a", "foo-2", "web-2", 3, map[string]string{"app": "web"}), metav1.CreateOptions{})
					return err
				},
				func() error {
					_, err := foos.Namespace("b").Patch(ctx, "foo-1", types.MergePatchType, []byte(`{"metadata":{"labels":{"app":"web","seq":"1"}}}`), metav1.PatchOptions{})
					return err
				},
				func() error { return foos.Namespace("a").Delete(ctx, "foo-0", metav1.DeleteOptions{}) },
			}
			for _, step := range steps {
				if err := step(); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
			}
			out.Calls = rec.Snapshot()
			out.Listers = first.ask([]string{"a", "b"}, []string{"foo-0", "foo-1", "foo-2"})
			out.Requests = map[string]int{}
			for _, a := range client.Actions() {
				out.Requests[a.GetResource().Resource+" "+a.GetVerb()]++
			}
			close(stopCh)
			s.shutdown()
			out.Stopped = first.isStopped()
			late, _ := s.forResource(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, nil)
			s.start(make(chan struct{}))
			synctest.Wait()
			out.LateStarted = late.hasSynced() || late.isStopped()
		})
		return out
	}
	theirs, ours := run(t, newClientGoSide), run(t, newOurSide)
	if !theirs.SameCache || !theirs.Synced[fooGVR.String()] || len(theirs.Calls) < 5 {
		t.Fatalf("client-go's dynamic factory did not do what the test expects: %+v", theirs)
	}
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("on dynamic/fake (-client-go +ours):\n%s", diff)
	}
	if testing.Verbose() {
		t.Logf("client-go: %+v", theirs)
	}
}

// TestPlaygroundCRDMatchesClientGo registers sample-controller's Foo CRD on
// the playground (internal/crd, through the dynamic client) and runs both
// dynamic factories, each on a dynamic client of its own whose requests are
// logged, while a seeded workload creates, relabels and deletes Foos in two
// namespaces. Two callers ask for Foos; a built-in resource (deployments)
// is asked for through the dynamic client too. Handlers' calls, listers'
// answers, the requests per resource, and WaitForCacheSync must match.
func TestPlaygroundCRDMatchesClientGo(t *testing.T) {
	c := cluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	admin, err := dynamic.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	if err := crd.Register(ctx, admin, crd.Foo); err != nil {
		t.Fatal(err)
	}
	// Unique per run: the playground outlives a run under -count.
	n := runSeq.Add(1)
	namespaces := []string{fmt.Sprintf("crd-a-%d", n), fmt.Sprintf("crd-b-%d", n)}
	kube, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, ns := range namespaces {
		if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	w := &fooWorkload{t: t, ctx: ctx, client: admin, namespaces: namespaces, rand: rand.New(rand.NewPCG(5, 7))}
	w.run(15)

	outcomes := map[string]*outcome{}
	type running struct {
		s      *side
		reqs   *reqlog.Recorder
		rec    *testenv.Recorder
		foos   resource
		stopCh chan struct{}
	}
	var all []*running
	for _, newSide := range []func(dynamic.Interface, string) *side{newClientGoSide, newOurSide} {
		reqs := &reqlog.Recorder{}
		client, err := dynamic.NewForConfig(reqs.Wrap(c.RESTConfig()))
		if err != nil {
			t.Fatal(err)
		}
		r := &running{s: newSide(client, ""), reqs: reqs, rec: testenv.NewRecorder(), stopCh: make(chan struct{})}
		all = append(all, r)
		if r.foos, err = r.s.forResource(fooGVR, r.rec); err != nil {
			t.Fatal(err)
		}
		again, _ := r.s.forResource(fooGVR, nil)
		if _, err := r.s.forResource(schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, nil); err != nil {
			t.Fatal(err)
		}
		out := &outcome{SameCache: r.foos.store == again.store, Synced: map[string]bool{}}
		outcomes[r.s.name] = out
		r.s.start(r.stopCh)
		timeout := make(chan struct{})
		timer := time.AfterFunc(30*time.Second, func() { close(timeout) })
		for gvr, ok := range r.s.waitForCacheSync(timeout) {
			out.Synced[gvr.String()] = ok
		}
		timer.Stop()
	}
	w.run(40)
	want := w.truth()
	for _, r := range all {
		waitCtx, waitCancel := context.WithTimeout(ctx, 30*time.Second)
		err := r.rec.WaitForState(waitCtx, want)
		waitCancel()
		if err != nil {
			t.Fatalf("%s: %v", r.s.name, err)
		}
		out := outcomes[r.s.name]
		out.Calls = r.rec.Snapshot()
		out.Listers = r.foos.ask(namespaces, []string{"foo-0", "foo-1", "foo-2", "foo-3"})
		out.Requests = map[string]int{}
		for _, req := range r.reqs.Requests() {
			out.Requests[req.Resource()+" "+req.Verb()]++
		}
		close(r.stopCh)
		r.s.shutdown()
		out.Stopped = r.foos.isStopped()
	}
	if diff := cmp.Diff(outcomes["client-go"], outcomes["ours"]); diff != "" {
		t.Errorf("the dynamic factories differ (-client-go +ours):\n%s", diff)
	}
	if testing.Verbose() {
		t.Logf("client-go: %+v", *outcomes["client-go"])
	}
	if theirs := outcomes["client-go"]; !theirs.SameCache || len(theirs.Calls) < 10 || theirs.Requests["foos WATCH"] != 1 {
		t.Errorf("client-go's run is not what the test expects: %+v", theirs)
	}
}

// TestForResourceOfAnUnservedResource: the dynamic factory's ForResource
// takes any GroupVersionResource, and nothing is known about it until its
// informer asks the server. For one the server does not serve, both
// libraries' informers report the server's 404 through
// utilruntime.HandleError at every try and never sync; WaitForCacheSync
// says so when its stop channel closes. And the typed factory's
// ForResource refuses the CRD's resource, which has no Go type: both
// libraries return an error; ours also says where to go instead.
func TestForResourceOfAnUnservedResource(t *testing.T) {
	c := cluster(t)
	bars := schema.GroupVersionResource{Group: "samplecontroller.k8s.io", Version: "v1alpha1", Resource: "bars"}
	synced := map[string]bool{}
	reported := map[string]bool{}
	for _, newSide := range []func(dynamic.Interface, string) *side{newClientGoSide, newOurSide} {
		client, err := dynamic.NewForConfig(c.RESTConfig())
		if err != nil {
			t.Fatal(err)
		}
		s := newSide(client, "")
		errs := testenv.CaptureErrors(t)
		if _, err := s.forResource(bars, nil); err != nil {
			t.Fatal(err)
		}
		stopCh := make(chan struct{})
		s.start(stopCh)
		timeout := make(chan struct{})
		time.AfterFunc(2*time.Second, func() { close(timeout) })
		synced[s.name] = s.waitForCacheSync(timeout)[bars]
		close(stopCh)
		s.shutdown()
		for _, msg := range errs.Take() {
			if strings.Contains(msg, "the server could not find the requested resource") {
				reported[s.name] = true
			}
		}
	}
	want := map[string]bool{"client-go": false, "ours": false}
	if diff := cmp.Diff(want, synced); diff != "" {
		t.Errorf("WaitForCacheSync for an unserved resource (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]bool{"client-go": true, "ours": true}, reported); diff != "" {
		t.Errorf("the 404 reported through HandleError (-want +got):\n%s", diff)
	}

	kube, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	_, theirErr := informers.NewSharedInformerFactory(kube, 0).ForResource(fooGVR)
	_, ourErr := factory.NewSharedInformerFactory(kube, 0).ForResource(fooGVR)
	if theirErr == nil || ourErr == nil {
		t.Fatalf("the typed factories' ForResource(%v): client-go %v, ours %v; want errors from both", fooGVR, theirErr, ourErr)
	}
	for _, want := range []string{"no informer found for " + fooGVR.String(), "dynamicinformer"} {
		if !strings.Contains(ourErr.Error(), want) {
			t.Errorf("ours says %q, which lacks %q", ourErr, want)
		}
	}
}

// fooWorkload makes seeded random changes to Foos.
type fooWorkload struct {
	t          *testing.T
	ctx        context.Context
	client     dynamic.Interface
	namespaces []string
	rand       *rand.Rand
	step       int
}

func (w *fooWorkload) run(n int) {
	for range n {
		w.step++
		ns := w.namespaces[w.rand.IntN(len(w.namespaces))]
		name := fmt.Sprintf("foo-%d", w.rand.IntN(4))
		app := []string{"web", "db"}[w.rand.IntN(2)]
		foos := w.client.Resource(fooGVR).Namespace(ns)
		var err error
		switch w.rand.IntN(3) {
		case 0:
			_, err = foos.Create(w.ctx, crd.NewFoo(ns, name, name+"-deployment", int64(1+w.rand.IntN(3)), map[string]string{"app": app}), metav1.CreateOptions{})
		case 1:
			patch := fmt.Sprintf(`{"metadata":{"labels":{"app":%q,"seq":"%d"}},"spec":{"replicas":%d}}`, app, w.step, 1+w.rand.IntN(5))
			_, err = foos.Patch(w.ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		default:
			err = foos.Delete(w.ctx, name, metav1.DeleteOptions{})
		}
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsAlreadyExists(err) {
			w.t.Fatalf("foo workload: %v", err)
		}
	}
}

// truth is a fresh LIST of the Foos: "namespace/name" → resourceVersion.
func (w *fooWorkload) truth() map[string]string {
	list, err := w.client.Resource(fooGVR).List(w.ctx, metav1.ListOptions{})
	if err != nil {
		w.t.Fatal(err)
	}
	out := map[string]string{}
	for _, item := range list.Items {
		out[item.GetNamespace()+"/"+item.GetName()] = item.GetResourceVersion()
	}
	return out
}
