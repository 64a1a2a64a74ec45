// Not a mirror of client-go: --web, the demo's side of the browser view
// (internal/webview). The page draws the rows this demo prints; its buttons
// act on the cluster through the script's own steps, once the story is over.

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

	corev1 "k8s.io/api/core/v1"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/06-sharedinformer/observe"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/webview"
)

// webOpts are --web (serve the browser view) and --addr (where).
var webOpts webview.Flags

func webFlags(fs *flag.FlagSet, l string) {
	webOpts.Register(fs, l, sayWebFlag)
}

// fields are an Observation's facts for the browser view (webview's Field
// names), attached to its timeline row: the page moves tokens by them
// without parsing the row's text.
func fields(o observe.Observation) map[string]string {
	f := map[string]string{}
	set := func(k, v string) {
		if v != "" {
			f[k] = v
		}
	}
	set(webview.FieldKey, o.Key)
	set(webview.FieldRV, o.ResourceVersion)
	set(webview.FieldHandler, o.Handler)
	if n, ok := strings.CutSuffix(o.Detail, " objects"); ok {
		set(webview.FieldCount, n)
	}
	if n := strings.Count(o.Detail, "@"); n > 1 { // a DeltaFIFO's coalesced deltas, "Added@5 Updated@6"
		set(webview.FieldDeltas, strconv.Itoa(n))
	}
	if o.Err != nil {
		set(webview.FieldError, o.Err.Error())
	}
	return f
}

// web is the browser view of one run. A nil *web (no --web) does nothing.
type web struct {
	s   *script
	srv *webview.Server
	// buttons act once the story is over (stayUp opens them).
	buttons webview.Buttons

	mu      sync.Mutex // the buttons' own state
	cut     bool
	nextPod int
	added   int
	updates int
}

// startWeb serves the page, if --web was given.
func startWeb(s *script) (*web, error) {
	if !webOpts.Web {
		return nil, nil
	}
	cfg := webview.Config{
		Title:    webview.Label{En: "Stage 06: one SharedIndexInformer, live", Zh: "第 6 阶段：一个 SharedIndexInformer，实时运行"},
		Lanes:    webview.InformerLanes(),
		Counters: webview.InformerCounters(),
	}
	w := &web{s: s}
	w.addButtons()
	srv, err := w.buttons.Start(webOpts.Addr, cfg, s.tl)
	if err != nil {
		return nil, err
	}
	w.srv = srv
	s.tl.Note(sayWebView, srv.URL())
	return w, nil
}

// addButtons adds what the page offers: every button on the playground; on
// a real cluster, where the demo only reads, only those that change nothing
// there.
func (w *web) addButtons() {
	add := w.buttons.Add
	if w.s.env.Writes {
		add("create", "Create a pod", "创建 Pod", "one watch event: one token through every lane", "一个 watch 事件：一个 token 走过每一条泳道", w.createPod)
		add("update", "Update a pod", "更新 Pod", "a label change: an update", "改一个 label：一次 update", w.updatePod)
		add("delete", "Delete a pod", "删除 Pod", "two events: MODIFIED (deletionTimestamp), then DELETED", "两个事件：先 MODIFIED（deletionTimestamp），再 DELETED", w.deletePod)
	}
	add("cut", "Cut the watch", "断开 watch", "the watch ends; the next watch request waits", "watch 结束；下一个 watch 请求被挡住", w.cutWatch)
	add("restore", "Restore the watch", "恢复 watch", "the waiting watch request goes out, from the last resourceVersion", "被挡住的 watch 请求发出去，从最后的 resourceVersion 开始", w.restoreWatch)
	if w.s.env.OnPlayground() {
		add("compact", "Compact etcd (410)", "压缩 etcd（410）", "while the watch is cut, after a change: the restored watch gets 410 and the reflector lists again", "在 watch 断开、又有变化之后压缩：恢复的 watch 收到 410，Reflector 重新 list", w.compact)
	}
	add("slow", "Add a slow handler", "添加慢 handler", "each call takes a second: watch its ring buffer grow", "每次调用要一秒：看它的环形缓冲区变长", w.addSlowHandler)
	add("late", "Add a late handler", "添加晚来的 handler", "the cache is replayed to it as adds, then it gets every change", "缓存先以 add 的形式重放给它，之后它收到每一个变化", w.addLateHandler)
}

// listeners tells the page which handlers are about to be added, so that
// it draws their rings before the first notification reaches them.
func (w *web) listeners(names ...string) {
	if w == nil {
		return
	}
	for _, n := range names {
		w.srv.Listener(n)
	}
}

// stayUp keeps the informer running, and the buttons acting, until Ctrl-C:
// this mode's planned end, after which the demo stops the informer and
// exits 0, not 130.
func (w *web) stayUp(ctx context.Context) {
	if w == nil {
		return
	}
	w.buttons.Open()
	w.s.tl.Note(sayWebStaysUp, w.srv.URL())
	<-ctx.Done()
	w.s.env.ShutDownOnInterrupt()
}

func (w *web) close() {
	if w == nil {
		return
	}
	if err := w.srv.Close(); err != nil {
		w.s.tl.Note(sayWebError, err)
	}
}

// ---- the buttons ----

// Each button's action answers in both languages (the page shows the one
// its toggle chose); its errors are lang.Errorf's, for the same reason.

// pods returns the cached pods' names, sorted by their number.
func (w *web) pods() []string {
	var names []string
	for _, obj := range w.s.informer.GetIndexer().List() {
		names = append(names, obj.(*corev1.Pod).Name)
	}
	slices.SortFunc(names, func(a, b string) int { return podNumber(a) - podNumber(b) })
	return names
}

func podNumber(name string) int {
	n, _ := strconv.Atoi(strings.TrimPrefix(name, "web-"))
	return n
}

func (w *web) createPod(context.Context) (lang.Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, name := range w.pods() {
		w.nextPod = max(w.nextPod, podNumber(name)+1)
	}
	name := fmt.Sprintf("web-%d", w.nextPod)
	w.nextPod++
	return sayCreated.Format(name), w.s.create(name)
}

func (w *web) updatePod(context.Context) (lang.Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	pods := w.pods()
	if len(pods) == 0 {
		return lang.Text{}, lang.Errorf(sayNoPod)
	}
	name := pods[w.updates%len(pods)]
	w.updates++
	return sayLabelled.Format(name), w.s.label(name)
}

func (w *web) deletePod(context.Context) (lang.Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	pods := w.pods()
	if len(pods) == 0 {
		return lang.Text{}, lang.Errorf(sayNoPod)
	}
	name := pods[len(pods)-1]
	return sayDeleted.Format(name), w.s.delete(name)
}

func (w *web) cutWatch(context.Context) (lang.Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cut {
		return lang.Text{}, lang.Errorf(sayAlreadyCut)
	}
	w.cut = true
	w.s.lw.Cut()
	w.s.tl.EventAbout(nil, "demo", "CUT", sayConnection, "", sayCutWhy)
	return sayCut, nil
}

func (w *web) restoreWatch(context.Context) (lang.Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.cut {
		return lang.Text{}, lang.Errorf(sayNotCut)
	}
	w.cut = false
	w.s.lw.Restore()
	w.s.tl.EventAbout(nil, "demo", "RESTORE", sayConnection, "", sayRestoreWhy)
	return sayRestored, nil
}

func (w *web) compact(ctx context.Context) (lang.Text, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	rev, err := w.s.env.Cluster.Compact(ctx)
	if err != nil && strings.Contains(err.Error(), "required revision has been compacted") {
		return lang.Text{}, lang.Errorf(sayNothingToCompact)
	}
	if err != nil {
		return lang.Text{}, err
	}
	w.s.tl.Event("demo", "COMPACT", "etcd", fmt.Sprintf("revision=%d", rev), sayCompactWhy)
	if !w.cut {
		return sayCompactedOpen, nil
	}
	return sayCompacted, nil
}

func (w *web) addSlowHandler(context.Context) (lang.Text, error) {
	return w.addHandler("slow", time.Second)
}

func (w *web) addLateHandler(context.Context) (lang.Text, error) {
	return w.addHandler("late", 0)
}

// addHandler adds a handler to the running informer (its cache is replayed
// to it) and prints its HasSynced row once it has handled the replay.
func (w *web) addHandler(kind string, delay time.Duration) (lang.Text, error) {
	w.mu.Lock()
	w.added++
	name := fmt.Sprintf("%s-%d", kind, w.added)
	w.mu.Unlock()
	w.srv.Listener(name)
	why := []lang.Text{sayAddedRunning}
	if delay > 0 {
		why = append(why, sayEachCallTakes.Format(delay))
	}
	w.s.tl.Event("demo", "HANDLER", name, "", why...)
	reg, err := w.s.informer.AddEventHandlerWithOptions(sleeper(delay), informer.HandlerOptions{Name: name})
	if err != nil {
		return lang.Text{}, err
	}
	go func() {
		select {
		case <-reg.HasSyncedChecker().Done():
			w.s.tl.Event("synced", "HasSynced", name, "true")
		case <-w.s.env.Ctx.Done():
		}
	}()
	return sayAdded.Format(name), nil
}

// sleeper is a handler whose every call takes delay: a stand-in for a
// handler that does its work in line instead of queueing a key.
func sleeper(delay time.Duration) informer.ResourceEventHandler {
	pause := func() { time.Sleep(delay) }
	return informer.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { pause() },
		UpdateFunc: func(any, any) { pause() },
		DeleteFunc: func(any) { pause() },
	}
}
