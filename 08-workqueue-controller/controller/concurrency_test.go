package controller_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"testing/synctest"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/testenv"
)

// TestWorkersNeverReconcileOneKeyAtOnce runs eight workers on fake clients
// (a reconcile takes microseconds, so the workers race each other hard)
// while Foos are scaled and their Deployments deleted in bursts of twenty
// changes: eight keys, each changing many times, and one of them, foo-0, hot
// (half of all changes). The bubble of
// testing/synctest is only there to wait for everything between bursts
// (the fake watch's buffer holds 100 events and panics when full); its
// goroutines run in parallel as any others. The trace must show
// reconciles of different keys running at once (otherwise the check proves
// nothing), and never two of the same key: the queue's processing set at
// work, on both stacks.
func TestWorkersNeverReconcileOneKeyAtOnce(t *testing.T) {
	testenv.CaptureErrors(t)
	for _, s := range sides {
		t.Run(s.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var foos []runtime.Object
				for i := range 8 {
					foos = append(foos, crd.NewFoo(fakeNS, fmt.Sprintf("foo-%d", i), fmt.Sprintf("foo-%d-web", i), 1, nil))
				}
				w := newFakeWorld(foos...)
				tr := newTrace()
				r := start(t, s, w.kube, w.dyn, fakeNS, 8, controller.Options{Recorder: fakeRecorder()}, tr)
				rnd := rand.New(rand.NewPCG(3, 4))
				ctx := context.Background()
				for n := range 1000 {
					if n%20 == 0 {
						time.Sleep(10 * time.Millisecond) // in the bubble: once every goroutine is idle
					}
					name := fmt.Sprintf("foo-%d", rnd.IntN(8))
					if rnd.IntN(2) == 0 {
						name = "foo-0"
					}
					if n%5 == 4 {
						w.kube.AppsV1().Deployments(fakeNS).Delete(ctx, name+"-web", metav1.DeleteOptions{})
						continue
					}
					patch := fmt.Appendf(nil, `{"spec":{"replicas":%d}}`, 1+rnd.IntN(9))
					if _, err := w.dyn.Resource(crd.Foo.GVR()).Namespace(fakeNS).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
						t.Fatal(err)
					}
				}
				r.stop(t, s.name)
				syncs, hot := 0, 0
				for _, st := range tr.snapshot() {
					if st.Layer == observe.LayerWorker && st.Op == "sync" {
						syncs++
						if st.Key == fakeNS+"/foo-0" {
							hot++
						}
					}
				}
				if len(tr.overlaps) > 0 {
					t.Errorf("a key was reconciled by two workers at once, %d times: %v", len(tr.overlaps), tr.overlaps[:min(5, len(tr.overlaps))])
				}
				if tr.most < 2 {
					t.Errorf("never two reconciles at once in %d: the check proves nothing", syncs)
				}
				t.Logf("%d reconciles (%d of the hot key), at most %d at once", syncs, hot, tr.most)
			})
		})
	}
}
