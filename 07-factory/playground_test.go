package factory_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	informer "informer-from-scratch/06-sharedinformer"

	"informer-from-scratch/internal/reqlog"
	"informer-from-scratch/internal/testenv"
)

var namespaceSeq atomic.Int64

// live is one factory on the playground: its side, the request log of its
// own clientset, and its handlers.
type live struct {
	*side
	reqs      *reqlog.Recorder
	recorders map[string]*testenv.Recorder
	kindOf    map[string]string // recorder name → kind
	synced    map[string]func() bool
	order     []string
}

func newLive(t *testing.T, newSide func(kubernetes.Interface, options) *side, o options) *live {
	t.Helper()
	reqs := &reqlog.Recorder{}
	client, err := kubernetes.NewForConfig(reqs.Wrap(cluster(t).RESTConfig()))
	if err != nil {
		t.Fatal(err)
	}
	return &live{side: newSide(client, o), reqs: reqs, recorders: map[string]*testenv.Recorder{}, kindOf: map[string]string{}, synced: map[string]func() bool{}}
}

// handle registers a recorder called name on kind's informer.
func (l *live) handle(t *testing.T, name, kind string) {
	t.Helper()
	rec := testenv.NewRecorder()
	hasSynced, err := l.addHandler(kind, rec)
	if err != nil {
		t.Fatalf("%s: adding handler %s: %v", l.name, name, err)
	}
	l.recorders[name], l.kindOf[name], l.synced[name] = rec, kind, hasSynced
	l.order = append(l.order, name)
}

// requestCounts counts the requests of the factory's clientset by
// resource and verb ("pods WATCH": 1).
func (l *live) requestCounts() map[string]int {
	counts := map[string]int{}
	for _, r := range l.reqs.Requests() {
		counts[r.Resource()+" "+r.Verb()]++
	}
	return counts
}

// waitCaughtUp waits until every handler's state equals a fresh LIST of its
// kind, filtered as the factory filters.
func (l *live) waitCaughtUp(t *testing.T, ctx context.Context, admin dynamic.Interface, namespace string, opts metav1.ListOptions) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for _, name := range l.order {
		want, err := truth(ctx, admin, l.kindOf[name], namespace, opts)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.recorders[name].WaitForState(ctx, want); err != nil {
			t.Fatalf("%s: handler %s never caught up with the server: %v", l.name, name, err)
		}
	}
}

// TestPlaygroundFactoryMatchesClientGo runs client-go's factory and ours
// side by side on one apiserver, each with a clientset of its own whose
// requests are logged, under the same seeded workload on four kinds in
// two namespaces (sharedScenario says what is compared).
func TestPlaygroundFactoryMatchesClientGo(t *testing.T) {
	sharedScenario(t, 17, func(string, string) options { return options{} })
}

// TestPlaygroundNamespacedTweakedFactoryMatchesClientGo is the same
// scenario with both factories limited to one namespace (WithNamespace),
// to objects labelled app=web (WithTweakListOptions: an object relabelled
// to db leaves the watch as a deletion), and with a transform that drops
// managedFields (WithTransform). The requests' paths and selectors are
// compared too.
func TestPlaygroundNamespacedTweakedFactoryMatchesClientGo(t *testing.T) {
	sharedScenario(t, 23, func(nsA, _ string) options {
		return options{
			namespace: nsA,
			tweak:     func(o *metav1.ListOptions) { o.LabelSelector = "app=web" },
			transform: dropManagedFields,
		}
	})
}

// sharedScenario: on each side two parts of one program ask for the Pods
// informer (part A through Core().V1().Pods(), part B through the same
// accessor and through ForResource) and register a handler each; part A
// also wants Deployments, part B ConfigMaps, Services and Namespaces. Then
// Start and WaitForCacheSync, the workload, and a wait until every handler
// has caught up with a fresh LIST (as filtered as the factory's).
//
// What must be the same on both sides: that the two parts share one cache;
// WaitForCacheSync's per-type answer; every handler's calls (the initial
// list's adds compared as a set, since a WatchList stream's order comes
// from a map); the LIST and WATCH requests per resource (one WATCH per type
// however many parts asked), and their paths and selectors; the listers'
// answers, typed and generic, for every namespace and selector the test
// asks, NotFound errors included; and how many managedFields entries the
// caches hold. After Shutdown, every informer is stopped and no goroutine
// is left.
func sharedScenario(t *testing.T, seed uint64, optionsFor func(nsA, nsB string) options) {
	c := cluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	before := testenv.GoroutinesBefore()
	admin, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	n := namespaceSeq.Add(1)
	nsA, nsB := fmt.Sprintf("shared-a-%d", n), fmt.Sprintf("shared-b-%d", n)
	w := newWorkload(t, ctx, admin, seed, nsA, nsB)
	w.run(40) // what the initial lists hold

	o := optionsFor(nsA, nsB)
	var truthOptions metav1.ListOptions
	if o.tweak != nil {
		o.tweak(&truthOptions)
	}
	type outcome struct {
		SamePodCache   bool
		Synced         map[string]bool
		SyncErr        string
		Calls          map[string][]string
		HandlersSynced map[string]bool
		Requests       map[string]int
		RequestShapes  []string
		Listers        map[string][]string
		ManagedFields  int
	}
	sides := []*live{newLive(t, newClientGoSide, o), newLive(t, newOurSide, o)}
	outcomes := map[string]*outcome{}
	var stops []func()
	for _, s := range sides {
		out := &outcome{}
		outcomes[s.name] = out
		// Part A of the program.
		s.handle(t, "part A: pods", "pods")
		s.handle(t, "part A: deployments", "deployments")
		podsA := storeOf(s.informer("pods"))
		// Part B, elsewhere in the same program.
		s.handle(t, "part B: pods", "pods")
		for _, kind := range []string{"configmaps", "services", "namespaces"} {
			s.handle(t, "part B: "+kind, kind)
		}
		podsB := storeOf(s.informer("pods"))
		generic, _, _, err := s.forResource(gvrOf["pods"], "")
		if err != nil {
			t.Fatal(err)
		}
		out.SamePodCache = podsA == podsB && podsB == storeOf(generic)

		runCtx, stop := context.WithCancel(ctx)
		stops = append(stops, stop)
		s.start(runCtx)
		syncCtx, syncCancel := context.WithTimeout(ctx, 30*time.Second)
		out.Synced, out.SyncErr = s.waitForCacheSync(syncCtx)
		syncCancel()
	}
	w.run(80)
	for _, s := range sides {
		s.waitCaughtUp(t, ctx, dyn, o.namespace, truthOptions)
		out := outcomes[s.name]
		out.Calls, out.HandlersSynced = map[string][]string{}, map[string]bool{}
		for _, name := range s.order {
			out.Calls[name] = s.recorders[name].Snapshot()
			out.HandlersSynced[name] = s.synced[name]()
		}
		out.Requests, out.RequestShapes = s.requestCounts(), s.requestShapes()
		out.Listers = askListers(t, s.side, nsA, nsB)
		out.ManagedFields = s.managedFields()
	}
	if diff := cmp.Diff(outcomes["client-go"], outcomes["ours"]); diff != "" {
		t.Errorf("the factories differ (-client-go +ours):\n%s", diff)
	}
	if testing.Verbose() {
		t.Logf("client-go's outcome: %+v", *outcomes["client-go"])
		t.Logf("client-go's requests: %s", strings.Join(outcomes["client-go"].RequestShapes, "\n"))
	}
	// The premises: if these fail, the comparison above proved little.
	theirs := outcomes["client-go"]
	events := 0 // pod calls after the initial list
	for _, c := range theirs.Calls["part A: pods"] {
		if !strings.HasSuffix(c, "(initial list)") {
			events++
		}
	}
	if !theirs.SamePodCache || theirs.Requests["pods WATCH"]+theirs.Requests["pods LIST"] == 0 || events < 2 {
		t.Errorf("client-go's run is not what the test expects: shared cache %v, requests %v, %d pod events",
			theirs.SamePodCache, theirs.Requests, events)
	}

	for i, s := range sides {
		stops[i]()
		s.shutdown()
		for _, kind := range kinds {
			if !s.informer(kind).IsStopped() {
				t.Errorf("%s: the %s informer is not stopped after Shutdown returned", s.name, kind)
			}
		}
	}
	testenv.NoLeakAfterShutdown(t, "both factories", before)
}

// requestShapes lists the distinct requests of the factory's clientset
// without what varies between two runs (resourceVersion, timeoutSeconds):
// method, path, and the parameters that say what is asked for.
func (l *live) requestShapes() []string {
	seen := map[string]bool{}
	for _, r := range l.reqs.Requests() {
		shape := r.Method + " " + r.Path
		for _, p := range []string{"watch", "sendInitialEvents", "labelSelector", "fieldSelector", "limit", "allowWatchBookmarks", "resourceVersionMatch"} {
			if v := r.Query.Get(p); v != "" {
				shape += " " + p + "=" + v
			}
		}
		seen[shape] = true
	}
	return slices.Sorted(maps.Keys(seen))
}

// managedFields counts the managedFields entries every pod and deployment
// in the caches holds: 0 with a transform that drops them.
func (l *live) managedFields() int {
	total := 0
	for _, kind := range []string{"pods", "deployments"} {
		switch i := l.informer(kind).(type) {
		case interface{ GetStore() cache.Store }:
			total += countManagedFields(i.GetStore().List())
		case interface{ GetStore() informer.Store }:
			total += countManagedFields(i.GetStore().List())
		}
	}
	return total
}

func countManagedFields(objs []any) int {
	n := 0
	for _, obj := range objs {
		if m, err := meta.Accessor(obj); err == nil {
			n += len(m.GetManagedFields())
		}
	}
	return n
}

// dropManagedFields is the factories' transform in the tweaked scenario.
func dropManagedFields(obj any) (any, error) {
	if m, err := meta.Accessor(obj); err == nil {
		m.SetManagedFields(nil)
	}
	return obj, nil
}

// selectors are the label queries the listers are asked.
var selectors = []string{"", "app=web", "app=web,tier=front", "app in (web,db),tier!=back", "seq"}

// askListers asks every lister the same questions and renders the answers.
func askListers(t *testing.T, s *side, namespaces ...string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	record := func(q string, answer []string, err error) {
		if err != nil {
			answer = append(answer, "error: "+err.Error())
		}
		out[q] = answer
	}
	for _, sel := range selectors {
		selector, err := labels.Parse(sel)
		if err != nil {
			t.Fatal(err)
		}
		for _, ns := range append([]string{""}, namespaces...) {
			q := fmt.Sprintf("ns=%q selector=%q", ns, sel)
			pods, err := s.listPods(ns, selector)
			record("pods "+q, pods, err)
			deployments, err := s.listDeployments(ns, selector)
			record("deployments "+q, deployments, err)
			for _, kind := range kinds {
				_, all, inNS, err := s.forResource(gvrOf[kind], ns)
				if err != nil {
					record("ForResource "+kind, nil, err)
					continue
				}
				lister := all
				if ns != "" {
					lister = inNS
				}
				objs, err := lister.List(selector)
				answer, kerr := keys(objs, err)
				record("ForResource "+kind+" "+q, answer, kerr)
			}
		}
	}
	for _, ns := range namespaces {
		for i := range 5 {
			name := fmt.Sprintf("pod-%d", i)
			k, err := s.getPod(ns, name)
			record("get pod "+ns+"/"+name, []string{k}, err)
			_, all, _, err := s.forResource(gvrOf["configmaps"], ns)
			if err == nil {
				obj, err := all.Get(ns + "/" + fmt.Sprintf("configmap-%d", i))
				k, err = key(obj, err)
				record(fmt.Sprintf("generic get configmap %s/configmap-%d", ns, i), []string{k}, err)
			}
		}
		k, err := s.getNamespace(ns)
		record("get namespace "+ns, []string{k}, err)
	}
	k, err := s.getNamespace("no-such-namespace")
	record("get namespace no-such-namespace", []string{k}, err)
	return out
}

// TestPlaygroundLifecycleMatchesClientGo runs lifecycleScript on each
// factory, on the playground, and compares what each saw. The informer
// that cannot sync asks for pods with a label selector the apiserver
// refuses. After each factory's Shutdown no goroutine of it may be left.
func TestPlaygroundLifecycleMatchesClientGo(t *testing.T) {
	cluster(t) // started before the goroutines are counted
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	badSelector := func(o *metav1.ListOptions) { o.LabelSelector = "app in (" }
	transcripts := map[string][]string{}
	for _, newSide := range []func(kubernetes.Interface, options) *side{newClientGoSide, newOurSide} {
		before := testenv.GoroutinesBefore()
		var l *live
		script := lifecycleScript(t, ctx, func(o options) *side {
			l = newLive(t, newSide, o)
			return l.side
		}, func() map[string]int { return l.requestCounts() }, badSelector)
		transcripts[l.name] = script
		testenv.NoLeakAfterShutdown(t, l.name, before)
	}
	if testing.Verbose() {
		t.Logf("client-go:\n%s", strings.Join(transcripts["client-go"], "\n"))
	}
	if diff := cmp.Diff(transcripts["client-go"], transcripts["ours"]); diff != "" {
		t.Errorf("the lifecycles differ (-client-go +ours):\n%s", diff)
	}
}
