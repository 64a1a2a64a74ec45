package controller_test

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	cgworkqueue "k8s.io/client-go/util/workqueue"

	informer "informer-from-scratch/06-sharedinformer"
	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/crd"
	"informer-from-scratch/internal/testenv"
)

// retry is one rate-limited retry of a key: the delay the limiter gave,
// the time that really passed until a worker started the key again, and
// the limiter's count of requeues after it.
type retry struct {
	Delay, Gap time.Duration
	Requeues   int
}

// retries reads every reconcile of key that failed with an injected error
// from a trace, with the AddRateLimited that followed it and the next start
// of the key. (Other failures happen too, and are retried the same way: a
// create that finds the Deployment already there because the lister has
// not seen it yet, say. Which ones happen depends on timing.)
func retries(steps []stamped, key string) []retry {
	var out []retry
	for i, s := range steps {
		if s.Layer != observe.LayerWorker || s.Op != "failed" || s.Key != key || !strings.Contains(s.Err.Error(), errInjected.Error()) {
			continue
		}
		r := retry{Gap: -1}
		for _, next := range steps[i+1:] {
			if next.Key != key {
				continue
			}
			if next.Layer == observe.LayerQueue && next.Op == "AddRateLimited" {
				r.Delay, r.Requeues = next.Delay, next.Requeues
			}
			if next.Layer == observe.LayerWorker && next.Op == "sync" {
				r.Gap = next.at - s.at
				break
			}
		}
		out = append(out, r)
	}
	return out
}

// TestFailingReconcileIsRetriedWithTheDefaultLimitersDelays: in a
// testing/synctest bubble (fake time, exact), the Deployment's create fails
// six times, then succeeds; later, after the Foo is scaled, its update
// fails three times, then succeeds. Each retry must wait exactly what
// client-go's default controller rate limiter answers for that many
// failures (asked directly, as the oracle: 5ms, 10ms, 20ms…), on both
// stacks; and because the success in between calls Forget, the second
// burst starts again from 5ms, and after each success the queue's
// NumRequeues for the key is back to 0, as the oracle's is after Forget.
// Every reconcile of the key stays on one worker at a time, though two
// run.
func TestFailingReconcileIsRetriedWithTheDefaultLimitersDelays(t *testing.T) {
	testenv.CaptureErrors(t)
	const first, second = 6, 3
	oracle := cgworkqueue.DefaultTypedControllerRateLimiter[string]()
	// outcome is what one side did: each retry, and the queue's count of
	// requeues after each success.
	type outcome struct {
		Retries           []retry
		RequeuesAfterSync []int
	}
	var want outcome
	for i := range first + second {
		if i == first {
			oracle.Forget("a") // the success between the bursts
			want.RequeuesAfterSync = append(want.RequeuesAfterSync, oracle.NumRequeues("a"))
		}
		d := oracle.When("a")
		want.Retries = append(want.Retries, retry{Delay: d, Gap: d, Requeues: oracle.NumRequeues("a")})
	}
	oracle.Forget("a")
	want.RequeuesAfterSync = append(want.RequeuesAfterSync, oracle.NumRequeues("a"))

	got := map[string]outcome{}
	for _, s := range sides {
		// A subtest per side: synctest.Test ends its test at the first
		// failure, and the other side should still run.
		t.Run(s.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newFakeWorld(crd.NewFoo(fakeNS, "a", "a-web", 1, nil))
				w.fail("create", "deployments", first)
				tr := newTrace()
				var queue controller.Queue
				keep := func(q controller.Queue) controller.Queue { queue = q; return q }
				r := startWrapped(t, s, w.kube, w.dyn, fakeNS, 2, controller.Options{Recorder: fakeRecorder()}, keep, tr)
				defer r.stop(t, s.name)
				key := informer.ObjectName{Namespace: fakeNS, Name: "a"}
				var out outcome
				time.Sleep(10 * time.Second)
				synctest.Wait()
				out.RequeuesAfterSync = append(out.RequeuesAfterSync, queue.NumRequeues(key))
				w.fail("update", "deployments", second)
				scaleFoo(t, w, "a", 2)
				time.Sleep(10 * time.Second)
				synctest.Wait()
				out.RequeuesAfterSync = append(out.RequeuesAfterSync, queue.NumRequeues(key))

				out.Retries = retries(tr.snapshot(), key.String())
				got[s.name] = out
				if len(tr.overlaps) > 0 {
					t.Errorf("%s: a key was reconciled by two workers at once: %v", s.name, tr.overlaps)
				}
				world, err := snapshot(t.Context(), w.kube, w.dyn, fakeNS)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff([]string{
					"foo a: replicas=2 deployment=a-web status=0",
					"deployment a-web: replicas=2 owner=Foo/a available=0",
				}, world.summary()); diff != "" {
					t.Errorf("%s: after the retries (-want +got):\n%s", s.name, diff)
				}
			})
		})
	}
	for _, s := range sides {
		if diff := cmp.Diff(want, got[s.name]); diff != "" {
			t.Errorf("%s's retries differ from client-go's default limiter's delays (-limiter +%s):\n%s", s.name, s.name, diff)
		}
	}
}
