// Not a mirror of client-go: the demo's steps that show the mechanisms the
// --break switches take away (breaks.go): a Foo changed while a worker holds
// its key (the dirty set), a second failure after a success (Forget), and a
// Deployment without an owner reference (the garbage collector).

package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"informer-from-scratch/08-workqueue-controller/controller"
	"informer-from-scratch/08-workqueue-controller/observe"
	"informer-from-scratch/internal/lang"
)

// changesWhileHeld scales Foo example with its Deployment write held back,
// and changes the Foo twice more while a worker holds the key.
func (s *script) changesWhileHeld() error {
	why := []lang.Text{sayHeldWhy}
	if s.breaks.noDirtySet {
		why = append(why, sayHeldBreak)
	}
	s.tl.Step(sayHeldTitle, why...)
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
		s.tl.Note(sayHeldOnce, o.addsHeld(), key, holdsPart(o.holds), o.addsHeld()-len(o.holds), o.requeued, o.syncs)
		return nil
	}
	s.tl.Note(sayHeldTwice, o.twice[0].took, o.twice[0].held, key, o.adds, o.syncs, o.conflicts)
	return nil
}

// overlap is one reconcile that started while another worker held the
// key: the worker that took it, and the one that held it.
type overlap struct{ took, held int }

// overlapReport is what changesWhileHeld found in the trace.
type overlapReport struct {
	adds, syncs, conflicts int
	// holds lists, for each time a worker held the key (from its sync to
	// its Done) while Adds came, how many came: the first of them put the
	// key into the dirty set, the others found it there.
	holds []int
	// requeued counts the Dones of those holds that the queue answered by
	// handing the key out again (the next queue step of the key is a Get).
	requeued int
	twice    []overlap
}

// addsHeld is how many Adds came while a worker held the key.
func (r overlapReport) addsHeld() int {
	n := 0
	for _, h := range r.holds {
		n += h
	}
	return n
}

// overlaps reads steps for key: its Adds, its reconciles, the writes refused
// as conflicts, the Adds of each hold, and every reconcile that began while
// another was running.
func overlaps(steps []observe.Step, key string) overlapReport {
	var r overlapReport
	holding := map[int]int{} // worker between its sync and its Done of key → the Adds meanwhile
	doneWithAdds := false    // the key's last queue step was a Done ending a hold with Adds
	for _, st := range steps {
		if st.Key != key {
			continue
		}
		if st.Layer == observe.LayerQueue && st.Op != "Done" {
			if doneWithAdds && st.Op == "Get" {
				r.requeued++
			}
			doneWithAdds = false
		}
		switch {
		case st.Layer == observe.LayerQueue && st.Op == "Add":
			r.adds++
			for w := range holding {
				holding[w]++
			}
		case st.Layer == observe.LayerWorker && st.Op == "sync":
			r.syncs++
			for w := range holding {
				r.twice = append(r.twice, overlap{took: st.Worker, held: w})
			}
			holding[st.Worker] = 0
		case st.Layer == observe.LayerQueue && st.Op == "Done":
			if n, ok := holding[st.Worker]; ok && n > 0 {
				r.holds = append(r.holds, n)
				doneWithAdds = true
			}
			delete(holding, st.Worker)
		case st.Layer == observe.LayerWrite && apierrors.IsConflict(st.Err):
			r.conflicts++
		}
	}
	return r
}

// holdsPart says how the Adds of holds (their counts) were spread.
func holdsPart(holds []int) lang.Text {
	if len(holds) == 1 {
		return sayOneHold
	}
	parts := make([]string, len(holds))
	for i, n := range holds {
		parts[i] = strconv.Itoa(n)
	}
	return sayHolds.Format(len(holds), lang.Join(parts, sayListSep))
}

// failAgain ends step 7: flaky's Deployment is deleted by hand with the next
// create failing once, to show where the rate limiter starts counting.
func (s *script) failAgain() error {
	s.tl.Note(sayShowIt)
	s.faults.failNextCreates(1)
	mark := s.trace.mark()
	if err := s.deleteDeploymentByHand("flaky-web"); err != nil {
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
			s.tl.Note(sayForgetBreak, st.Requeues, st.Delay)
		} else {
			s.tl.Note(sayForgotten, st.Requeues, st.Delay)
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
	s.tl.Note(sayOwnerlessRefused)
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
	s.tl.Event("demo", "GET", s.deployment("flaky-web"), fmt.Sprintf("rv=%s ownerReferences=%d", d.ResourceVersion, len(d.OwnerReferences)), sayStillThere)
	s.tl.Note(sayLeftBehind)
	return nil
}
