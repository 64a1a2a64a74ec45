package main

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	"informer-from-scratch/01-listwatch/pager"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/timeline"
)

// script holds the state the steps share.
type script struct {
	env *demo.Env
	ns  string // "" (every namespace) when read-only on a real cluster
}

// pageSize is tiny on purpose: five pods become three pages.
const pageSize = 2

func (s *script) createPod(name string) error {
	pod, err := s.env.Client.CoreV1().Pods(s.ns).Create(s.env.Ctx, demo.Pod(s.ns, name, map[string]string{"app": "web"}), metav1.CreateOptions{})
	if err != nil {
		return err
	}
	// Printed when the call has returned, with its resourceVersion: the
	// script reads the events a write causes only afterwards, so they
	// cannot be printed before it.
	s.env.Timeline.EventWith(timeline.Origin(pod.ResourceVersion), "demo", "CREATE", s.ns+"/"+name, "rv="+pod.ResourceVersion)
	return nil
}

// listInPages runs the pager and returns the resourceVersion of the snapshot.
func (s *script) listInPages(lw *listwatch.ListWatch) (string, error) {
	tl := s.env.Timeline
	size := int64(pageSize)
	if !s.env.Writes {
		size = 100 // a real cluster may have thousands of pods
	}
	tl.Step(sayPagesTitle, sayPagesWhy.Format(size))
	page := 0
	p := pager.New(func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
		obj, err := lw.ListWithContext(ctx, opts)
		if err != nil {
			return nil, err
		}
		page++
		m, _ := meta.ListAccessor(obj)
		cont := "(none: last page)"
		if m.GetContinue() != "" {
			cont = m.GetContinue()[:12] + "…"
		}
		tl.Event("pager", "PAGE", fmt.Sprintf("page %d: %d pods", page, meta.LenList(obj)),
			fmt.Sprintf("rv=%s continue=%s", m.GetResourceVersion(), cont))
		if page == 1 && !s.env.Writes {
			printItems(s.env, obj, 10)
		}
		return obj, nil
	})
	p.PageSize = size
	list, paginated, err := p.List(s.env.Ctx, metav1.ListOptions{})
	if err != nil {
		return "", fmt.Errorf("LIST: %w", err)
	}
	m, err := meta.ListAccessor(list)
	if err != nil {
		return "", err
	}
	tl.Event("pager", "LIST", fmt.Sprintf("%d pods in %d requests", meta.LenList(list), page),
		fmt.Sprintf("rv=%s paginated=%v", m.GetResourceVersion(), paginated))
	if s.env.Writes {
		printItems(s.env, list, 10)
	}
	tl.Note(sayWatchFrom, m.GetResourceVersion())
	return m.GetResourceVersion(), nil
}

func printItems(env *demo.Env, list runtime.Object, limit int) {
	items, _ := meta.ExtractList(list)
	for i, item := range items {
		if i == limit {
			env.Timeline.Note(sayAndMore, len(items)-limit)
			break
		}
		m, _ := meta.Accessor(item)
		env.Timeline.Note(sayItem, m.GetNamespace()+"/"+m.GetName(), m.GetResourceVersion())
	}
}

// watchFrom watches from rv while the demo changes pods, and prints each event
// as it arrives.
func (s *script) watchFrom(lw *listwatch.ListWatch, rv string) error {
	tl := s.env.Timeline
	tl.Step(sayWatchTitle, sayWatchWhy)
	w, err := lw.WatchWithContext(s.env.Ctx, metav1.ListOptions{
		ResourceVersion:     rv,
		AllowWatchBookmarks: true,
		TimeoutSeconds:      ptr.To[int64](60),
	})
	if err != nil {
		return fmt.Errorf("WATCH: %w", err)
	}
	defer w.Stop()

	if !s.env.Writes {
		tl.Note(sayWatching)
		return s.printEvents(w, 10*time.Second)
	}
	pods := s.env.Client.CoreV1().Pods(s.ns)
	changes := []struct {
		say  string
		want watch.EventType // the event that shows the change arrived
		name string
		do   func() error
	}{
		{"label web-1 tier=gold", watch.Modified, "web-1", func() error {
			_, err := pods.Patch(s.env.Ctx, "web-1", "application/merge-patch+json",
				[]byte(`{"metadata":{"labels":{"tier":"gold"}}}`), metav1.PatchOptions{})
			return err
		}},
		{"delete web-2", watch.Deleted, "web-2", func() error { return pods.Delete(s.env.Ctx, "web-2", metav1.DeleteOptions{}) }},
		{"create web-6", watch.Added, "web-6", func() error { return s.createPod("web-6") }},
	}
	for _, c := range changes {
		tl.Event("demo", "CHANGE", c.say, "")
		if err := c.do(); err != nil {
			return err
		}
		// Wait for this change's event before making the next, so the
		// timeline shows cause and effect in order. A pod's deletion may
		// first arrive as MODIFIED (deletionTimestamp set), then DELETED.
		if err := s.printEventsUntil(w, c.want, c.name, 10*time.Second); err != nil {
			return err
		}
	}
	return nil
}

// printEvents prints every event from w until the timeout, the watch ends or
// the demo is interrupted.
func (s *script) printEvents(w watch.Interface, timeout time.Duration) error {
	return s.printEventsUntil(w, "", "", timeout)
}

// printEventsUntil prints events from w until one of type want for the object
// called name arrives. With want empty it prints until the timeout.
func (s *script) printEventsUntil(w watch.Interface, want watch.EventType, name string, timeout time.Duration) error {
	deadline := time.After(timeout)
	for {
		select {
		case <-s.env.Ctx.Done():
			return s.env.Ctx.Err()
		case <-deadline:
			if want == "" {
				return nil
			}
			return fmt.Errorf("no %s event for %s within %s", want, name, timeout)
		case ev, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("the server closed the watch")
			}
			if err := s.printEvent(ev); err != nil {
				return err
			}
			if m, err := meta.Accessor(ev.Object); err == nil && ev.Type == want && m.GetName() == name {
				return nil
			}
		}
	}
}

func (s *script) printEvent(ev watch.Event) error {
	if ev.Type == watch.Error {
		return fmt.Errorf("watch ERROR event: %v", ev.Object)
	}
	m, err := meta.Accessor(ev.Object)
	if err != nil {
		return fmt.Errorf("watch event %s carries %T, which has no metadata", ev.Type, ev.Object)
	}
	detail := "rv=" + m.GetResourceVersion()
	if pod, ok := ev.Object.(*corev1.Pod); ok && pod.Labels["tier"] != "" {
		detail += " tier=" + pod.Labels["tier"]
	}
	if ev.Type == watch.Modified && m.GetDeletionTimestamp() != nil {
		detail += " deletionTimestamp set: the deletion has begun"
	}
	if ev.Type == watch.Bookmark && m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true" {
		detail += " " + metav1.InitialEventsAnnotationKey + "=true"
	}
	name := m.GetNamespace() + "/" + m.GetName()
	if ev.Type == watch.Bookmark {
		name = "-"
		detail += " (a bookmark carries only a resourceVersion)"
	}
	s.env.Timeline.Event("watch", string(ev.Type), name, detail)
	return nil
}
