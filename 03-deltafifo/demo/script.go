// The cluster side of the demo: it plays the Reflector by hand
// (tools/cache/reflector.go: the LIST, the WATCH and the store calls of
// watchHandler), with stage 01's ListWatch.

package main

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	listwatch "informer-from-scratch/01-listwatch"
	"informer-from-scratch/internal/demo"
	"informer-from-scratch/internal/lang"
)

// script is the cluster side of the demo: it changes ConfigMaps, lists and
// watches them with stage 01's ListWatch, and feeds what it sees to both
// queues, playing the Reflector (stage 02) by hand.
type script struct {
	env *demo.Env
	ns  string
	lw  *listwatch.ListWatch
	q   *queues
	w   watch.Interface // the open watch, if any
	// listRV is the resourceVersion of the last LIST: where a watch starts.
	listRV string
}

// The demo's ConfigMaps carry this label, and the ListWatch selects only
// them.
const labelKey, labelValue = "informer-from-scratch/demo", "stage03"

// create, update and remove change the cluster, each printed as every
// demo prints a write: its request's row as it is sent, its answer's ("←
// CREATE", and the resourceVersion the server gave it) when it comes
// back. The script reads the events a write causes only afterwards
// (change), so they come after both.
func (s *script) create(name string) error {
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{labelKey: labelValue}},
		Data:       map[string]string{"version": "1"},
	}
	call := s.env.Timeline.Send("demo", "CREATE", name, "version=1")
	got, err := s.env.Client.CoreV1().ConfigMaps(s.ns).Create(s.env.Ctx, cm, metav1.CreateOptions{})
	if err != nil {
		return err
	}
	call.Answered(got.ResourceVersion, "")
	return nil
}

func (s *script) update(name, version string) error {
	patch := fmt.Appendf(nil, `{"data":{"version":%q}}`, version)
	call := s.env.Timeline.Send("demo", "UPDATE", name, "version="+version)
	got, err := s.env.Client.CoreV1().ConfigMaps(s.ns).Patch(s.env.Ctx, name, "application/merge-patch+json", patch, metav1.PatchOptions{})
	if err != nil {
		return err
	}
	call.Answered(got.ResourceVersion, "")
	return nil
}

// remove's answer is a Status: it carries no resourceVersion.
func (s *script) remove(name string, why lang.Text) error {
	call := s.env.Timeline.Send("demo", "DELETE", name, "", why)
	rv, err := demo.Delete(s.env.Ctx, s.env.Client.CoreV1().RESTClient(), s.ns, "configmaps", name, metav1.DeleteOptions{})
	if err != nil {
		return err
	}
	call.Answered(rv, "")
	return nil
}

// relist LISTs the ConfigMaps and hands the list to both queues' Replace, as
// a Reflector does at start and after its watch broke.
func (s *script) relist() error {
	obj, err := s.lw.ListWithContext(s.env.Ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("LIST: %w", err)
	}
	listRV, items, err := listItems(obj)
	if err != nil {
		return err
	}
	names := make([]string, len(items))
	for i, item := range items {
		names[i] = shortName(item) + "@" + rv(item)
	}
	s.env.Timeline.EventAbout(nil, "list", "LIST", sayConfigMaps.Format(len(items)), fmt.Sprintf("rv=%s %v", listRV, names), sayToReplace)
	s.listRV = listRV
	return s.q.replace(items, listRV)
}

func listItems(list runtime.Object) (string, []interface{}, error) {
	m, err := meta.ListAccessor(list)
	if err != nil {
		return "", nil, err
	}
	objs, err := meta.ExtractList(list)
	if err != nil {
		return "", nil, err
	}
	items := make([]interface{}, len(objs))
	for i, o := range objs {
		items[i] = o
	}
	return m.GetResourceVersion(), items, nil
}

// watchFrom opens a watch from resourceVersion.
func (s *script) watchFrom(resourceVersion string) error {
	w, err := s.lw.WatchWithContext(s.env.Ctx, metav1.ListOptions{ResourceVersion: resourceVersion, AllowWatchBookmarks: true})
	if err != nil {
		return fmt.Errorf("WATCH: %w", err)
	}
	s.w = w
	s.env.Timeline.Event("watch", "WATCH", "configmaps", "resourceVersion="+resourceVersion)
	return nil
}

func (s *script) stopWatch(why lang.Text) {
	if s.w != nil {
		s.w.Stop()
		s.w = nil
		s.env.Timeline.Event("watch", "STOP", "configmaps", "", why)
	}
}

// change does one change and waits for its watch event, feeding every
// event that arrives to both queues, so the timeline shows cause and effect.
func (s *script) change(do func() error, want watch.EventType, name string) error {
	if err := do(); err != nil {
		return err
	}
	timeout := time.After(10 * time.Second)
	for {
		select {
		case <-s.env.Ctx.Done():
			return s.env.Ctx.Err()
		case <-timeout:
			return fmt.Errorf("no %s event for %s within 10s", want, name)
		case ev, ok := <-s.w.ResultChan():
			if !ok {
				return fmt.Errorf("the server closed the watch")
			}
			if err := s.feed(ev); err != nil {
				return err
			}
			if ev.Type == want && shortName(ev.Object) == name {
				return nil
			}
		}
	}
}

// feed hands one watch event to both queues, as a Reflector's watchHandler
// does.
func (s *script) feed(ev watch.Event) error {
	var err error
	switch ev.Type {
	case watch.Added:
		err = s.q.add(ev.Object)
	case watch.Modified:
		err = s.q.update(ev.Object)
	case watch.Deleted:
		err = s.q.delete(ev.Object)
	case watch.Bookmark:
		// Only the RealFIFO has Bookmark; a DeltaFIFO never hears of them.
		err = s.q.real.Bookmark(rv(ev.Object))
	default:
		return fmt.Errorf("watch %s event: %v", ev.Type, ev.Object)
	}
	s.env.Timeline.Event("watch", string(ev.Type), shortName(ev.Object), "rv="+rv(ev.Object), sayToBoth)
	return err
}
