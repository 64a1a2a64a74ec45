package deltafifo_test

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	deltafifo "informer-from-scratch/03-deltafifo"
)

func examplePod(name, rv string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "demo", Name: name, ResourceVersion: rv}}
}

// printDeltas is a process function that prints what Pop hands it.
func printDeltas(obj interface{}, isInInitialList bool) error {
	deltas := obj.(deltafifo.Deltas)
	key, _ := deltafifo.DeletionHandlingMetaNamespaceKeyFunc(deltas.Newest().Object)
	fmt.Printf("%s:", key)
	for _, d := range deltas {
		rv := "?"
		if p, ok := d.Object.(*corev1.Pod); ok {
			rv = p.ResourceVersion
		}
		fmt.Printf(" %s@%s", d.Type, rv)
	}
	fmt.Println()
	return nil
}

// popAtMost pops once. If nothing comes within five seconds it closes the
// queue, so Pop returns ErrFIFOClosed: an example whose rule is broken then
// prints the error and fails at once, instead of blocking until the test
// binary's timeout.
func popAtMost(q deltafifo.Queue, process deltafifo.PopProcessFunc) {
	giveUp := time.AfterFunc(5*time.Second, q.Close)
	defer giveUp.Stop()
	if _, err := q.Pop(process); err != nil {
		fmt.Println("Pop:", err)
	}
}

// A DeltaFIFO keeps one entry per key: web-1's second change joins its first
// and is handed out before web-2's, which happened earlier.
func ExampleDeltaFIFO_Pop() {
	f := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{})
	_ = f.Add(examplePod("web-1", "10"))
	_ = f.Add(examplePod("web-2", "11"))
	_ = f.Update(examplePod("web-1", "12"))
	for range 2 {
		popAtMost(f, printDeltas)
	}
	// Output:
	// demo/web-1: Added@10 Updated@12
	// demo/web-2: Added@11
}

// A RealFIFO hands out every event on its own, in arrival order.
func ExampleRealFIFO_Pop() {
	f := deltafifo.NewRealFIFOWithOptions(deltafifo.RealFIFOOptions{AtomicEvents: true})
	_ = f.Add(examplePod("web-1", "10"))
	_ = f.Add(examplePod("web-2", "11"))
	_ = f.Update(examplePod("web-1", "12"))
	for range 3 {
		popAtMost(f, printDeltas)
	}
	// Output:
	// demo/web-1: Added@10
	// demo/web-2: Added@11
	// demo/web-1: Updated@12
}

// store is the smallest KnownObjects: what the consumer has seen.
type store map[string]interface{}

func (s store) ListKeys() []string {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func (s store) GetByKey(key string) (interface{}, bool, error) {
	obj, ok := s[key]
	return obj, ok, nil
}

// onDelete is the pattern every DeleteFunc needs: the object is either the
// deleted object itself or, when the deletion was only noticed by a relist,
// a DeletedFinalStateUnknown holding the last state seen (possibly stale).
func onDelete(obj interface{}) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		tombstone, ok := obj.(deltafifo.DeletedFinalStateUnknown)
		if !ok {
			fmt.Printf("error: DeleteFunc got %T\n", obj)
			return
		}
		pod, ok = tombstone.Obj.(*corev1.Pod)
		if !ok {
			fmt.Printf("error: tombstone %s holds %T\n", tombstone.Key, tombstone.Obj)
			return
		}
		fmt.Printf("deleted while not watching: %s/%s, last seen at rv %s\n", pod.Namespace, pod.Name, pod.ResourceVersion)
		return
	}
	fmt.Printf("deleted: %s/%s\n", pod.Namespace, pod.Name)
}

// A deletion seen by the watch carries the object; one found by a relist
// carries a tombstone.
func ExampleDeletedFinalStateUnknown() {
	known := store{}
	f := deltafifo.NewDeltaFIFOWithOptions(deltafifo.DeltaFIFOOptions{KnownObjects: known, EmitDeltaTypeReplaced: true})
	consume := func(obj interface{}, _ bool) error {
		for _, d := range obj.(deltafifo.Deltas) {
			key, _ := deltafifo.DeletionHandlingMetaNamespaceKeyFunc(d.Object)
			if d.Type == deltafifo.Deleted {
				delete(known, key)
				onDelete(d.Object)
			} else {
				known[key] = d.Object
			}
		}
		return nil
	}

	_ = f.Replace([]interface{}{examplePod("web-1", "10"), examplePod("web-2", "11")}, "11")
	popAtMost(f, consume)
	popAtMost(f, consume)

	_ = f.Delete(examplePod("web-1", "12")) // the watch saw this one
	popAtMost(f, consume)

	_ = f.Replace([]interface{}{}, "20") // web-2 vanished while the watch was down
	popAtMost(f, consume)
	// Output:
	// deleted: demo/web-1
	// deleted while not watching: demo/web-2, last seen at rv 11
}
