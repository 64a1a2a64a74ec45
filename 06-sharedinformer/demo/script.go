// Not a mirror of client-go: the demo's steps, running our
// SharedIndexInformer (tools/cache/shared_informer.go's) on pods, over a
// connection the demo can cut.

package main

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/06-sharedinformer/observe"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/partition"
	"informer-from-scratch/internal/timeline"
)

// script holds what the steps share.
type script struct {
	env   *demo.Env
	tl    *timeline.Timeline
	queue informer.QueueKind
	ns    string // "" (every namespace) when read-only on a real cluster
	trail *trail
	// breaks are the --break switch (none by default); audit is the audit
	// handler's own view of the pods, in which a lost deletion shows.
	breaks informer.Breaks
	audit  *view

	faults *faults // --chaos only
	// source is what the informer lists and watches: nil for the
	// cluster's pods in ns (its test's is scripted).
	source   listwatch.ListerWatcherWithContext
	lw       *partition.ListerWatcher
	informer informer.SharedIndexInformer
	cancel   context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
	seq      int
}

func newScript(env *demo.Env, queue string) (*script, error) {
	s := &script{env: env, tl: env.Timeline, trail: newTrail(env.Timeline, !env.Writes), audit: newView()}
	var err error
	if s.queue, err = parseQueue(queue); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *script) setScene() error {
	if !s.env.Writes {
		s.tl.Step(sayReadOnlyTitle, sayReadOnlyWhy)
		return nil
	}
	s.tl.Step(saySceneTitle, saySceneWhy)
	var err error
	if s.ns, err = s.env.Namespace("stage06"); err != nil {
		return err
	}
	for i := 1; i <= 3; i++ {
		if err := s.create(fmt.Sprintf("web-%d", i)); err != nil {
			return err
		}
	}
	return nil
}

// start builds the informer, registers two handlers, runs it and waits for
// the informer and both registrations to sync.
func (s *script) start() error {
	s.tl.Step(sayBuildTitle.Format(s.queue), sayBuildWhy)
	source := s.source
	if source == nil {
		client, err := s.env.TimelineClient(nil)
		if chaosFlag {
			client, err = s.startProxy()
		}
		if err != nil {
			return err
		}
		source = listwatch.NewFilteredListWatchFromClient(client.CoreV1().RESTClient(), "pods", s.ns, func(*metav1.ListOptions) {})
	}
	s.lw = partition.New(source)
	s.informer = informer.NewSharedIndexInformerWithOptions(s.lw, &corev1.Pod{}, informer.SharedIndexInformerOptions{
		Indexers: informer.Indexers{informer.NamespaceIndex: informer.MetaNamespaceIndexFunc},
		Queue:    s.queue,
		Seams:    observe.Seams(s.trail.observe),
		Breaks:   s.breaks,
	})
	if err := s.informer.SetTransform(dropManagedFields); err != nil {
		return err
	}
	var regs []informer.ResourceEventHandlerRegistration
	for _, name := range []string{"audit", "metrics"} {
		handler := informer.ResourceEventHandlerFuncs{}
		if name == "audit" {
			handler = s.audit.handler()
		}
		reg, err := s.informer.AddEventHandlerWithOptions(handler, informer.HandlerOptions{Name: name})
		if err != nil {
			return err
		}
		regs = append(regs, reg)
	}

	ctx, cancel := context.WithCancel(s.env.Ctx)
	s.lw.OnEvent = s.watchErrors(ctx) // before Run: no watch is open yet
	s.cancel, s.done = cancel, make(chan struct{})
	go func() {
		defer close(s.done)
		s.informer.RunWithContext(ctx)
	}()
	if !s.waitSynced("", s.informer.HasSyncedChecker()) {
		return fmt.Errorf("the informer did not sync within 30s")
	}
	for i, reg := range regs {
		if !s.waitSynced([]string{"audit", "metrics"}[i], reg.HasSyncedChecker()) {
			return fmt.Errorf("a handler did not sync within 30s")
		}
	}
	s.tl.Note(saySyncedNote)
	s.showView(s.showCache())
	return nil
}

// waitSynced waits for checker and prints a SYNCED row: handler's
// registration's, or the informer's when handler is "".
func (s *script) waitSynced(handler string, checker informer.DoneChecker) bool {
	ctx, cancel := context.WithTimeout(s.env.Ctx, 30*time.Second)
	defer cancel()
	if !informer.WaitFor(ctx, cmp.Or(handler, "the informer"), checker) {
		return false
	}
	if handler == "" {
		s.tl.EventAbout(nil, "synced", "HasSynced", sayTheInformer, "true")
	} else {
		s.tl.Event("synced", "HasSynced", handler, "true")
	}
	return true
}

// dropManagedFields is the informer's transform: nobody here reads
// managedFields, which are often the biggest part of an object.
func dropManagedFields(obj any) (any, error) {
	if pod, ok := obj.(*corev1.Pod); ok {
		pod.ManagedFields = nil
	}
	return obj, nil
}

// followOnePod creates, updates and deletes pods, one change at a time.
func (s *script) followOnePod() error {
	s.tl.Step(sayFollowTitle, sayFollowWhy)
	for _, c := range []struct {
		do   func() error
		key  string
		what string
	}{
		{func() error { return s.create("web-4") }, s.ns + "/web-4", "web-4's add"},
		{func() error { return s.label("web-1") }, s.ns + "/web-1", "web-1's update"},
		{func() error { return s.delete("web-2") }, s.ns + "/web-2", "web-2's delete"},
	} {
		mark := s.trail.mark()
		if err := c.do(); err != nil {
			return err
		}
		// The last layer: both handlers called.
		calls := 0
		if err := s.trail.waitFor(s.env.Ctx, mark, c.what, func(o observe.Observation) bool {
			if o.Layer == observe.LayerHandler && o.Key == c.key && (c.key != s.ns+"/web-2" || o.Op == "OnDelete") {
				calls++
			}
			return calls == 2
		}); err != nil {
			return err
		}
	}
	s.tl.Note(sayTwoEvents)
	s.showView(s.showCache())
	return nil
}

// lateHandler adds a third handler to the running informer.
func (s *script) lateHandler() error {
	s.tl.Step(sayLateTitle, sayLateWhy)
	typed := informer.NewTypedSharedIndexInformer[*corev1.Pod](s.informer)
	reg, err := typed.AddTypedEventHandler(informer.TypedResourceEventHandlerFuncs[*corev1.Pod]{
		DeleteFunc: func(d informer.DeletedObject[*corev1.Pod]) {
			s.tl.Note(sayLateDelete, d.GetKey(), d.FinalStateUnknown != nil)
		},
	}, informer.HandlerOptions{Name: "late"})
	if err != nil {
		return err
	}
	if !s.waitSynced("late", reg.HasSyncedChecker()) {
		return fmt.Errorf("the late handler did not sync within 30s")
	}
	return nil
}

// missedDelete cuts the informer's connection, deletes a pod and compacts
// etcd meanwhile, and restores the connection: the watch meets a 410, the
// reflector relists, and the deletion reaches every handler as a tombstone.
func (s *script) missedDelete() error {
	if !s.env.Writes {
		s.tl.Step(sayWatchTitle, sayWatchWhy)
		select { // a Ctrl-C need not wait the five seconds out
		case <-time.After(5 * time.Second):
		case <-s.env.Ctx.Done():
		}
		s.showCache()
		return nil
	}
	if !s.env.OnPlayground() {
		s.tl.Step(saySkippedTitle, saySkippedWhy)
		return nil
	}
	why := []lang.Text{sayRelistWhy}
	if s.breaks.NoTombstones {
		why = append(why, sayRelistBreak)
	}
	s.tl.Step(sayRelistTitle, why...)
	s.lw.Cut()
	s.tl.EventAbout(nil, "demo", "CUT", sayConnection, "", sayCutWhy)
	if err := s.delete("web-3"); err != nil {
		return err
	}
	if err := s.create("web-5"); err != nil {
		return err
	}
	rev, err := s.env.Cluster.Compact(s.env.Ctx)
	if err != nil {
		return err
	}
	s.tl.Event("demo", "COMPACT", "etcd", fmt.Sprintf("revision=%d", rev), sayCompactWhy)
	mark := s.trail.mark()
	s.lw.Restore()
	s.tl.EventAbout(nil, "demo", "RESTORE", sayConnection, "", sayRestoreWhy)
	if s.breaks.NoTombstones {
		return s.missedDeleteWithoutTombstones(mark)
	}
	tombstones := 0
	if err := s.trail.waitFor(s.env.Ctx, mark, "the tombstone of web-3 at every handler", func(o observe.Observation) bool {
		if o.Layer == observe.LayerHandler && o.Op == "OnDelete" && o.Key == s.ns+"/web-3" && o.Detail == "tombstone" {
			tombstones++
		}
		return tombstones == 3
	}); err != nil {
		return err
	}
	adds := 0
	if err := s.trail.waitFor(s.env.Ctx, mark, "web-5's add at every handler", func(o observe.Observation) bool {
		if step(observe.LayerHandler, "OnAdd", s.ns+"/web-5")(o) {
			adds++
		}
		return adds == 3
	}); err != nil {
		return err
	}
	s.showView(s.showCache())
	return nil
}

// stop cancels the informer's context and waits for Run to return, which
// it does only once every goroutine it started has ended.
func (s *script) stop() error {
	var err error
	s.stopOnce.Do(func() {
		if s.cancel == nil {
			return
		}
		s.tl.Step(sayStopTitle, sayStopWhy)
		s.cancel()
		select {
		case <-s.done:
			s.tl.Event("informer", "STOPPED", "RunWithContext", fmt.Sprintf("IsStopped()=%v", s.informer.IsStopped()), sayReturned)
		case <-time.After(10 * time.Second):
			err = fmt.Errorf("the informer did not stop within 10s of its context being cancelled")
		}
	})
	return err
}

// showCache prints what the cache holds, from the indexer (stage 04), and
// returns it as it printed it (nil when read-only).
func (s *script) showCache() []string {
	pods := s.informer.GetIndexer().List()
	if !s.env.Writes {
		s.tl.Note(sayCacheCount, len(pods))
		return nil
	}
	var names []string
	fields := 0
	for _, obj := range pods {
		pod := obj.(*corev1.Pod)
		names = append(names, pod.Name+"@"+pod.ResourceVersion)
		fields += len(pod.ManagedFields)
	}
	slices.Sort(names)
	s.tl.Note(sayCache, names, fields)
	return names
}

// watchErrors prints the ERROR events of the watches of the informer run
// with ctx (a 410 after the compaction): the reflector ends that watch and
// lists again.
func (s *script) watchErrors(ctx context.Context) func(watch.Event) {
	return func(e watch.Event) { s.printWatchError(ctx, e) }
}

func (s *script) printWatchError(ctx context.Context, e watch.Event) {
	// Once ctx is cancelled the informer is stopping and lists no more: an
	// ERROR now is the stop itself. The cancelled read of the open watch
	// fails, and client-go's StreamWatcher (apimachinery's
	// watch/streamwatcher.go, receive) may turn that into a 500
	// InternalError event before the reflector stops the watch: a race,
	// not a fault. The STOPPED row says the stop; stage 02's demo skips
	// the same events.
	if e.Type != watch.Error || ctx.Err() != nil {
		return
	}
	status := apierrors.FromObject(e.Object)
	detail := status.Error()
	if se, ok := status.(apierrors.APIStatus); ok {
		st := se.Status()
		detail = fmt.Sprintf("%d %s", st.Code, st.Reason)
	}
	s.tl.Event("watch", "ERROR", "-", detail, sayWillRelist)
}

// ---- writes (the playground only: on a real cluster a demo only reads) ----

// Each write is printed as it is sent (timeline.Send), and its answer, the
// new resourceVersion, when it comes back: the informer prints the watch
// event the write caused, layer by layer, as soon as it arrives, which may
// be before the answer. A row printed on return would come after them.

func (s *script) create(name string) error {
	call := s.tl.Send("demo", "CREATE", s.ns+"/"+name, "")
	pod, err := s.env.Client.CoreV1().Pods(s.ns).Create(s.env.Ctx, demo.Pod(s.ns, name, map[string]string{"app": "web"}), metav1.CreateOptions{})
	if err != nil {
		return err
	}
	// The server's answer has managedFields; the cache, after the
	// transform, none (showCache counts them).
	call.Answered(pod.ResourceVersion, fmt.Sprintf("managedFields=%d", len(pod.ManagedFields)))
	return nil
}

func (s *script) label(name string) error {
	s.seq++
	call := s.tl.Send("demo", "LABEL", s.ns+"/"+name, fmt.Sprintf("tier=gold-%d", s.seq))
	patch := fmt.Sprintf(`{"metadata":{"labels":{"tier":"gold-%d"}}}`, s.seq)
	pod, err := s.env.Client.CoreV1().Pods(s.ns).Patch(s.env.Ctx, name, types.MergePatchType, []byte(patch), metav1.PatchOptions{})
	if err != nil {
		return err
	}
	call.Answered(pod.ResourceVersion, "")
	return nil
}

// delete's answer is the pod as deleted, at the resourceVersion of its
// DELETED event (demo.Delete).
func (s *script) delete(name string) error {
	call := s.tl.Send("demo", "DELETE", s.ns+"/"+name, "gracePeriodSeconds=0")
	rv, err := demo.Delete(s.env.Ctx, s.env.Client.CoreV1().RESTClient(), s.ns, "pods", name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
	if err != nil {
		return err
	}
	call.Answered(rv, "")
	return nil
}
