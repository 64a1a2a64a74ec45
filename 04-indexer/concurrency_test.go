package indexer_test

import (
	"fmt"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	indexer "informer-from-scratch/04-indexer"
	"informer-from-scratch/04-indexer/listers"
)

// TestConcurrentReadersAndWritersKeepTheIndexConsistent runs writers, readers
// and an AddIndexers at the same time (run it with -race). Each writer owns a
// namespace, so whatever the interleaving, the final contents are those of
// client-go's indexer fed the same writes one writer after the other, and
// the indices must agree with them. While it runs, readers check that
// ByIndex never hands out a key without its item.
func TestConcurrentReadersAndWritersKeepTheIndexConsistent(t *testing.T) {
	const writers, readers, opsPerWriter = 4, 4, 300
	ours := newOurs(namespaceIndex, byNode, byApp, byUser)

	// Each writer's operations, generated up front so client-go can replay
	// them afterwards.
	plans := make([][]op, writers)
	for w := range plans {
		g := &generator{c: randChooser{newRand(uint64(100 + w))}}
		for range opsPerWriter {
			pod := g.pod(false)
			pod.Namespace = fmt.Sprintf("writer-%d", w)
			kind := pick(g.c, opAdd, opAdd, opUpdate, opDelete)
			if g.c.intn(10) == 0 {
				plans[w] = append(plans[w], op{kind: opTransaction, txns: []txn{{"Add", pod}, {"Delete", pod}, {"Update", pod}}})
				continue
			}
			plans[w] = append(plans[w], op{kind: kind, obj: pod})
		}
	}

	done := make(chan struct{})
	errs := make(chan error, readers+writers+1)
	var writing, reading sync.WaitGroup
	for w := range writers {
		writing.Go(func() {
			for _, o := range plans[w] {
				if msg := applyOurs(ours, o); msg != "" {
					errs <- fmt.Errorf("writer %d, %s: %s", w, o, msg)
					return
				}
			}
		})
	}
	writing.Go(func() {
		if err := ours.AddIndexers(oursIndexers(byTier)); err != nil {
			errs <- err
		}
	})
	for r := range readers {
		reading.Go(func() {
			lister := listers.New[*corev1.Pod](ours, podsResource)
			for n := 0; ; n++ {
				select {
				case <-done:
					return
				default:
				}
				node := nodes[n%len(nodes)]
				items, err := ours.ByIndex("byNode", node)
				if err != nil {
					errs <- err
					return
				}
				for _, item := range items {
					if item == nil {
						errs <- fmt.Errorf("reader %d: ByIndex(byNode, %q) returned a key without its item", r, node)
						return
					}
				}
				_, _ = ours.IndexKeys("byUser", "ann")
				_ = ours.ListIndexFuncValues("byApp")
				_, _ = ours.Index(indexer.NamespaceIndex, probes["pod"])
				_ = ours.GetIndexers()
				_ = ours.List()
				_ = ours.ListKeys()
				_, _, _ = ours.GetByKey(fmt.Sprintf("writer-%d/p%d", n%writers, n%len(podNames)))
				if _, err := listers.NewNamespaced(lister, fmt.Sprintf("writer-%d", n%writers)).List(labels.SelectorFromSet(labels.Set{"app": "web"})); err != nil {
					errs <- err
					return
				}
				_ = ours.LastStoreSyncResourceVersion()
			}
		})
	}
	writing.Wait()
	close(done)
	reading.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	theirs := newTheirs(namespaceIndex, byNode, byApp, byUser, byTier)
	for _, plan := range plans {
		for _, o := range plan {
			if msg, _ := applyTheirs(theirs, o); msg != "" {
				t.Fatalf("client-go: %s: %s", o, msg)
			}
		}
	}
	// Which writer wrote last is a race; the resourceVersion is not compared.
	ours.Bookmark("end")
	theirs.Bookmark("end")
	compareStates(t, ours, theirs, "after the concurrent run")
}
