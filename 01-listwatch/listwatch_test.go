package listwatch_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
	clientgopager "k8s.io/client-go/tools/pager"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	"informer-from-scratch/01-listwatch/pager"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/reqlog"
)

// side is one implementation under test: client-go's or ours, each with a
// client of its own so the requests each sends can be told apart.
type side struct {
	name string
	rec  *reqlog.Recorder
	lw   listwatch.ListerWatcherWithContext
	// list pages through lw with the side's own pager.
	list func(ctx context.Context, pageSize int64, opts metav1.ListOptions) (runtime.Object, bool, error)
}

// sides builds client-go's ListWatch and pager and ours over the same
// resource, namespace and options modifier.
func sides(t *testing.T, ns string, modifier func(*metav1.ListOptions)) (clientGo, ours side) {
	clientGo = side{name: "client-go", rec: &reqlog.Recorder{}}
	cgLW := cache.NewFilteredListWatchFromClient(recordingClient(t, clientGo.rec).CoreV1().RESTClient(), "pods", ns, modifier)
	clientGo.lw = cgLW
	clientGo.list = func(ctx context.Context, pageSize int64, opts metav1.ListOptions) (runtime.Object, bool, error) {
		p := clientgopager.New(cgLW.ListWithContext)
		p.PageSize = pageSize
		return p.List(ctx, opts)
	}

	ours = side{name: "ours", rec: &reqlog.Recorder{}}
	ourLW := listwatch.NewFilteredListWatchFromClient(recordingClient(t, ours.rec).CoreV1().RESTClient(), "pods", ns, modifier)
	ours.lw = ourLW
	ours.list = func(ctx context.Context, pageSize int64, opts metav1.ListOptions) (runtime.Object, bool, error) {
		p := pager.New(ourLW.ListWithContext)
		p.PageSize = pageSize
		return p.List(ctx, opts)
	}
	return clientGo, ours
}

// listed is what a paginated LIST produced.
type listed struct {
	Items     []runtime.Object
	Paginated bool
}

func listAll(t *testing.T, s side, pageSize int64, opts metav1.ListOptions) (listed, string) {
	t.Helper()
	obj, paginated, err := s.list(context.Background(), pageSize, opts)
	if err != nil {
		t.Fatalf("%s: list: %v", s.name, err)
	}
	items, err := meta.ExtractList(obj)
	if err != nil {
		t.Fatalf("%s: %v", s.name, err)
	}
	m, _ := meta.ListAccessor(obj)
	return listed{Items: items, Paginated: paginated}, m.GetResourceVersion()
}

func TestPaginatedListMatchesClientGo(t *testing.T) {
	client := recordingClient(t, nil)
	ns := newNamespace(t, client, "list-pages", 7)
	gold := func(o *metav1.ListOptions) { o.LabelSelector = "app=web" }
	clientGo, ours := sides(t, ns, gold)

	for _, tc := range []struct {
		name     string
		pageSize int64
		opts     func(rv string) metav1.ListOptions
	}{
		{"consistent read in pages of 3", 3, func(string) metav1.ListOptions { return metav1.ListOptions{} }},
		{"one unpaginated request", 0, func(string) metav1.ListOptions { return metav1.ListOptions{} }},
		{"exact resourceVersion, in pages of 2", 2, func(rv string) metav1.ListOptions {
			return metav1.ListOptions{ResourceVersion: rv, ResourceVersionMatch: metav1.ResourceVersionMatchExact}
		}},
		{"resourceVersion 0 (any version, from the cache if there is one)", 4, func(string) metav1.ListOptions {
			return metav1.ListOptions{ResourceVersion: "0"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, rv := listAll(t, ours, 0, metav1.ListOptions{})
			clientGo.rec.Reset()
			ours.rec.Reset()
			want, wantRV := listAll(t, clientGo, tc.pageSize, tc.opts(rv))
			got, gotRV := listAll(t, ours, tc.pageSize, tc.opts(rv))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("listed items (-client-go +ours):\n%s", diff)
			}
			if tc.opts(rv).ResourceVersion == rv && wantRV != gotRV {
				t.Errorf("list resourceVersion: client-go %s, ours %s", wantRV, gotRV)
			}
			if diff := cmp.Diff(queries(t, clientGo.rec.Requests()), queries(t, ours.rec.Requests())); diff != "" {
				t.Errorf("requests the server saw (-client-go +ours):\n%s", diff)
			}
		})
	}
}

func TestFieldSelectorListWatchMatchesClientGo(t *testing.T) {
	client := recordingClient(t, nil)
	ns := newNamespace(t, client, "field-selector", 3)
	sel := fields.OneTermEqualSelector("metadata.name", "pod-01")

	cgRec, ourRec := &reqlog.Recorder{}, &reqlog.Recorder{}
	cgLW := cache.NewListWatchFromClient(recordingClient(t, cgRec).CoreV1().RESTClient(), "pods", ns, sel)
	ourLW := listwatch.NewListWatchFromClient(recordingClient(t, ourRec).CoreV1().RESTClient(), "pods", ns, sel)
	ctx := context.Background()
	want, err := cgLW.ListWithContext(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ourLW.ListWithContext(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(names(t, want), names(t, got)); diff != "" {
		t.Errorf("listed (-client-go +ours):\n%s", diff)
	}
	for _, lw := range []listwatch.WatcherWithContext{cgLW, ourLW} {
		w, err := lw.WatchWithContext(ctx, metav1.ListOptions{ResourceVersion: "0", TimeoutSeconds: ptr.To[int64](1)})
		if err != nil {
			t.Fatal(err)
		}
		w.Stop()
	}
	if diff := cmp.Diff(queries(t, cgRec.Requests()), queries(t, ourRec.Requests())); diff != "" {
		t.Errorf("requests (-client-go +ours):\n%s", diff)
	}
}

func names(t *testing.T, list runtime.Object) []string {
	t.Helper()
	var out []string
	if err := meta.EachListItem(list, func(o runtime.Object) error {
		m, _ := meta.Accessor(o)
		out = append(out, m.GetName())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWatchEventsMatchClientGo opens a watch through each ListWatch from the
// same resourceVersion, changes pods, and compares the events each received.
func TestWatchEventsMatchClientGo(t *testing.T) {
	client := recordingClient(t, nil)
	ns := newNamespace(t, client, "watch-events", 3)
	clientGo, ours := sides(t, ns, func(o *metav1.ListOptions) { o.LabelSelector = "app=web" })
	_, rv := listAll(t, ours, 0, metav1.ListOptions{})
	clientGo.rec.Reset()
	ours.rec.Reset()

	opts := metav1.ListOptions{ResourceVersion: rv, AllowWatchBookmarks: true, TimeoutSeconds: ptr.To[int64](60)}
	ctx := context.Background()
	cgW, err := clientGo.lw.WatchWithContext(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer cgW.Stop()
	ourW, err := ours.lw.WatchWithContext(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer ourW.Stop()

	// The workload: an update, a delete, an update that drops the pod out of
	// the selector (a DELETED event for this watch), and a create to end on.
	pods := client.CoreV1().Pods(ns)
	mustPatch(t, pods.Patch, "pod-00", `{"metadata":{"labels":{"tier":"silver"}}}`)
	if err := pods.Delete(ctx, "pod-01", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	mustPatch(t, pods.Patch, "pod-02", `{"metadata":{"labels":{"app":"db"}}}`)
	if _, err := pods.Create(ctx, demo.Pod(ns, "last", map[string]string{"app": "web"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	until := func(ev watch.Event) bool { return ev.Type == watch.Added && name(ev) == "last" }
	want := collect(t, cgW, until)
	got := collect(t, ourW, until)
	if len(want) < 4 {
		t.Fatalf("client-go saw only %d events: %v", len(want), summary(want))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("watch events (-client-go +ours):\n%s", diff)
	}
	if diff := cmp.Diff(queries(t, clientGo.rec.Requests()), queries(t, ours.rec.Requests())); diff != "" {
		t.Errorf("watch requests (-client-go +ours):\n%s", diff)
	}
}

// TestWatchListMatchesClientGo sends the WatchList request through both and
// compares the initial events, the bookmark that ends them, and the request.
func TestWatchListMatchesClientGo(t *testing.T) {
	client := recordingClient(t, nil)
	ns := newNamespace(t, client, "watch-list", 4)
	clientGo, ours := sides(t, ns, func(*metav1.ListOptions) {})
	opts := metav1.ListOptions{
		SendInitialEvents:    ptr.To(true),
		ResourceVersionMatch: metav1.ResourceVersionMatchNotOlderThan,
		AllowWatchBookmarks:  true,
	}
	isEnd := func(ev watch.Event) bool { return ev.Type == watch.Bookmark }
	var results [2][]watch.Event
	for i, s := range []side{clientGo, ours} {
		w, err := s.lw.WatchWithContext(context.Background(), opts)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		results[i] = collect(t, w, isEnd)
		w.Stop()
	}
	want, got := results[0], results[1]
	if len(want) != 5 || !hasInitialEventsEnd(want[4]) {
		t.Fatalf("client-go: want 4 ADDED and the initial-events-end bookmark, got %v", summary(want))
	}
	// The bookmark carries the resourceVersion of the moment each request was
	// served; other writes in the cluster (leases) may move it in between.
	ignoreBookmarkRV := cmpopts.IgnoreFields(metav1.ObjectMeta{}, "ResourceVersion")
	if diff := cmp.Diff(want[:4], got[:4]); diff != "" {
		t.Errorf("initial events (-client-go +ours):\n%s", diff)
	}
	if diff := cmp.Diff(want[4:], got[4:], ignoreBookmarkRV); diff != "" {
		t.Errorf("bookmark (-client-go +ours):\n%s", diff)
	}
	if diff := cmp.Diff(queries(t, clientGo.rec.Requests()), queries(t, ours.rec.Requests())); diff != "" {
		t.Errorf("requests (-client-go +ours):\n%s", diff)
	}
}

func hasInitialEventsEnd(ev watch.Event) bool {
	m, err := meta.Accessor(ev.Object)
	return err == nil && ev.Type == watch.Bookmark && m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true"
}

func mustPatch(t *testing.T, patch func(context.Context, string, types.PatchType, []byte, metav1.PatchOptions, ...string) (*corev1.Pod, error), name, body string) {
	t.Helper()
	if _, err := patch(context.Background(), name, types.MergePatchType, []byte(body), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
}

// collect reads events until done says so, failing after 30 seconds.
func collect(t *testing.T, w watch.Interface, done func(watch.Event) bool) []watch.Event {
	t.Helper()
	var events []watch.Event
	timeout := time.After(30 * time.Second)
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Fatalf("watch closed after %v", summary(events))
			}
			events = append(events, ev)
			if done(ev) {
				return events
			}
		case <-timeout:
			t.Fatalf("timed out after %v", summary(events))
		}
	}
}

func name(ev watch.Event) string {
	m, err := meta.Accessor(ev.Object)
	if err != nil {
		return fmt.Sprintf("<%T>", ev.Object)
	}
	return m.GetName()
}

func summary(events []watch.Event) []string {
	var s []string
	for _, ev := range events {
		s = append(s, string(ev.Type)+" "+name(ev))
	}
	return s
}

// TestExpiredContinueFallsBackToFullList makes the continue token of page two
// expire for real (a write elsewhere, then an etcd compaction, with the watch
// cache off) and checks both pagers fall back to one full list in the same way.
func TestExpiredContinueFallsBackToFullList(t *testing.T) {
	client := recordingClient(t, nil)
	ns := newNamespace(t, client, "expired-continue", 5)
	clientGo, ours := sides(t, ns, func(*metav1.ListOptions) {})
	ctx := context.Background()

	type result struct {
		Names     []string
		Paginated bool
		Requests  []string
	}
	run := func(s side, build func(pager.ListPageFunc) func(context.Context, metav1.ListOptions) (runtime.Object, bool, error)) result {
		pages := 0
		list := build(func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			obj, err := s.lw.ListWithContext(ctx, opts)
			if pages++; pages == 1 {
				expireHistory(t, client)
			}
			return obj, err
		})
		s.rec.Reset()
		obj, paginated, err := list(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		r := result{Names: names(t, obj), Paginated: paginated}
		for _, q := range queries(t, s.rec.Requests()) {
			if q.Has("continue") {
				q.Set("continue", "<token>")
			}
			r.Requests = append(r.Requests, q.Encode())
		}
		return r
	}
	want := run(clientGo, func(fn pager.ListPageFunc) func(context.Context, metav1.ListOptions) (runtime.Object, bool, error) {
		p := clientgopager.New(clientgopager.ListPageFunc(fn))
		p.PageSize = 2
		return p.List
	})
	got := run(ours, func(fn pager.ListPageFunc) func(context.Context, metav1.ListOptions) (runtime.Object, bool, error) {
		p := pager.New(fn)
		p.PageSize = 2
		return p.List
	})
	// Three requests: page one, the expired continue, the full list.
	if len(want.Requests) != 3 || want.Requests[2] != "" {
		t.Fatalf("client-go did not fall back as expected: %+v", want)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-client-go +ours)\n%s", diff)
	}
}

// expireHistory writes something (so etcd's revision moves past every token
// handed out so far) and compacts etcd up to now.
func expireHistory(t *testing.T, client kubernetes.Interface) {
	t.Helper()
	ctx := context.Background()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{GenerateName: "bump-", Namespace: "default"}}
	if _, err := client.CoreV1().ConfigMaps("default").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := cluster.Compact(ctx); err != nil {
		t.Fatal(err)
	}
}
