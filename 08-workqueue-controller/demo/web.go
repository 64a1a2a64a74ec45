// Not a mirror of client-go: --web, the demo's side of the browser view
// (internal/webview, its controller pipeline). The page draws the rows this
// demo prints, each key's token moving from the handlers through the
// workqueue to the workers' writes; its buttons act on the cluster, through
// the demo, once the story is over and until Ctrl-C.

package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/webview"
)

// webOpts are --web (serve the browser view) and --addr (where).
var webOpts webview.Flags

func webFlags(fs *flag.FlagSet, l string) {
	webOpts.Register(fs, l, sayWebFlag)
}

// fields are a Step's facts for the browser view (webview's Field names),
// attached to its timeline row, so the page moves tokens without parsing
// the row's text. dirty is the depth the row prints beside len.
func (t *trace) fields(s observe.Step, dirty int64) map[string]string {
	f := map[string]string{}
	set := func(k, v string) {
		if v != "" {
			f[k] = v
		}
	}
	set(webview.FieldKey, s.Key)
	if s.Worker > 0 {
		set(webview.FieldWorker, strconv.Itoa(s.Worker))
	}
	if s.Len >= 0 {
		set(webview.FieldLen, strconv.Itoa(s.Len))
		set(webview.FieldDirty, strconv.FormatInt(dirty, 10))
	}
	if s.Op == "AddRateLimited" {
		set(webview.FieldDelay, s.Delay.String())
		set(webview.FieldRequeues, strconv.Itoa(s.Requeues))
	}
	if s.Layer == observe.LayerQueue && strings.HasPrefix(s.Detail, "dropped") { // an Add, or an AddRateLimited
		set(webview.FieldDropped, "true")
	}
	if s.Sent {
		set(webview.FieldSent, "true")
	}
	if s.Err != nil {
		set(webview.FieldError, shorten(s.Err.Error()))
	}
	return f
}

// web is the browser view of one run. A nil *web (no --web) does nothing.
type web struct {
	s   *script
	srv *webview.Server
	// buttons act between the end of the story and Ctrl-C.
	buttons webview.Buttons
	// stopAfter ends the context that replaces the demo's after Ctrl-C (see
	// stayUpThenStop).
	stopAfter context.CancelFunc

	mu      sync.Mutex     // the buttons' own state
	current string         // the Foo that scale and delete act on
	next    map[string]int // by name prefix, the number of the next Foo a button creates
}

// webConfig is what the page shows, besides its buttons.
func webConfig() webview.Config {
	return webview.Config{
		Pipeline: webview.PipelineController,
		Title:    webview.Label{En: "Stage 08: a controller on our factory and workqueue, live", Zh: "第 8 阶段：建在我们的 factory 和 workqueue 上的 controller，实时运行"},
		Lanes:    webview.ControllerLanes(),
		Counters: webview.ControllerCounters(),
	}
}

// startWeb serves the page, if --web was given.
func startWeb(s *script) (*web, error) {
	if !webOpts.Web {
		return nil, nil
	}
	w := &web{s: s, current: "example", next: map[string]int{}}
	w.addButtons()
	srv, err := w.buttons.Start(webOpts.Addr, webConfig(), s.tl)
	if err != nil {
		return nil, err
	}
	w.srv = srv
	s.tl.Note(sayWebView, srv.URL())
	return w, nil
}

// addButtons adds what the page offers. The demo writes on a real cluster
// too, in its own namespace, so they are the same everywhere.
func (w *web) addButtons() {
	add := w.buttons.Add
	add("create", "Create a Foo", "创建 Foo", "one key through the queue; the worker creates its Deployment", "一个 key 走过队列；worker 创建它的 Deployment", w.createFoo)
	add("scale", "Scale the Foo", "扩缩 Foo", "spec.replicas + 1: the worker updates the Deployment", "spec.replicas + 1：worker 更新 Deployment", w.scaleFoo)
	add("deleteDeployment", "Delete its Deployment", "删除它的 Deployment", "behind the controller's back: the owner reference maps it to its Foo, which creates it again", "绕过 controller 删除：owner reference 把它映射回 Foo，Deployment 被重新创建", w.deleteDeployment)
	add("delete", "Delete the Foo", "删除 Foo", "the controller does nothing: the garbage collector deletes the Deployment", "controller 什么也不做：垃圾回收器删除 Deployment", w.deleteFoo)
	add("fail", "Make a reconcile fail", "让 reconcile 失败", "a new Foo whose Deployment create fails a few times: rate-limited retries, 5ms, 10ms, 20ms…", "新建一个 Foo，它的 Deployment 创建会失败几次：限速重试，5ms、10ms、20ms……", w.failReconcile)
}

// stayUpThenStop replaces the story's shutdown step under --web: the
// controller keeps running and the buttons act until Ctrl-C; then it shuts
// down with a drain, as in the story, but with nothing held in flight.
// Ctrl-C ends the demo's context, which the metrics and a real cluster's
// --cleanup still need: they get one of their own, bounded.
func (w *web) stayUpThenStop() error {
	s := w.s
	s.tl.Step(sayPageTitle, sayPageWhy)
	w.buttons.Open()
	s.tl.Note(sayWebStaysUp, w.srv.URL())
	// Ctrl-C ends the controller's context too (it is derived from the
	// demo's): its rows say it is draining before this code runs.
	<-s.env.Ctx.Done()
	w.buttons.Shut()
	s.env.Ctx, w.stopAfter = context.WithTimeout(context.WithoutCancel(s.env.Ctx), time.Minute)
	if err := s.stopControllerAndWait(); err != nil {
		return err
	}
	s.stopStandinAndWait()
	s.env.ShutDownOnInterrupt() // Ctrl-C was this mode's planned end: exit 0
	return nil
}

func (w *web) close() {
	if w == nil {
		return
	}
	if w.stopAfter != nil {
		w.stopAfter()
	}
	if err := w.srv.Close(); err != nil {
		w.s.tl.Note(sayWebError, err)
	}
}

// ---- the buttons ----

// Each button's action answers in both languages (the page shows the one
// its toggle chose); its errors are lang.Errorf's, for the same reason.

// foos returns the names of the demo's Foos, from the API server, as
// kubectl would: the buttons act by hand, not through the controller.
func (w *web) foos(ctx context.Context) ([]string, error) {
	list, err := w.s.dyn.Resource(crd.Foo.GVR()).Namespace(w.s.ns).List(ctx, metav1.ListOptions{LabelSelector: managedByLabel + "=" + managedBy})
	if err != nil {
		return nil, err
	}
	var names []string
	for _, foo := range list.Items {
		if foo.GetDeletionTimestamp() == nil {
			names = append(names, foo.GetName())
		}
	}
	slices.Sort(names)
	return names, nil
}

// target is the Foo scale and delete act on: the last one a button
// created, else the first there is.
func (w *web) target(ctx context.Context) (*unstructured.Unstructured, error) {
	names, err := w.foos(ctx)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, lang.Errorf(sayNoFoo)
	}
	if !slices.Contains(names, w.current) {
		w.current = names[0]
	}
	return w.s.dyn.Resource(crd.Foo.GVR()).Namespace(w.s.ns).Get(ctx, w.current, metav1.GetOptions{})
}

// create creates a Foo named prefix-N, with one replica, and makes it the
// target.
func (w *web) create(ctx context.Context, prefix string) (string, error) {
	names, err := w.foos(ctx)
	if err != nil {
		return "", err
	}
	w.next[prefix]++
	name := fmt.Sprintf("%s-%d", prefix, w.next[prefix])
	for slices.Contains(names, name) {
		w.next[prefix]++
		name = fmt.Sprintf("%s-%d", prefix, w.next[prefix])
	}
	if err := w.s.newFoo(name, name+"-web"); err != nil {
		return "", err
	}
	w.current = name
	return name, nil
}

func (w *web) createFoo(ctx context.Context) (lang.Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	name, err := w.create(ctx, "foo")
	if err != nil {
		return lang.Text{}, err
	}
	return sayCreatedFoo.Format(name), nil
}

func (w *web) scaleFoo(ctx context.Context) (lang.Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	foo, err := w.target(ctx)
	if err != nil {
		return lang.Text{}, err
	}
	replicas, _, _ := unstructured.NestedInt64(foo.Object, "spec", "replicas")
	replicas = replicas%5 + 1 // 1 to 5, round and round
	if err := w.s.setFooReplicas(foo.GetName(), replicas); err != nil {
		return lang.Text{}, err
	}
	return sayScaledFoo.Format(foo.GetName(), replicas), nil
}

func (w *web) deleteDeployment(ctx context.Context) (lang.Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	foo, err := w.target(ctx)
	if err != nil {
		return lang.Text{}, err
	}
	deployment, _, _ := unstructured.NestedString(foo.Object, "spec", "deploymentName")
	answered := w.s.trace.send("DELETE", w.s.deployment(deployment), "", sayByHand)
	rv, err := demo.Delete(ctx, w.s.kube.AppsV1().RESTClient(), w.s.ns, "deployments", deployment, metav1.DeleteOptions{})
	if err != nil {
		return lang.Text{}, err
	}
	answered(rv)
	return sayDeletedDepl.Format(deployment, foo.GetName()), nil
}

func (w *web) deleteFoo(ctx context.Context) (lang.Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	foo, err := w.target(ctx)
	if err != nil {
		return lang.Text{}, err
	}
	if err := w.s.deleteFooByHand(ctx, foo.GetName()); err != nil {
		return lang.Text{}, err
	}
	return sayDeletedFoo.Format(foo.GetName()), nil
}

// failReconcile arms the demo's transport as --fail does and creates a
// Foo: its reconciles fail until the creates have all failed.
func (w *web) failReconcile(ctx context.Context) (lang.Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := failFlag
	if n == 0 {
		n = 3
	}
	w.s.faults.failNextCreates(n)
	name, err := w.create(ctx, "flaky")
	if err != nil {
		w.s.faults.failNextCreates(0)
		return lang.Text{}, err
	}
	return sayCreatedFlaky.Format(name, n, strings.Join(delays(n), ", ")), nil
}

// delays are the waits the default controller rate limiter's per-item
// backoff gives n failures: 5ms, doubling.
func delays(n int) []string {
	var out []string
	for i := range n {
		out = append(out, (5 * time.Millisecond << i).String())
	}
	return out
}
