package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr"
	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"

	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/demo/demotest"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/playground"
	"informer-from-scratch/internal/standin"
	"informer-from-scratch/internal/timeline"
)

// TestMain silences klog, as main does, and fails the package if a test
// left a goroutine behind: the controller, its informers, its workers, the
// stand-in and the event broadcaster must all be gone when the demo exits.
func TestMain(m *testing.M) {
	klog.SetLogger(logr.Discard())
	code := m.Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// TestDemoTellsTheStoryInOrder runs the whole demo on a playground, as `make
// run-stage 8` does, and checks that it exits 0 and that the story's key
// rows come in the order the story needs: each key's path from handler to
// write, the Deployment put back after its deletion and its edit, the
// failing reconcile's delays doubling from 5ms, the Foo's Deployment
// collected, and a drain that waits for the write in flight. Every write's
// answer is held back (demotest.RunCausal), the controller's, the
// stand-in's and the script's: no row may name a resourceVersion before the
// request row of the write that made it, as a write printed when its
// answer came would.
func TestDemoTellsTheStoryInOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a playground")
	}
	tr := demotest.RunCausalTranscript(t, options, nil, run, 20, "internal/standin plays both parts")
	out := tr.Out
	heldNoteAgreesWithItsRows(t, tr, 9, "stage08/example")
	retriesAgreeWithTheirRows(t, tr, 7, "stage08/flaky")
	inOrder(t, out,
		// Create: handler → workqueue → worker → lister → write.
		"Step 3: Create a Foo",
		"handler    OnAdd     Foo stage08/example",
		"workqueue  Add       stage08/example",
		"workqueue  Get       stage08/example",
		"worker     sync      stage08/example",
		"lister     Get       Foo stage08/example",
		"lister     Get       Deployment stage08/example-web worker",
		`error: deployment.apps "example-web" not found`,
		"write      CREATE    Deployment stage08/example-web",
		"write      ← CREATE  Deployment stage08/example-web worker 1; rv=",
		"status.availableReplicas=1",
		"write      ← UPDATE  Foo stage08/example status     worker 1; rv=",
		// Scale.
		"Step 4: Scale the Foo",
		"write      UPDATE    Deployment stage08/example-web worker 1; spec.replicas=3",
		"write      ← UPDATE  Deployment stage08/example-web worker 1; rv=",
		"status.availableReplicas=3",
		"write      ← UPDATE  Foo stage08/example status     worker 1; rv=",
		// Deleted behind its back: mapped to the Foo, created again.
		"Step 5: Delete the Deployment",
		"handler    OnDelete  Deployment stage08/example-web key stage08/example",
		"write      CREATE    Deployment stage08/example-web",
		// Edited by hand: corrected.
		"Step 6: Edit the Deployment by hand",
		"write      UPDATE    Deployment stage08/example-web worker 1; spec.replicas=3",
		"write      ← UPDATE  Deployment stage08/example-web worker 1; rv=",
		// Three failures, delays doubling, then success and Forget.
		"Step 7: A reconcile that fails 3 times",
		"injected by the demo's --fail (failure 1)",
		"requeue 1 — back in 5ms",
		"injected by the demo's --fail (failure 2)",
		"requeue 2 — back in 10ms",
		"injected by the demo's --fail (failure 3)",
		"requeue 3 — back in 20ms",
		"write      CREATE    Deployment stage08/flaky-web",
		"Foo flaky waited 5ms, 10ms, 20ms between its attempts",
		// Forget reset the count: one more failure waits 5ms, not 40ms.
		"Show it: delete flaky-web by hand",
		"injected by the demo's --fail (failure 1)",
		"requeue 1 — back in 5ms",
		"requeue 1, back in 5ms: Forget after the success had reset flaky's count.",
		// The Foo's Deployment goes with it.
		"Step 8: Delete a Foo",
		// Changes while a worker holds the key: marked dirty, one worker.
		"Step 9: Change a Foo while a worker holds its key",
		"spec.replicas 4 → 5",
		"workqueue  Add       stage08/example                — held by a worker: queued again at its Done",
		"Adds came while a worker held stage08/example, in",
		"The first Add of each hold put the key into the",
		"never two at once.",
		// The drain waits for the write in flight.
		"Step 10: Shut down with a reconcile in flight",
		"worker     sync      stage08/example",
		"controller ShutDownWithDrain",
		"write      UPDATE    Deployment stage08/example-web worker 1; spec.replicas=2",
		"write      ← UPDATE  Deployment stage08/example-web worker 1; rv=",
		"controller Drained",
		"controller Shutdown                                 — workers returned",
		"controller Shutdown                                 — informers stopped",
		"The reconcile in flight finished its write before the drain ended",
		"workqueue_adds_total",
	)
	// Rows of two goroutines (the demo's own writes, the stand-in's, and the
	// informers' handlers) may come in either order: only their step is
	// checked.
	for step, wants := range map[string][]string{
		"Step 3": {"standin    STATUS    Deployment stage08/example-web availableReplicas=1"},
		"Step 6": {"demo       UPDATE    Deployment stage08/example-web spec.replicas=5 — by hand"},
		"Step 8": {
			"standin    DELETE    Deployment stage08/flaky-web",
			"handler    OnDelete  Deployment stage08/flaky-web   key stage08/flaky; error: ",
			"— orphan: its Foo is not in the cache, ignored",
		},
	} {
		for _, want := range wants {
			if !strings.Contains(section(out, step), want) {
				t.Errorf("%s lacks %q:\n%s", step, want, section(out, step))
			}
		}
	}
	// The workshop guide quotes it: the four injected failures (--fail's 3
	// in step 7, then one more when flaky-web is deleted by hand), and one
	// more per conflict.
	if retries := metric(t, out, "workqueue_retries_total"); retries < 4 {
		t.Errorf("workqueue_retries_total=%d, want at least the 4 injected failures", retries)
	}
	if depth := metric(t, out, "workqueue_depth"); depth != 0 {
		t.Errorf("workqueue_depth=%d after the drain, want 0", depth)
	}
}

// heldNoteAgreesWithItsRows reads step's rows of key as a person would:
// a worker holds the key from its sync row to its Done row; the Adds
// between are that hold's; a Done of a hold with Adds is followed by a Get
// when the queue put the key back. The note (sayHeldOnce) must say the
// same numbers.
func heldNoteAgreesWithItsRows(t *testing.T, tr demotest.Transcript, step int, key string) {
	t.Helper()
	var holds []int
	syncs, requeued := 0, 0
	holding := map[string]int{} // "worker N" → the Adds of its hold so far
	putBack := false
	for _, r := range tr.Rows {
		if r.Kind != timeline.KindEvent || r.Step != step || r.Object != key {
			continue
		}
		worker, _, _ := strings.Cut(r.Detail, ";")
		if r.Layer == "workqueue" && r.What != "Done" {
			if putBack && r.What == "Get" {
				requeued++
			}
			putBack = false
		}
		switch {
		case r.Layer == "worker" && r.What == "sync":
			syncs++
			holding[worker] = 0
		case r.Layer == "workqueue" && r.What == "Add":
			for w := range holding {
				holding[w]++
			}
		case r.Layer == "workqueue" && r.What == "Done":
			if n, ok := holding[worker]; ok && n > 0 {
				holds = append(holds, n)
				putBack = true
			}
			delete(holding, worker)
		}
	}
	adds := 0
	for _, n := range holds {
		adds += n
	}
	want := []string{strconv.Itoa(adds), key, holdsPart(holds).EN,
		strconv.Itoa(adds - len(holds)), strconv.Itoa(requeued), strconv.Itoa(syncs)}
	notes := demotest.NoteArgs(tr, sayHeldOnce)
	if len(notes) != 1 {
		t.Fatalf("step %d: %d notes of sayHeldOnce, want 1", step, len(notes))
	}
	if diff := cmp.Diff(want, notes[0]); diff != "" || len(holds) == 0 {
		t.Errorf("step %d: the note's numbers are not the rows' (-rows +note), or no Add came during a hold:\n%s", step, diff)
	}
}

// retriesAgreeWithTheirRows reads step's rate-limited requeues of key as a
// person would: the delays on its AddRateLimited rows until its
// Deployment's create went through, then the one after the step's second
// failure. The notes (sayWaited, sayForgotten) must say the same.
func retriesAgreeWithTheirRows(t *testing.T, tr demotest.Transcript, step int, key string) {
	t.Helper()
	var before []string // the delays before the create went through
	var after []string  // the requeue and delay of the next failure
	created := false
	for _, r := range tr.Rows {
		if r.Kind != timeline.KindEvent || r.Step != step {
			continue
		}
		if r.What == timeline.Answer("CREATE") && r.Object == "Deployment "+key+"-web" && !strings.Contains(r.Protocol, "error: ") {
			created = true
		}
		if r.What != "AddRateLimited" || r.Object != key || r.Explanation == nil {
			continue
		}
		delay := strings.TrimPrefix(r.Explanation.EN, "back in ")
		if !created {
			before = append(before, delay)
		} else if after == nil {
			_, requeue, _ := strings.Cut(r.Protocol, "requeue ")
			after = []string{requeue, delay}
		}
	}
	waited := demotest.NoteArgs(tr, sayWaited)
	forgotten := demotest.NoteArgs(tr, sayForgotten)
	if len(waited) != 1 || len(forgotten) != 1 {
		t.Fatalf("step %d: %d notes of sayWaited and %d of sayForgotten, want one each", step, len(waited), len(forgotten))
	}
	if diff := cmp.Diff([]string{strings.Join(before, sayListSep.EN)}, waited[0]); diff != "" || len(before) == 0 {
		t.Errorf("step %d: the delays the note says %s waited are not its rows' (-rows +note):\n%s", step, key, diff)
	}
	if diff := cmp.Diff(after, forgotten[0]); diff != "" {
		t.Errorf("step %d: the requeue after the success the note says is not its row's (-rows +note):\n%s", step, diff)
	}
}

// inOrder fails unless each of wants occurs in out after the one before it.
// "worker 1" in a want matches any worker: which of the two takes a key is
// up to the scheduler.
func inOrder(t *testing.T, out string, wants ...string) {
	t.Helper()
	rest := out
	for _, want := range wants {
		re := regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(want), "worker 1", "worker [0-9]+"))
		loc := re.FindStringIndex(rest)
		if loc == nil {
			t.Fatalf("the output lacks %q after the rows before it:\n%s", want, out)
		}
		rest = rest[loc[1]:]
	}
}

// section is the output of one step of the script, "Step N".
func section(out, step string) string {
	_, rest, _ := strings.Cut(out, "── "+step+":")
	rest, _, _ = strings.Cut(rest, "── Step ")
	return rest
}

// metric reads one value of the metrics table.
func metric(t *testing.T, out, name string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^\s+` + name + `\s+(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %s in the metrics table:\n%s", name, out)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// TestRealClusterRefusesWhatIsNotItsOwn runs the demo against a fake TLS
// apiserver standing in for a real cluster, where the demo may write only
// in a namespace of its own. In each case something in the way is not the
// demo's: it must refuse with a sentence that says what, and send no write
// at all (every check comes before the first write).
func TestRealClusterRefusesWhatIsNotItsOwn(t *testing.T) {
	ns := defaultRealNamespace
	ourCRD := crdObject(map[string]string{managedByLabel: managedBy}, nil)
	otherSchema := crdObject(map[string]string{managedByLabel: managedBy}, map[string]any{"size": map[string]any{"type": "string"}})
	ourNamespace := apiObject("v1", "Namespace", "", ns, map[string]string{managedByLabel: managedBy})
	for _, tc := range []struct {
		name   string
		served map[string]any // path → object; any other path is a 404
		want   string
	}{{
		name:   "a namespace of the same name, not the demo's",
		served: map[string]any{"/api/v1/namespaces/" + ns: apiObject("v1", "Namespace", "", ns, nil)},
		want:   "namespace " + ns + " exists and was not created by this demo",
	}, {
		name:   "someone's Foo CRD",
		served: map[string]any{crdPath: crdObject(nil, nil)},
		want:   "CRD foos.samplecontroller.k8s.io exists and was not created by this demo",
	}, {
		name:   "the demo's CRD with another schema",
		served: map[string]any{crdPath: otherSchema},
		want:   "exists with another schema",
	}, {
		name: "the demo's namespace holding someone's Deployment",
		served: map[string]any{
			crdPath:                    ourCRD,
			"/api/v1/namespaces/" + ns: ourNamespace,
			"/apis/apps/v1/namespaces/" + ns + "/deployments": list("apps/v1", "DeploymentList",
				apiObject("apps/v1", "Deployment", ns, "theirs", nil)),
			fooPath(ns): list("samplecontroller.k8s.io/v1alpha1", "FooList"),
		},
		want: "holds Deployment theirs, which no Foo of this demo controls",
	}, {
		name: "the demo's namespace holding someone's Foo",
		served: map[string]any{
			crdPath:                    ourCRD,
			"/api/v1/namespaces/" + ns: ourNamespace,
			fooPath(ns): list("samplecontroller.k8s.io/v1alpha1", "FooList",
				apiObject("samplecontroller.k8s.io/v1alpha1", "Foo", ns, "theirs", nil)),
		},
		want: "holds Foo theirs, which this demo did not create",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			srv, requests := fakeAPIServer(t, tc.served)
			var out, errOut bytes.Buffer
			code := demo.Run(options, []string{"--kubeconfig", demotest.Kubeconfig(t, srv.URL, "t")}, &out, &errOut, run)
			if code != 1 || !strings.Contains(errOut.String(), "refusing to run: ") || !strings.Contains(errOut.String(), tc.want) {
				t.Errorf("exit code %d, stderr %q; want 1 and a refusal saying %q\nstdout:\n%s", code, errOut.String(), tc.want, out.String())
			}
			if !strings.Contains(out.String(), "it writes only in a namespace of its own") {
				t.Errorf("the banner does not say where the demo writes:\n%s", out.String())
			}
			for _, r := range requests() {
				if !strings.HasPrefix(r, "GET ") {
					t.Errorf("the demo sent a write before refusing: %s (all requests: %q)", r, requests())
				}
			}
		})
	}
}

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.samplecontroller.k8s.io"

func fooPath(ns string) string {
	return "/apis/samplecontroller.k8s.io/v1alpha1/namespaces/" + ns + "/foos"
}

// fakeAPIServer serves /version, the given objects by path, and a 404 for
// everything else; it records every request as "METHOD path".
func fakeAPIServer(t *testing.T, served map[string]any) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var requests []string
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests = append(requests, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/version" {
			w.Write([]byte(`{"major":"1","minor":"37","gitVersion":"v1.37.2"}`))
			return
		}
		if obj, ok := served[r.URL.Path]; ok && r.Method == http.MethodGet {
			json.NewEncoder(w).Encode(obj)
			return
		}
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"%s not found","reason":"NotFound","code":404}`, r.URL.Path)
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(requests)
	}
}

// crdObject is the Foo CRD as the server would return it, with the given
// annotations, and extra spec properties if any (another schema).
func crdObject(annotations map[string]string, extra map[string]any) map[string]any {
	def := crd.Foo
	if extra != nil {
		def.Spec = map[string]any{}
		for k, v := range crd.Foo.Spec {
			def.Spec[k] = v
		}
		for k, v := range extra {
			def.Spec[k] = v
		}
	}
	obj := def.Object()
	obj.SetAnnotations(annotations)
	return obj.Object
}

func apiObject(apiVersion, kind, ns, name string, labels map[string]string) map[string]any {
	metadata := map[string]any{"name": name, "uid": "uid-" + name, "resourceVersion": "1"}
	if ns != "" {
		metadata["namespace"] = ns
	}
	if labels != nil {
		metadata["labels"] = labels
	}
	return map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": metadata}
}

func list(apiVersion, kind string, items ...map[string]any) map[string]any {
	if items == nil {
		items = []map[string]any{}
	}
	return map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": map[string]any{"resourceVersion": "1"}, "items": items}
}

// TestRealClusterRunsTwiceInItsOwnNamespaceThenCleansUp runs the demo twice
// against a second playground given with --kubeconfig, standing in for a
// real cluster (with internal/standin in its controller manager's place, as
// a real cluster has one): the first run creates the namespace and the CRD,
// the second finds both its own and reuses them (the schema check passes on
// the CRD the server stored), and --cleanup removes both. Nothing outside
// the namespace changes but the CRD.
func TestRealClusterRunsTwiceInItsOwnNamespaceThenCleansUp(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a playground")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c, err := playground.Start(ctx, playground.Options{Progress: os.Stderr})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop()
	t.Setenv(demo.KubeconfigEnv, "")
	kube, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	standinDone := make(chan struct{})
	go func() {
		defer close(standinDone)
		standin.Run(ctx, kube, dyn, standin.Options{Namespace: defaultRealNamespace})
	}()
	defer func() { cancel(); <-standinDone }()
	before := namespaces(t, kube)

	for i, args := range [][]string{{}, {"--cleanup"}} {
		var out, errOut bytes.Buffer
		code := demo.Run(options, append(args, "--kubeconfig", c.Kubeconfig), &out, &errOut, run)
		if code != 0 {
			t.Fatalf("run %d %v: exit code %d\nstdout:\n%s\nstderr:\n%s", i+1, args, code, out.String(), errOut.String())
		}
		want := []string{"A real cluster: a namespace of its own", "CREATE    Namespace " + defaultRealNamespace, "registered, annotated as the demo's", "Run with --cleanup"}
		if i == 1 {
			want = []string{"the demo's own, from an earlier run: reused", "left by an earlier run", "DELETE    Namespace " + defaultRealNamespace, "DELETE    CRD foos.samplecontroller.k8s.io"}
		}
		for _, w := range want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("run %d %v: the output lacks %q:\n%s", i+1, args, w, out.String())
			}
		}
	}
	if _, err := dyn.Resource(crd.Resource).Get(ctx, crd.Foo.Name(), metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("after --cleanup, the CRD: %v, want NotFound", err)
	}
	after := namespaces(t, kube)
	if phase, ok := after[defaultRealNamespace]; ok && phase != string(corev1.NamespaceTerminating) {
		t.Errorf("after --cleanup, namespace %s is %s, want gone or Terminating", defaultRealNamespace, phase)
	}
	delete(after, defaultRealNamespace)
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("the demo changed namespaces other than its own (-before +after):\n%s", diff)
	}
}

// namespaces maps each namespace to its phase.
func namespaces(t *testing.T, kube kubernetes.Interface) map[string]string {
	t.Helper()
	list, err := kube.CoreV1().Namespaces().List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, ns := range list.Items {
		out[ns.Name] = string(ns.Status.Phase)
	}
	return out
}

// TestBreakSwitchesShowTheirFailure runs the demo with each --break switch
// on the playground: the failure the chapter describes must show in the
// timeline, in order, and the rows that show the mechanism at work must
// not (TestDemoTellsTheStoryInOrder checks that they do without the
// switch). The demo must still end by itself. The run with
// --break=owner-reference narrates in Chinese: every step and note in
// Chinese, the rows as in English.
func TestBreakSwitchesShowTheirFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a playground")
	}
	for _, tc := range []struct {
		name string
		want []string // regular expressions, in this order
		not  []string
	}{
		{"dirty-set", []string{
			`Step 9: Change a Foo while a worker holds its key`,
			`worker +sync +stage08/example +worker (\d)`,
			`spec\.replicas 4 → 5`,
			`workqueue +Get +stage08/example`, // no len: the switch's queue is not the one the tracer builds
			`worker +sync +stage08/example +worker \d`,
			`--break=dirty-set: worker \d took it, while worker \d held stage08/example: two reconciles of one Foo at once`,
			`Step 10: Shut down`,
		}, []string{`never two at once`}},
		{"forget", []string{
			`Foo flaky waited 5ms, 10ms, 20ms between its attempts`,
			`Show it: delete flaky-web by hand`,
			`--break=forget: requeue ([4-9]|\d\d), back in \d+ms\. The limiter still counted the failures`,
		}, []string{`Forget after the success had reset flaky's count`}},
		// In Chinese: the rows' protocol is the same, and so is what they show.
		{"owner-reference", []string{
			`write +CREATE +Deployment stage08/flaky-web +worker \d; spec\.replicas=1`,
			`write +EVENT +Foo stage08/flaky +worker \d; Warning ErrResourceExists`,
			regexp.QuoteMeta("第 8 步：" + sayDeleteFooTitle.ZH),
			`demo +DELETE +Foo stage08/flaky`,
			`demo +GET +Deployment stage08/flaky-web +rv=\d+ ownerReferences=0 — ` + regexp.QuoteMeta(sayStillThere.ZH),
			regexp.QuoteMeta(strings.SplitN(sayLeftBehind.ZH, "\n", 2)[0]),
		}, []string{`standin +DELETE +Deployment stage08/flaky-web`, regexp.QuoteMeta(sayControlledBy.Format("flaky").ZH)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"--break=" + tc.name}
			if tc.name == "owner-reference" {
				args = append(args, "--lang=zh")
				tr := demotest.RunTranscript(t, options, args, run, "--break="+tc.name)
				demotest.NarratesInChinese(t, tr)
				demotest.RowsSayNoEnglish(t, tr)
				demotest.RowsShowBreak(t, tc.name, tr.Out, tc.want, tc.not)
				return
			}
			out := demotest.RunWithArgs(t, options, args, run, "--break="+tc.name)
			demotest.RowsShowBreak(t, tc.name, out, tc.want, tc.not)
		})
	}
}

// TestBreakHelpListsEverySwitch: --break=help is answered before any
// playground starts, and names every switch.
func TestBreakHelpListsEverySwitch(t *testing.T) {
	if !demo.FlagAsks([]string{"--break=help"}, "break", "help") || !demo.FlagAsks([]string{"-break", "help"}, "break", "help") ||
		demo.FlagAsks([]string{"--break=forget"}, "break", "help") || demo.FlagAsks([]string{"--", "--break=help"}, "break", "help") {
		t.Error("demo.FlagAsks misreads its arguments")
	}
	for _, l := range []string{lang.EN, lang.ZH} {
		var b strings.Builder
		printBreaks(&b, l)
		for _, name := range []string{"--break=dirty-set", "--break=forget", "--break=owner-reference"} {
			if !strings.Contains(b.String(), name) {
				t.Errorf("--break=help does not list %s:\n%s", name, b.String())
			}
		}
		for _, want := range []string{sayBreaksIntro.In(l), sayBreakForget.In(l)} {
			if !strings.Contains(b.String(), want) {
				t.Errorf("--lang=%s --break=help lacks %q:\n%s", l, want, b.String())
			}
		}
	}
}
