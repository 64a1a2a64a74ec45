package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"

	listwatch "informer-from-scratch/01-listwatch"
	"informer-from-scratch/01-listwatch/pager"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/lang"
)

// script holds the state the steps share.
type script struct {
	env *demo.Env
	ns  string // "" (every namespace) when read-only on a real cluster
}

// pageSize is tiny on purpose: five pods become three pages.
const pageSize = 2

// Each write is printed as every demo prints one: its request's row as it
// is sent, its answer's ("← CREATE", and the resourceVersion the server
// gave it) when it comes back. The script reads the events a write causes
// only afterwards, so they come after both.

func (s *script) createPod(name string) error {
	call := s.env.Timeline.Send("demo", "CREATE", s.ns+"/"+name, "")
	pod, err := s.env.Client.CoreV1().Pods(s.ns).Create(s.env.Ctx, demo.Pod(s.ns, name, map[string]string{"app": "web"}), metav1.CreateOptions{})
	if err != nil {
		return err
	}
	call.Answered(pod.ResourceVersion, "")
	return nil
}

func (s *script) labelPod(name, label string) error {
	key, value, _ := strings.Cut(label, "=")
	call := s.env.Timeline.Send("demo", "LABEL", s.ns+"/"+name, label)
	pod, err := s.env.Client.CoreV1().Pods(s.ns).Patch(s.env.Ctx, name, types.MergePatchType,
		fmt.Appendf(nil, `{"metadata":{"labels":{%q:%q}}}`, key, value), metav1.PatchOptions{})
	if err != nil {
		return err
	}
	call.Answered(pod.ResourceVersion, "")
	return nil
}

func (s *script) deletePod(name string) error {
	call := s.env.Timeline.Send("demo", "DELETE", s.ns+"/"+name, "")
	rv, err := demo.Delete(s.env.Ctx, s.env.Client.CoreV1().RESTClient(), s.ns, "pods", name, metav1.DeleteOptions{})
	if err != nil {
		return err
	}
	call.Answered(rv, "")
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
		pods := sayPage.Format(page, meta.LenList(obj))
		if m.GetContinue() == "" {
			tl.EventAbout(nil, "pager", "PAGE", pods, fmt.Sprintf("rv=%s continue=%q", m.GetResourceVersion(), ""), sayLastPage)
		} else {
			tl.EventAbout(nil, "pager", "PAGE", pods, fmt.Sprintf("rv=%s continue=%s…", m.GetResourceVersion(), m.GetContinue()[:12]))
		}
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
	tl.EventAbout(nil, "pager", "LIST", sayPodsInRequests.Format(meta.LenList(list), page),
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
	changes := []struct {
		want watch.EventType // the event that shows the change arrived
		name string
		do   func() error
	}{
		{watch.Modified, "web-1", func() error { return s.labelPod("web-1", "tier=gold") }},
		{watch.Deleted, "web-2", func() error { return s.deletePod("web-2") }},
		{watch.Added, "web-6", func() error { return s.createPod("web-6") }},
	}
	for _, c := range changes {
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
	var why []lang.Text
	if ev.Type == watch.Modified && m.GetDeletionTimestamp() != nil {
		why = append(why, sayDeletionBegun)
	}
	if ev.Type == watch.Bookmark && m.GetAnnotations()[metav1.InitialEventsAnnotationKey] == "true" {
		detail += " " + metav1.InitialEventsAnnotationKey + "=true"
	}
	name := m.GetNamespace() + "/" + m.GetName()
	if ev.Type == watch.Bookmark {
		name = "-"
		why = append(why, sayBookmarkCarries)
	}
	s.env.Timeline.Event("watch", string(ev.Type), name, detail, why...)
	return nil
}
