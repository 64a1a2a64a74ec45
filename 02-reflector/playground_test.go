package reflector_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	clientfeatures "k8s.io/client-go/features"
	clientfeaturestesting "k8s.io/client-go/features/testing"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	reflector "informer-from-scratch/02-reflector"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/partition"
	"informer-from-scratch/internal/reqlog"
)

var namespaceSeq atomic.Int64

// TestPlaygroundRandomWorkload runs client-go's reflector and ours side by
// side against a real apiserver (watch cache off), in each mode, while a
// seeded random workload creates, changes and deletes pods. Halfway through,
// both lose their connection while more changes happen and etcd is
// compacted, so both meet a real 410 and relist. At the end both stores must
// hold exactly what the server holds, both must be at the resourceVersion
// of the last change or later (but not past the server's), and both must
// have sent the same requests.
func TestPlaygroundRandomWorkload(t *testing.T) {
	c := cluster(t)
	for _, watchList := range []bool{false, true} {
		t.Run(fmt.Sprintf("WatchList=%v", watchList), func(t *testing.T) {
			clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, watchList)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			client, err := kubernetes.NewForConfig(c.RESTConfig())
			if err != nil {
				t.Fatal(err)
			}
			ns := fmt.Sprintf("workload-%d", namespaceSeq.Add(1))
			if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			w := &workload{t: t, ctx: ctx, pods: client.CoreV1().Pods(ns), rand: rand.New(rand.NewPCG(42, uint64(len(ns))))}
			w.run(5) // something to list

			sides := map[side]*liveSide{}
			for _, s := range []side{clientGo, ours} {
				sides[s] = startLiveSide(t, ctx, c.RESTConfig, ns, s, watchList)
			}
			w.run(20)
			w.waitForBoth(sides)

			// A partition: the watches drop and stay down while the world
			// moves on and etcd forgets the history they would resume from.
			for _, l := range sides {
				l.link.Cut()
			}
			w.run(10)
			if _, err := c.Compact(ctx); err != nil {
				t.Fatal(err)
			}
			for _, l := range sides {
				l.link.Restore()
			}
			w.run(10)
			last := w.waitForBoth(sides)

			// Both must be at the state of the last change: at or after its
			// resourceVersion, and not past the server's. Not necessarily
			// at the same number: etcd's revision counts writes in the whole
			// cluster (the apiserver renews leases every few seconds), so a
			// LIST or WatchList snapshot taken a moment later, with nothing
			// changed in this namespace, carries a higher resourceVersion.
			if err := waitAtLeast(ctx, sides, last); err != nil {
				t.Fatal(err)
			}
			truth, truthRV := w.serverContent()
			for s, l := range sides {
				if diff := cmp.Diff(truth, l.store.content()); diff != "" {
					t.Errorf("%s's store differs from the server (-server +%s):\n%s", s, s, diff)
				}
				if rv := l.r.LastSyncResourceVersion(); revision(rv) > revision(truthRV) {
					t.Errorf("%s's LastSyncResourceVersion %s is past the server's %s", s, rv, truthRV)
				}
			}
			if err := waitWatching(ctx, sides); err != nil {
				t.Fatal(err)
			}
			cg, our := sides[clientGo].requests(), sides[ours].requests()
			t.Logf("client-go's requests:\n  %s", strings.Join(cg, "\n  "))
			if diff := cmp.Diff(cg, our); diff != "" {
				t.Errorf("the reflectors sent different requests (-client-go +ours):\n%s", diff)
			}
			if !strings.Contains(strings.Join(cg, "\n"), "resourceVersion=N&") {
				t.Errorf("no request resumed from a resourceVersion; the partition did not happen as planned:\n%s", strings.Join(cg, "\n"))
			}
			for _, l := range sides {
				l.stop()
			}
		})
	}
}

// liveSide is one reflector on the playground, with its own client (whose
// requests are recorded), partitionable link and store.
type liveSide struct {
	r     interface{ LastSyncResourceVersion() string }
	link  *partition.ListerWatcher
	store *liveStore
	rec   *reqlog.Recorder
	stop  func()
}

func startLiveSide(t *testing.T, ctx context.Context, config func() *rest.Config, ns string, s side, watchList bool) *liveSide {
	store := newLiveStore()
	// Every request wakes the test's waiters, like every store change.
	rec := &reqlog.Recorder{OnRequest: func(reqlog.Request) { _ = store.set(func() {}) }}
	client, err := kubernetes.NewForConfig(rec.Wrap(config()))
	if err != nil {
		t.Fatal(err)
	}
	lw := listwatch.NewFilteredListWatchFromClient(client.CoreV1().RESTClient(), "pods", ns, func(*metav1.ListOptions) {})
	l := &liveSide{link: partition.New(lw), store: store, rec: rec}
	ctx, cancel := context.WithCancel(ctx)
	var run func(context.Context)
	switch s {
	case clientGo:
		r := cache.NewReflectorWithOptions(l.link, &corev1.Pod{}, l.store, cache.ReflectorOptions{Name: string(s)})
		l.r, run = r, r.RunWithContext
	default:
		r := reflector.NewReflectorWithOptions(l.link, &corev1.Pod{}, l.store, reflector.ReflectorOptions{Name: string(s), UseWatchList: ptr.To(watchList)})
		l.r, run = r, r.RunWithContext
	}
	var wg sync.WaitGroup
	wg.Go(func() { run(ctx) })
	l.stop = func() {
		cancel()
		wg.Wait()
	}
	t.Cleanup(l.stop)
	return l
}

// waitAtLeast waits until both reflectors' LastSyncResourceVersion is at
// least last. (resourceVersions are opaque to clients; on the playground's
// own etcd they are revisions, which is what lets the test compare them as
// numbers.)
func waitAtLeast(ctx context.Context, sides map[side]*liveSide, last string) error {
	return waitUntil(ctx, sides, func() (bool, string) {
		cg, our := sides[clientGo].r.LastSyncResourceVersion(), sides[ours].r.LastSyncResourceVersion()
		return revision(cg) >= revision(last) && revision(our) >= revision(last),
			fmt.Sprintf("LastSyncResourceVersion: client-go is at %s, ours at %s, the last change at %s", cg, our, last)
	})
}

// waitWatching waits until both reflectors' last request is a watch: a
// Replace reaches the store just before the watch request that follows it
// is sent.
func waitWatching(ctx context.Context, sides map[side]*liveSide) error {
	return waitUntil(ctx, sides, func() (bool, string) {
		for _, l := range sides {
			reqs := l.rec.Requests()
			if len(reqs) == 0 || reqs[len(reqs)-1].Query.Get("watch") != "true" {
				return false, "a reflector is not watching"
			}
		}
		return true, ""
	})
}

// waitUntil re-checks cond each time either side's store or request log
// changes, and every few milliseconds besides (a reflector updates its
// resourceVersion just after the store call that woke us), until it holds
// or ctx ends.
func waitUntil(ctx context.Context, sides map[side]*liveSide, cond func() (bool, string)) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		cgChanged, ourChanged := sides[clientGo].store.changedChan(), sides[ours].store.changedChan()
		ok, why := cond()
		if ok {
			return nil
		}
		select {
		case <-cgChanged:
		case <-ourChanged:
		case <-tick.C:
		case <-ctx.Done():
			return fmt.Errorf("%s: %w", why, ctx.Err())
		}
	}
}

func revision(rv string) int64 {
	n, _ := strconv.ParseInt(rv, 10, 64)
	return n
}

// requests returns what the reflector sent, with resourceVersions reduced to
// their kind ("", "0" or N, a server-chosen number) and the random watch
// timeout left out.
func (l *liveSide) requests() []string {
	var out []string
	for _, r := range l.rec.Requests() {
		q := url.Values{}
		for k, v := range r.Query {
			switch {
			case k == "timeoutSeconds":
			case k == "resourceVersion" && v[0] != "" && v[0] != "0":
				q[k] = []string{"N"}
			default:
				q[k] = v
			}
		}
		out = append(out, reqlog.Request{Method: r.Method, Path: r.Path, Query: q}.String())
	}
	return out
}

// liveStore is a ReflectorStore for both reflectors that keeps name →
// resourceVersion and wakes waiters on every change.
type liveStore struct {
	mu      sync.Mutex
	items   map[string]string
	changed chan struct{}
}

func newLiveStore() *liveStore {
	return &liveStore{items: map[string]string{}, changed: make(chan struct{})}
}

func (s *liveStore) set(f func()) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
	close(s.changed)
	s.changed = make(chan struct{})
	return nil
}

func (s *liveStore) Add(obj any) error {
	k, rv := describe(obj)
	return s.set(func() { s.items[k] = rv })
}
func (s *liveStore) Update(obj any) error { return s.Add(obj) }
func (s *liveStore) Delete(obj any) error {
	k, _ := describe(obj)
	return s.set(func() { delete(s.items, k) })
}
func (s *liveStore) Replace(list []any, _ string) error {
	return s.set(func() {
		s.items = map[string]string{}
		for _, obj := range list {
			k, rv := describe(obj)
			s.items[k] = rv
		}
	})
}
func (s *liveStore) Resync() error { return nil }

// UpdateResourceVersion is called by both reflectors as their watch moves
// the resourceVersion on, bookmarks included: waiters wake up.
func (s *liveStore) UpdateResourceVersion(string) { _ = s.set(func() {}) }

func (s *liveStore) changedChan() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changed
}

func (s *liveStore) content() map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return copyMap(s.items)
}

// waitFor blocks until the store holds key at rv.
func (s *liveStore) waitFor(ctx context.Context, key, rv string) error {
	for {
		s.mu.Lock()
		got, changed := s.items[key], s.changed
		s.mu.Unlock()
		if got == rv {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("%s is at %q, not %q: %w", key, got, rv, ctx.Err())
		}
	}
}

// workload makes seeded random changes to a namespace's pods.
type workload struct {
	t    *testing.T
	ctx  context.Context
	pods podClient
	rand *rand.Rand
	seq  int
}

type podClient interface {
	Create(context.Context, *corev1.Pod, metav1.CreateOptions) (*corev1.Pod, error)
	Patch(context.Context, string, types.PatchType, []byte, metav1.PatchOptions, ...string) (*corev1.Pod, error)
	Delete(context.Context, string, metav1.DeleteOptions) error
	List(context.Context, metav1.ListOptions) (*corev1.PodList, error)
}

// run makes n changes: creates, label changes and deletes of pods named
// p-0 … p-7, chosen at random.
func (w *workload) run(n int) {
	for range n {
		name := fmt.Sprintf("p-%d", w.rand.IntN(8))
		var err error
		switch w.rand.IntN(3) {
		case 0:
			_, err = w.pods.Create(w.ctx, demo.Pod("", name, nil), metav1.CreateOptions{})
		case 1:
			w.seq++
			patch := fmt.Sprintf(`{"metadata":{"labels":{"seq":"%d"}}}`, w.seq)
			_, err = w.pods.Patch(w.ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		default:
			err = w.pods.Delete(w.ctx, name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
		}
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsAlreadyExists(err) {
			w.t.Fatalf("workload: %v", err)
		}
	}
}

// waitForBoth makes one last change (a marker pod) and waits until both
// stores hold it; it returns the marker's resourceVersion.
func (w *workload) waitForBoth(sides map[side]*liveSide) string {
	w.seq++
	marker, err := w.pods.Create(w.ctx, demo.Pod("", fmt.Sprintf("marker-%d", w.seq), nil), metav1.CreateOptions{})
	if err != nil {
		w.t.Fatal(err)
	}
	key := marker.Namespace + "/" + marker.Name
	for s, l := range sides {
		if err := l.store.waitFor(w.ctx, key, marker.ResourceVersion); err != nil {
			w.t.Fatalf("%s never caught up: %v", s, err)
		}
	}
	return marker.ResourceVersion
}

// serverContent is the truth: a quorum read of the namespace's pods, and its
// resourceVersion.
func (w *workload) serverContent() (map[string]string, string) {
	list, err := w.pods.List(w.ctx, metav1.ListOptions{})
	if err != nil {
		w.t.Fatal(err)
	}
	m := map[string]string{}
	for _, p := range list.Items {
		m[p.Namespace+"/"+p.Name] = p.ResourceVersion
	}
	return m, list.ResourceVersion
}
