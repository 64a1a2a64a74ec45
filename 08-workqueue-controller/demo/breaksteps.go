// Not a mirror of client-go: the demo's steps that show the mechanisms the
// --break switches take away (breaks.go): a Foo changed while a worker holds
// its key (the dirty set), a second failure after a success (Forget), and a
// Deployment without an owner reference (the garbage collector).

package main

import (
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/observe"
)

// changesWhileHeld scales Foo example with its Deployment write held back,
// and changes the Foo twice more while a worker holds the key.
func (s *script) changesWhileHeld() error {
	why := []string{
		"Scale example to 4 with the Deployment write held back a second; while a worker holds the key,",
		"scale it to 5, then back to 3. Each change is an OnUpdate and an Add. The dirty set marks the",
		"key once, and the processing set keeps it out of the FIFO until the worker's Done: one more",
		"reconcile, by one worker, of the newest state.",
	}
	if s.breaks.noDirtySet {
		why = append(why, "--break=dirty-set: every Add is a new item of the queue. Watch the second worker.")
	}
	s.tl.StepEN("Change a Foo while a worker holds its key", why...)
	key := s.ns + "/example"
	s.faults.slowNextWrite(time.Second)
	mark := s.trace.mark()
	if err := s.setFooReplicas("example", 4); err != nil {
		return err
	}
	if err := s.trace.waitFor(s.env.Ctx, s.timeout, "a worker taking Foo example", mark, 0, workerTook(key)); err != nil {
		return err
	}
	first := 0 // the worker whose write is held back
	for _, st := range s.trace.since(mark) {
		if workerTook(key)(st) {
			first = st.Worker
			break
		}
	}
	for _, n := range []int64{5, 3} {
		if err := s.setFooReplicas("example", n); err != nil {
			return err
		}
	}
	// Its write returns after a second, whatever the others did meanwhile.
	if err := s.trace.waitFor(s.env.Ctx, s.timeout, "the first worker's Done", mark, 0, func(st observe.Step) bool {
		return st.Layer == observe.LayerQueue && st.Op == "Done" && st.Key == key && st.Worker == first
	}); err != nil {
		return err
	}
	if err := s.wait("Deployment example-web back at 3 replicas", mark,
		wrote("UPDATE", s.deployment("example-web"), "spec.replicas=3")); err != nil {
		return err
	}
	o := overlaps(s.trace.since(mark), key)
	if len(o.twice) == 0 {
		s.tl.NoteEN("%d Adds came while a worker held %s: each found it in the dirty set (len=0), and", o.addsHeld, key)
		s.tl.NoteEN("Done put it back once. %d reconciles in all, never two at once.", o.syncs)
		return nil
	}
	s.tl.NoteEN("--break=dirty-set: %s, while %s held %s: two reconciles of one Foo at once,", o.twice[0].took, o.twice[0].held, key)
	s.tl.NoteEN("each reading the listers and each writing. %d Adds cost %d reconciles; writes refused as", o.adds, o.syncs)
	s.tl.NoteEN("conflicts: %d. client-go's Typed.Add keeps a key in dirty once, and out of the FIFO while", o.conflicts)
	s.tl.NoteEN("a worker holds it.")
	return nil
}

// overlap is one reconcile that started while another worker held the key.
type overlap struct{ took, held string }

// overlapReport is what changesWhileHeld found in the trace.
type overlapReport struct {
	adds, syncs, conflicts int
	addsHeld               int // Adds while some worker held the key
	twice                  []overlap
}

// overlaps reads steps for key: its Adds, its reconciles, the writes refused
// as conflicts, and every reconcile that began while another was running.
func overlaps(steps []observe.Step, key string) overlapReport {
	var r overlapReport
	holding := map[int]bool{} // workers between their sync and their Done of key
	for _, st := range steps {
		if st.Key != key {
			continue
		}
		switch {
		case st.Layer == observe.LayerQueue && st.Op == "Add":
			r.adds++
			if len(holding) > 0 {
				r.addsHeld++
			}
		case st.Layer == observe.LayerWorker && st.Op == "sync":
			r.syncs++
			for w := range holding {
				r.twice = append(r.twice, overlap{took: fmt.Sprintf("worker %d took it", st.Worker), held: fmt.Sprintf("worker %d", w)})
			}
			holding[st.Worker] = true
		case st.Layer == observe.LayerQueue && st.Op == "Done":
			delete(holding, st.Worker)
		case st.Layer == observe.LayerWrite && apierrors.IsConflict(st.Err):
			r.conflicts++
		}
	}
	return r
}

// failAgain ends step 7: flaky's Deployment is deleted by hand with the next
// create failing once, to show where the rate limiter starts counting.
func (s *script) failAgain() error {
	s.tl.NoteEN("Show it: delete flaky-web by hand, with the next Deployment create failing once.")
	s.faults.failNextCreates(1)
	mark := s.trace.mark()
	s.tl.Event("demo", "DELETE", s.deployment("flaky-web"), "by hand")
	if err := s.kube.AppsV1().Deployments(s.ns).Delete(s.env.Ctx, "flaky-web", metav1.DeleteOptions{}); err != nil {
		return err
	}
	if err := s.wait("Foo flaky's Deployment back after one more failure", mark,
		wrote("CREATE", s.deployment("flaky-web"), ""),
		s.fooStatus("flaky", 1)); err != nil {
		return err
	}
	for _, st := range s.trace.since(mark) {
		if st.Op != "AddRateLimited" || st.Key != s.ns+"/flaky" {
			continue
		}
		if s.breaks.noForget {
			s.tl.NoteEN("--break=forget: requeue %d, back in %v. The limiter still counted the failures before the", st.Requeues, st.Delay)
			s.tl.NoteEN("success: every key that ever failed waits longer each time, up to 1000s, and is never forgotten.")
		} else {
			s.tl.NoteEN("requeue %d, back in %v: Forget after the success had reset flaky's count.", st.Requeues, st.Delay)
		}
		return nil
	}
	return fmt.Errorf("step 7: flaky's Deployment came back without the injected failure")
}

// refusedWithoutOwner ends step 7 under --break=owner-reference: the
// Deployment the controller created carries no owner reference, so its
// next reconcile refuses it.
func (s *script) refusedWithoutOwner(mark int) error {
	refused := func(st observe.Step) bool {
		return st.Layer == observe.LayerWrite && st.Op == "EVENT" && st.Key == s.ns+"/flaky" && strings.Contains(st.Detail, controller.ErrResourceExists)
	}
	if err := s.wait("Foo flaky's Deployment refused", mark,
		wrote("CREATE", s.deployment("flaky-web"), ""), refused, refused); err != nil {
		return err
	}
	s.tl.NoteEN("--break=owner-reference: flaky-web was created without an owner reference. Nothing says it")
	s.tl.NoteEN("is flaky's: its events map to no Foo (\"not controlled by a Foo\"), and every reconcile refuses")
	s.tl.NoteEN("it (IsControlledBy) and retries, ever later. Now delete the Foo.")
	return nil
}

// leftBehind ends step 8 under --break=owner-reference: the stand-in, as
// the garbage collector, finds no owner to miss, and the Deployment stays.
func (s *script) leftBehind(mark int) error {
	if err := s.trace.waitFor(s.env.Ctx, s.timeout, "Foo flaky's OnDelete", mark, 2*time.Second,
		handled("OnDelete", "")); err != nil {
		return err
	}
	d, err := s.kube.AppsV1().Deployments(s.ns).Get(s.env.Ctx, "flaky-web", metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("--break=owner-reference: flaky-web was to be left behind, and: %w", err)
	}
	s.tl.Event("demo", "GET", s.deployment("flaky-web"), fmt.Sprintf("still there 2s later: rv=%s, ownerReferences=%d", d.ResourceVersion, len(d.OwnerReferences)))
	s.tl.NoteEN("--break=owner-reference: the garbage collector deletes a Deployment whose owner is gone; this")
	s.tl.NoteEN("one names no owner, so no one will ever delete it. sample-controller's newDeployment sets it")
	s.tl.NoteEN("with metav1.NewControllerRef.")
	return nil
}
