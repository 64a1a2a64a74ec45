// Not a mirror of client-go: the demo's shared steps, running our Reflector
// (tools/cache/reflector.go's Reflector) over a connection the demo can cut (internal/partition).

package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"

	listwatch "informer-from-scratch/01-listwatch"
	reflector "informer-from-scratch/02-reflector"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/lang"
	"informer-from-scratch/internal/partition"
	"informer-from-scratch/internal/reqlog"
	"informer-from-scratch/internal/timeline"
)

// script holds what the steps share.
type script struct {
	env      *demo.Env
	tl       *timeline.Timeline
	ns       string // "" (every namespace) when read-only on a real cluster
	lw       *listwatch.ListWatch
	requests *history[reqlog.Request]
	seq      int
}

// running is one reflector with its partitionable link, store and goroutine.
type running struct {
	r      *reflector.Reflector
	link   *partition.ListerWatcher
	store  *printStore
	events *history[watch.Event]
	cancel context.CancelFunc
	done   chan struct{}
}

// start builds a reflector over a partitionable link and runs it. Every watch event it
// receives is printed as a "watch" row (on a real cluster, only the first
// few of each step: there may be thousands of pods).
func (s *script) start(opts reflector.ReflectorOptions) *running {
	ctx, cancel := context.WithCancel(s.env.Ctx)
	run := &running{store: newPrintStore(s.tl), events: newHistory[watch.Event](), cancel: cancel, done: make(chan struct{})}
	run.store.quiet = !s.env.Writes
	printed := 0
	var mu sync.Mutex
	run.link = partition.New(s.lw)
	run.link.OnEvent = func(e watch.Event) {
		if ctx.Err() != nil {
			return // the client reports its own cancelled stream as an ERROR event
		}
		mu.Lock()
		printed++
		show := s.env.Writes || printed <= 8 || e.Type != watch.Added
		mu.Unlock()
		if show {
			s.printEvent(e)
		}
		run.events.add(e)
	}
	run.r = reflector.NewReflectorWithOptions(run.link, &corev1.Pod{}, run.store, opts)
	// The handler hears what ListAndWatch returns: a failed LIST, a watch
	// request the server refused. Errors caused by our own cancel are not
	// worth a row.
	if err := run.r.SetWatchErrorHandlerWithContext(func(ctx context.Context, _ *reflector.Reflector, err error) {
		if ctx.Err() == nil {
			s.tl.Event("reflector", "ERROR", "ListAndWatch", "error: "+err.Error(), sayReturned)
		}
	}); err != nil {
		panic(err) // the reflector has not started: cannot happen
	}
	go func() {
		defer close(run.done)
		run.r.RunWithContext(ctx)
	}()
	return run
}

// stop cancels the reflector's context and waits for Run to return.
func (s *script) stop(run *running) error {
	run.cancel()
	select {
	case <-run.done:
		s.tl.Event("reflector", "STOPPED", "RunWithContext", "", sayStoppedWhy)
		return nil
	case <-time.After(10 * time.Second):
		return fmt.Errorf("the reflector did not stop within 10s of its context being cancelled")
	}
}

func (s *script) printEvent(e watch.Event) {
	if e.Type == watch.Error {
		status := apierrors.FromObject(e.Object)
		detail := status.Error()
		if se, ok := status.(apierrors.APIStatus); ok {
			st := se.Status()
			detail = fmt.Sprintf("%d %s %q", st.Code, st.Reason, st.Message)
		}
		s.tl.Event("watch", "ERROR", "-", detail)
		return
	}
	m, err := meta.Accessor(e.Object)
	if err != nil {
		s.tl.Event("watch", string(e.Type), fmt.Sprintf("%T", e.Object), "", sayNoMetadata)
		return
	}
	key, detail := m.GetNamespace()+"/"+m.GetName(), "rv="+m.GetResourceVersion()
	var why []lang.Text
	if e.Type == watch.Modified && m.GetDeletionTimestamp() != nil {
		why = append(why, sayDeletionBegun)
	}
	if e.Type == watch.Bookmark {
		key = "-"
		if m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true" {
			detail += " " + metav1.InitialEventsAnnotationKey + "=true"
		}
	}
	s.tl.Event("watch", string(e.Type), key, detail, why...)
}

// showRV prints where the reflector is in the resource's history.
func (s *script) showRV(run *running) {
	s.tl.Event("reflector", "RV", "LastSyncResourceVersion", run.r.LastSyncResourceVersion())
}

// ---- writes (the playground only: on a real cluster a demo only reads) ----

func (s *script) setScene() error {
	s.tl.Step(saySceneTitle, saySceneWhy)
	var err error
	if s.ns, err = s.env.Namespace("stage02"); err != nil {
		return err
	}
	for _, name := range []string{"web-1", "web-2", "web-3"} {
		if err := s.create(name); err != nil {
			return err
		}
	}
	return nil
}

// Each write is printed as it is sent, and its answer (the new
// resourceVersion) when it comes back: the reflector prints the watch
// event the write caused as soon as it arrives, which may be first.

func (s *script) create(name string) error {
	call := s.tl.Send("demo", "CREATE", s.ns+"/"+name, "")
	pod, err := s.env.Client.CoreV1().Pods(s.ns).Create(s.env.Ctx, demo.Pod(s.ns, name, map[string]string{"app": "web"}), metav1.CreateOptions{})
	if err != nil {
		return err
	}
	call.Answered(pod.ResourceVersion, "")
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
	call := s.tl.Send("demo", "DELETE", s.ns+"/"+name, "")
	rv, err := demo.Delete(s.env.Ctx, s.env.Client.CoreV1().RESTClient(), s.ns, "pods", name, metav1.DeleteOptions{})
	if err != nil {
		return err
	}
	call.Answered(rv, "")
	return nil
}

// ---- waiting ----

func (s *script) waitStore(run *running, since int, what string, match func(storeCall) bool) (storeCall, error) {
	return run.store.calls.waitFor(s.env.Ctx, since, what, match)
}

func (s *script) waitRequest(since int, what string, match func(reqlog.Request) bool) error {
	_, err := s.requests.waitFor(s.env.Ctx, since, what, match)
	return err
}

func isWatch(r reqlog.Request) bool { return r.Query.Get("watch") == "true" }

func op(name string) func(storeCall) bool {
	return func(c storeCall) bool { return c.Op == name }
}

func opOn(name, key string) func(storeCall) bool {
	return func(c storeCall) bool { return c.Op == name && c.Key == key }
}
