package informer_test

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	fcache "k8s.io/client-go/tools/cache/testing"
	"k8s.io/utils/ptr"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/internal/docblock"
)

// One informer's life, as docs/{en,zh}/life.md tells it: start, sync, a
// handler added late, a watch event, a relist, a resync, stop. The same
// script runs on client-go's informer and on ours, in a testing/synctest
// bubble (fake time: each handler spends one second on each call, and the
// script's steps come at whole seconds), and each prints a timeline: every
// LIST and WATCH the reflector sends, every handler call, and the moment
// each HasSynced (the informer's, each registration's) turns true. The two
// timelines must be the same (cmp.Diff), and the page's block must be that
// timeline (docblock; make docs-from-runs rewrites it).
//
// How it is deterministic. Fake time makes every offset exact, except one:
// after the 410 the reflector waits a backoff of 0.8 s to 1.6 s, jittered
// at random, before it lists again; that wait is printed as "+b" (both
// sides' b are checked to lie in that range). Within one goroutine the
// order is fixed, and so is the order of what one causes in another (a
// handler's call returns before its registration's HasSynced can turn
// true); lines of different goroutines at the same instant have no fixed
// order, and are printed by who acted, in lifeLanes' order.

// lifeLanes are the timeline's actors, in the order lines of the same
// instant are printed.
var lifeLanes = []string{"script", "reflector", "informer", "A", "B"}

const (
	laneScript = iota
	laneReflector
	laneInformer
	laneA
	laneB
)

// lifeWatchBreaks is when the script breaks the watch (and deletes job
// unseen): the relist follows after the backoff b.
const lifeWatchBreaks = 20 * time.Second

// lifeLog is the timeline as it is recorded.
type lifeLog struct {
	start time.Time
	mu    sync.Mutex
	lines []lifeLine
}

type lifeLine struct {
	at   time.Duration
	lane int
	text string
}

func (l *lifeLog) add(lane int, format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, lifeLine{at: time.Since(l.start), lane: lane, text: fmt.Sprintf(format, args...)})
}

// lifeSource is the fake apiserver: FakeControllerSource's objects, listed
// in key order, every LIST and WATCH the reflector sends recorded. It
// cannot stream, and says so (as a fake clientset does), so both
// reflectors LIST and WATCH.
type lifeSource struct {
	sortedSource
	log *lifeLog
}

func (s lifeSource) IsWatchListSemanticsUnSupported() bool { return true }

func (s lifeSource) List(options metav1.ListOptions) (runtime.Object, error) {
	list, err := s.sortedSource.List(options)
	if err != nil {
		s.log.add(laneReflector, "LIST resourceVersion=%s → %v", options.ResourceVersion, err)
		return nil, err
	}
	items, _ := meta.ExtractList(list)
	names := make([]string, len(items))
	for i, item := range items {
		names[i] = matrixName(item)
	}
	rv := ""
	if m, err := meta.ListAccessor(list); err == nil {
		rv = m.GetResourceVersion()
	}
	s.log.add(laneReflector, "LIST resourceVersion=%s → rv %s: %s", options.ResourceVersion, rv, strings.Join(names, ", "))
	return list, nil
}

func (s lifeSource) Watch(options metav1.ListOptions) (watch.Interface, error) {
	w, err := s.sortedSource.Watch(options)
	var status apierrors.APIStatus
	switch {
	case errors.As(err, &status):
		s.log.add(laneReflector, "WATCH resourceVersion=%s → %d %s", options.ResourceVersion, status.Status().Code, status.Status().Reason)
	case err != nil:
		s.log.add(laneReflector, "WATCH resourceVersion=%s → %v", options.ResourceVersion, err)
	default:
		s.log.add(laneReflector, "WATCH resourceVersion=%s", options.ResourceVersion)
	}
	return w, err
}

// lifeHandler records each call in its lane, then spends a second on it.
type lifeHandler struct {
	log  *lifeLog
	lane int
}

func (h lifeHandler) OnAdd(obj any, isInInitialList bool) {
	h.log.add(h.lane, "OnAdd(%s, isInInitialList=%v)", matrixName(obj), isInInitialList)
	time.Sleep(time.Second)
}

func (h lifeHandler) OnUpdate(oldObj, newObj any) {
	h.log.add(h.lane, "OnUpdate(%s, %s)", matrixName(oldObj), matrixName(newObj))
	time.Sleep(time.Second)
}

func (h lifeHandler) OnDelete(obj any) {
	switch tomb := obj.(type) {
	case cache.DeletedFinalStateUnknown:
		h.log.add(h.lane, "OnDelete(DeletedFinalStateUnknown{Key: %s, Obj: %s})", tomb.Key, matrixName(tomb.Obj))
	case informer.DeletedFinalStateUnknown:
		h.log.add(h.lane, "OnDelete(DeletedFinalStateUnknown{Key: %s, Obj: %s})", tomb.Key, matrixName(tomb.Obj))
	default:
		h.log.add(h.lane, "OnDelete(%s)", matrixName(obj))
	}
	time.Sleep(time.Second)
}

// lifeInformer is one library's informer under the script.
type lifeInformer interface {
	// add registers h with the informer's resync (nil) or the one given,
	// and returns its registration's HasSynced, as a channel and as a call.
	add(h lifeHandler, resync *time.Duration) (synced <-chan struct{}, hasSynced func() bool, err error)
	run(ctx context.Context)
	synced() <-chan struct{}
	hasSynced() bool
	isStopped() bool
}

type clientGoLife struct{ inf cache.SharedIndexInformer }

func (c clientGoLife) add(h lifeHandler, resync *time.Duration) (<-chan struct{}, func() bool, error) {
	var reg cache.ResourceEventHandlerRegistration
	var err error
	if resync == nil {
		reg, err = c.inf.AddEventHandler(h)
	} else {
		reg, err = c.inf.AddEventHandlerWithResyncPeriod(h, *resync)
	}
	if err != nil {
		return nil, nil, err
	}
	return reg.HasSyncedChecker().Done(), reg.HasSynced, nil
}

func (c clientGoLife) run(ctx context.Context) { c.inf.RunWithContext(ctx) }
func (c clientGoLife) synced() <-chan struct{} { return c.inf.HasSyncedChecker().Done() }
func (c clientGoLife) hasSynced() bool         { return c.inf.HasSynced() }
func (c clientGoLife) isStopped() bool         { return c.inf.IsStopped() }
func (o ourLife) run(ctx context.Context)      { o.inf.RunWithContext(ctx) }
func (o ourLife) synced() <-chan struct{}      { return o.inf.HasSyncedChecker().Done() }
func (o ourLife) hasSynced() bool              { return o.inf.HasSynced() }
func (o ourLife) isStopped() bool              { return o.inf.IsStopped() }
func newClientGoLife(lw lifeSource) lifeInformer {
	return clientGoLife{cache.NewSharedIndexInformer(lw, &corev1.Pod{}, 30*time.Second, cache.Indexers{})}
}
func newOurLife(lw lifeSource) lifeInformer {
	return ourLife{informer.NewSharedIndexInformer(lw, &corev1.Pod{}, 30*time.Second, informer.Indexers{})}
}

type ourLife struct{ inf informer.SharedIndexInformer }

func (o ourLife) add(h lifeHandler, resync *time.Duration) (<-chan struct{}, func() bool, error) {
	var reg informer.ResourceEventHandlerRegistration
	var err error
	if resync == nil {
		reg, err = o.inf.AddEventHandler(h)
	} else {
		reg, err = o.inf.AddEventHandlerWithResyncPeriod(h, *resync)
	}
	if err != nil {
		return nil, nil, err
	}
	return reg.HasSyncedChecker().Done(), reg.HasSynced, nil
}

// playLife runs the script on one informer and returns its timeline, as
// the page prints it.
func playLife(t *testing.T, newSide func(lifeSource) lifeInformer) []string {
	t.Helper()
	var log *lifeLog
	synctest.Test(t, func(t *testing.T) {
		log = &lifeLog{start: time.Now()}
		src := fcache.NewFakeControllerSource()
		src.Add(matrixPod("web")) // rv 1
		inf := newSide(lifeSource{sortedSource: sortedSource{lw: src}, log: log})

		quit := make(chan struct{})
		var watchers sync.WaitGroup
		watchSynced := func(lane int, done <-chan struct{}, what string) {
			watchers.Go(func() {
				select {
				case <-done:
					log.add(lane, "%s", what)
				case <-quit:
				}
			})
		}

		log.add(laneScript, "AddEventHandler(A): the informer's resync, 30s")
		syncedA, hasSyncedA, err := inf.add(lifeHandler{log, laneA}, nil)
		if err != nil {
			t.Fatal(err)
		}
		watchSynced(laneA, syncedA, "registration's HasSynced true")
		watchSynced(laneInformer, inf.synced(), "HasSynced true")
		log.add(laneScript, "RunWithContext")
		ctx, cancel := context.WithCancel(context.Background())
		var running sync.WaitGroup
		running.Go(func() { inf.run(ctx) })

		time.Sleep(5 * time.Second)
		log.add(laneScript, "AddEventHandlerWithResyncPeriod(B, 0)")
		syncedB, hasSyncedB, err := inf.add(lifeHandler{log, laneB}, ptr.To(time.Duration(0)))
		if err != nil {
			t.Fatal(err)
		}
		watchSynced(laneB, syncedB, "registration's HasSynced true")

		time.Sleep(5 * time.Second)
		log.add(laneScript, "the server creates job")
		src.Add(matrixPod("job")) // rv 2, through the watch

		time.Sleep(lifeWatchBreaks - 10*time.Second)
		log.add(laneScript, "the server deletes job, and the watch breaks before it tells")
		src.DeleteDropWatch(matrixPod("job")) // rv 3, not sent
		src.ResetWatch()                      // the watch ends; the next meets 410: rv 2 is gone

		time.Sleep(time.Minute - lifeWatchBreaks)
		log.add(laneScript, "cancel the context")
		cancel()
		running.Wait()
		log.add(laneScript, "RunWithContext returned; IsStopped %v", inf.isStopped())
		if _, _, err := inf.add(lifeHandler{log, laneScript}, nil); err != nil {
			const refusal = "because it has stopped already"
			if strings.HasSuffix(err.Error(), refusal) {
				err = errors.New("… " + refusal) // the rest prints the handler, pointers and all
			}
			log.add(laneScript, "AddEventHandler(C) → error: %v", err)
		} else {
			log.add(laneScript, "AddEventHandler(C) → accepted")
		}
		log.add(laneScript, "HasSynced: informer %v, A %v, B %v", inf.hasSynced(), hasSyncedA(), hasSyncedB())
		close(quit)
		watchers.Wait()
		src.Shutdown()
	})
	return log.timeline(t)
}

// timeline orders the lines (by time, then lane, keeping each lane's own
// order) and prints them, the backoff b written as such.
func (l *lifeLog) timeline(t *testing.T) []string {
	t.Helper()
	lines := slices.Clone(l.lines)
	slices.SortStableFunc(lines, func(a, b lifeLine) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.lane, b.lane))
	})
	// The relist is the second LIST; b is how long after the watch broke
	// it came.
	relist := time.Duration(-1)
	lists := 0
	for _, line := range lines {
		if line.lane == laneReflector && strings.HasPrefix(line.text, "LIST ") {
			if lists++; lists == 2 {
				relist = line.at
			}
		}
	}
	backoff := relist - lifeWatchBreaks
	if relist < 0 || backoff < 800*time.Millisecond || backoff >= 1600*time.Millisecond {
		t.Errorf("the relist came at %v, %v after the watch broke; the page says after a backoff of 0.8 s to 1.6 s", relist, backoff)
	}
	out := []string{fmt.Sprintf("%-7s %-10s %s", "time", "who", "what")}
	for _, line := range lines {
		at := seconds(line.at)
		if line.lane != laneScript && relist >= 0 && line.at >= relist {
			at = seconds(line.at-backoff) + "+b"
		}
		out = append(out, strings.TrimRight(fmt.Sprintf("%-7s %-10s %s", at, lifeLanes[line.lane], line.text), " "))
	}
	return out
}

// seconds writes an offset as the page does: 0s, 21s, 60s.
func seconds(d time.Duration) string { return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s" }

// TestOneInformersLife plays the life page's script on client-go's
// informer and on ours, requires the same timeline of both, and holds the
// page's block to it.
func TestOneInformersLife(t *testing.T) {
	theirs := playLife(t, newClientGoLife)
	ours := playLife(t, newOurLife)
	if diff := gocmp.Diff(theirs, ours); diff != "" {
		t.Errorf("one informer's life differs (-client-go +ours):\n%s", diff)
	}
	block := "```text\n" + strings.Join(theirs, "\n") + "\n```\n"
	for _, lang := range []string{"en", "zh"} {
		docblock.Check(t, "docs/"+lang+"/life.md", lifeMarker, block)
	}
}

var lifeMarker = docblock.Marker("06-sharedinformer", "TestOneInformersLife", "the timeline")
