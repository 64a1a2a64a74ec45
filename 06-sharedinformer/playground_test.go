package informer_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
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
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/partition"
)

// TestPlaygroundRandomWorkloadMatchesClientGo runs client-go's informer and
// ours side by side on a real apiserver (watch cache off) while a seeded
// random workload creates, relabels and deletes pods, in both of the
// reflector's modes (WatchList and LIST+WATCH). Handlers come and go while
// it runs, and once both informers lose their connection while pods change
// and etcd compacts, so both meet a real 410 and relist, and deletions they
// missed reach their handlers as tombstones.
//
// Both informers watch the same server, so they receive the same events with
// the same resourceVersions, and each handler's calls must be the same,
// with three exceptions where two watches may legitimately differ, each
// checked for what is defined instead:
//   - the order of objects inside one list (the initial list, the relist)
//     comes from a map on both sides when the list is a WatchList stream:
//     those runs of calls are compared as sets;
//   - when a handler added while events flow joins is a race on each side:
//     it is checked against its own side's reference handler (checkLateJoin:
//     the cache at some point, then exactly every later call);
//   - when each side relists after the 410 depends on a jittered backoff:
//     the workload waits until both have relisted before it goes on, so the
//     relist sees the same state on both sides.
//
// At the end each cache must equal a fresh LIST, and every registration and
// both informers must have synced.
func TestPlaygroundRandomWorkloadMatchesClientGo(t *testing.T) {
	c := cluster(t)
	for _, watchList := range []bool{true, false} {
		t.Run(fmt.Sprintf("WatchList=%v", watchList), func(t *testing.T) {
			clientfeaturestesting.SetFeatureDuringTest(t, clientfeatures.WatchListClient, watchList)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			client, err := kubernetes.NewForConfig(c.RESTConfig())
			if err != nil {
				t.Fatal(err)
			}
			ns := fmt.Sprintf("workload-%d", namespaceSeq.Add(1))
			if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			w := &workload{t: t, ctx: ctx, pods: client.CoreV1().Pods(ns), rand: rand.New(rand.NewPCG(6, uint64(len(ns))))}
			w.run(6)

			sides := []*liveSide{
				startLiveSide(t, ctx, client, ns, "client-go", func(lw *partition.ListerWatcher) side {
					return newClientGoShared(lw, 0, true)
				}),
				startLiveSide(t, ctx, client, ns, "ours", func(lw *partition.ListerWatcher) side {
					return newOurShared(lw, 0, true, informer.QueueRealFIFO, nil, ptr.To(watchList))
				}),
			}
			for _, s := range sides {
				s.add("reference", handlerSpec{})
				s.add("filtered", handlerSpec{filter: true})
				s.add("typed", handlerSpec{typed: true})
				s.add("removed", handlerSpec{})
				s.run()
			}
			// Both must have their initial list before the workload goes
			// on, or one side's list holds what the other sees as events.
			for _, s := range sides {
				s.waitSynced()
			}
			w.run(20)
			w.marker(sides)

			// A quiet moment: a handler joins, another leaves, with nothing
			// in flight; both are exact.
			for _, s := range sides {
				s.add("late, quiet", handlerSpec{})
				s.remove("removed")
			}
			// A handler joins while the workload runs.
			var joining sync.WaitGroup
			for _, s := range sides {
				delay := time.Duration(w.rand.IntN(5)) * time.Millisecond
				joining.Go(func() {
					time.Sleep(delay) // somewhere in the first changes
					s.add("late, during the workload", handlerSpec{})
				})
			}
			w.run(20)
			joining.Wait()
			w.marker(sides)

			// The partition: the watches drop and stay down while pods
			// change and etcd forgets the history they would resume from.
			for _, s := range sides {
				s.lw.Cut()
			}
			w.run(15)
			rev, err := c.Compact(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range sides {
				s.lw.Restore()
			}
			waitRelisted(t, ctx, sides, rev)
			w.marker(sides)

			w.run(20)
			w.marker(sides)

			truth := w.serverContent()
			outcomes := map[string]liveOutcome{}
			for _, s := range sides {
				outcomes[s.name] = s.outcome(w.markers)
				if diff := cmp.Diff(truth, s.side.cache()); diff != "" {
					t.Errorf("%s's cache differs from a fresh LIST (-server +%s):\n%s", s.name, s.name, diff)
				}
				checkLateJoin(t, s.name, "late, during the workload", s.recorders["late, during the workload"].snapshot(), s.recorders["reference"].snapshot())
			}
			if testing.Verbose() {
				for _, name := range sides[0].order {
					t.Logf("client-go's %s:%s", name, join(outcomes["client-go"].Calls[name]))
				}
			}
			if diff := cmp.Diff(outcomes["client-go"], outcomes["ours"]); diff != "" {
				t.Errorf("the handlers saw different calls (-client-go +ours):\n%s", diff)
			}
			for name, o := range outcomes {
				for handler, synced := range o.Synced {
					if !synced || !o.InformerSynced {
						t.Errorf("%s: informer synced %v, handler %q synced %v; want both true", name, o.InformerSynced, handler, synced)
					}
				}
			}
			if !slices.ContainsFunc(outcomes["client-go"].Calls["reference"], func(c string) bool { return strings.Contains(c, "tombstone") }) {
				t.Errorf("no tombstone: the partition did not miss a deletion as planned:%s", join(outcomes["client-go"].Calls["reference"]))
			}
			for _, s := range sides {
				s.stop()
			}
		})
	}
}

var namespaceSeq atomic.Int64

// liveSide is one informer on the playground, behind a partition.
type liveSide struct {
	t         *testing.T
	ctx       context.Context
	name      string
	lw        *partition.ListerWatcher
	side      side
	start     time.Time
	recorders map[string]*recorder
	regs      map[string]registration
	removed   map[string]bool
	order     []string
	stop      func()
}

func startLiveSide(t *testing.T, ctx context.Context, client kubernetes.Interface, ns, name string, newSide func(*partition.ListerWatcher) side) *liveSide {
	lw := partition.New(listwatch.NewFilteredListWatchFromClient(client.CoreV1().RESTClient(), "pods", ns, func(*metav1.ListOptions) {}))
	return &liveSide{
		t: t, ctx: ctx, name: name, lw: lw,
		side:      newSide(lw),
		start:     time.Now(),
		recorders: map[string]*recorder{},
		regs:      map[string]registration{},
		removed:   map[string]bool{},
	}
}

func (s *liveSide) add(name string, h handlerSpec) {
	rec := newRecorder(s.start)
	reg, err := s.side.addHandler(h, rec)
	if err != nil {
		s.t.Fatalf("%s: adding %s: %v", s.name, name, err)
	}
	s.recorders[name], s.regs[name] = rec, reg
	s.order = append(s.order, name)
}

func (s *liveSide) remove(name string) {
	if err := s.regs[name].remove(); err != nil {
		s.t.Fatalf("%s: removing %s: %v", s.name, name, err)
	}
	s.removed[name] = true
}

func (s *liveSide) run() {
	ctx, cancel := context.WithCancel(s.ctx)
	var wg sync.WaitGroup
	wg.Go(func() { s.side.run(ctx) })
	s.stop = func() { cancel(); wg.Wait() }
	s.t.Cleanup(s.stop)
}

// waitSynced waits until the informer and every registration have synced.
func (s *liveSide) waitSynced() {
	for name, reg := range s.regs {
		select {
		case <-reg.synced:
		case <-s.ctx.Done():
			s.t.Fatalf("%s: handler %s never synced", s.name, name)
		}
	}
}

// waitFor waits until every handler still registered has been called for
// key at rv.
func (s *liveSide) waitFor(key, rv string) {
	for name, rec := range s.recorders {
		if s.removed[name] {
			continue
		}
		for {
			rec.mu.Lock()
			seen := slices.ContainsFunc(rec.calls, func(c call) bool { return c.Key == key && c.RV == rv })
			changed := rec.changed
			rec.mu.Unlock()
			if seen {
				break
			}
			select {
			case <-changed:
			case <-s.ctx.Done():
				s.t.Fatalf("%s: handler %s never saw %s at %s", s.name, name, key, rv)
			}
		}
	}
}

// liveOutcome is what one side's handlers saw, normalized as described on
// the test.
type liveOutcome struct {
	Calls          map[string][]string
	Synced         map[string]bool
	InformerSynced bool
}

func (s *liveSide) outcome(markers []string) liveOutcome {
	out := liveOutcome{Calls: map[string][]string{}, Synced: map[string]bool{}, InformerSynced: s.side.hasSynced()}
	for _, name := range s.order {
		out.Synced[name] = s.regs[name].hasSynced()
		if name == "late, during the workload" {
			continue // checkLateJoin
		}
		out.Calls[name] = listsAsSets(s.recorders[name].snapshot(), markers)
	}
	return out
}

// listsAsSets renders calls, sorting the run of calls between the second
// and third markers (the relist, and nothing else) and the initial adds.
func listsAsSets(calls []call, markers []string) []string {
	out := canonical(calls, false)
	at := func(marker string) int {
		return slices.IndexFunc(calls, func(c call) bool { return strings.HasSuffix(c.Key, "/"+marker) && c.Op == "add" })
	}
	from, to := at(markers[1]), at(markers[2])
	if from >= 0 && to > from {
		slices.Sort(out[from+1 : to])
	}
	return out
}

// waitRelisted waits until both informers have synced to a resourceVersion
// at or after the compaction: they have relisted.
func waitRelisted(t *testing.T, ctx context.Context, sides []*liveSide, rev int64) {
	t.Helper()
	for _, s := range sides {
		for {
			if n, _ := strconv.ParseInt(s.side.lastSyncResourceVersion(), 10, 64); n >= rev {
				break
			}
			select {
			case <-time.After(20 * time.Millisecond):
			case <-ctx.Done():
				t.Fatalf("%s never relisted past the compaction at %d (it is at %s)", s.name, rev, s.side.lastSyncResourceVersion())
			}
		}
	}
}

// workload makes seeded random changes to a namespace's pods.
type workload struct {
	t       *testing.T
	ctx     context.Context
	pods    corev1client.PodInterface
	rand    *rand.Rand
	seq     int
	markers []string
}

// run makes n changes: creates, relabels (app=web or db, which moves a pod
// across the filtered handler's edge) and deletes of pods p-0 … p-9.
func (w *workload) run(n int) {
	for range n {
		name := fmt.Sprintf("p-%d", w.rand.IntN(10))
		app := []string{"web", "db"}[w.rand.IntN(2)]
		var err error
		switch w.rand.IntN(3) {
		case 0:
			_, err = w.pods.Create(w.ctx, demo.Pod("", name, map[string]string{"app": app}), metav1.CreateOptions{})
		case 1:
			w.seq++
			patch := fmt.Sprintf(`{"metadata":{"labels":{"app":%q,"seq":"%d"}}}`, app, w.seq)
			_, err = w.pods.Patch(w.ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
		default:
			err = w.pods.Delete(w.ctx, name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
		}
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsAlreadyExists(err) {
			w.t.Fatalf("workload: %v", err)
		}
	}
}

// marker creates a pod no other change touches and waits until every
// handler of both sides has seen it: everything before it is delivered.
func (w *workload) marker(sides []*liveSide) {
	w.seq++
	name := fmt.Sprintf("marker-%d", w.seq)
	pod, err := w.pods.Create(w.ctx, demo.Pod("", name, map[string]string{"app": "web"}), metav1.CreateOptions{})
	if err != nil {
		w.t.Fatal(err)
	}
	w.markers = append(w.markers, name)
	for _, s := range sides {
		s.waitFor(pod.Namespace+"/"+name, pod.ResourceVersion)
	}
}

// serverContent is the truth: a quorum read of the namespace's pods.
func (w *workload) serverContent() map[string]string {
	list, err := w.pods.List(w.ctx, metav1.ListOptions{})
	if err != nil {
		w.t.Fatal(err)
	}
	m := map[string]string{}
	for _, p := range list.Items {
		m[p.Namespace+"/"+p.Name] = p.ResourceVersion
	}
	return m
}
