package factory_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
)

// The parts of a program use one factory at the same time: controllers
// built on goroutines of their own ask it for informers together, and one
// part may wait for the caches while another is still asking. These tests
// run that on both factories, on fake clientsets.

// TestConcurrentRequestsShareOneInformerLikeClientGo: eight parts of a
// program ask the factory for the pods and the config maps informers at the
// same moment, each on a goroutine of its own. client-go's InformerFor
// looks the type up and stores the new informer under one lock, so every
// part gets the same informer of each type, and Start runs one of each.
// Under -race (make test, and lab 07's check) an InformerFor without the
// lock is a data race as well.
func TestConcurrentRequestsShareOneInformerLikeClientGo(t *testing.T) {
	type outcome struct {
		Caches  map[string]int // distinct caches handed out, by kind
		Synced  map[string]bool
		Actions map[string]int
	}
	run := func(t *testing.T, newSide func(kubernetes.Interface, options) *side) (out outcome) {
		synctest.Test(t, func(t *testing.T) {
			client := fake.NewClientset(fakeObjects()...)
			s := newSide(client, options{})
			kinds := []string{"pods", "configmaps"}
			const parts = 8
			got := make([][]any, parts) // each part's caches, by kind
			var wg sync.WaitGroup
			ready := make(chan struct{})
			for part := range parts {
				wg.Go(func() {
					<-ready
					for _, kind := range kinds {
						got[part] = append(got[part], storeOf(s.informer(kind)))
					}
				})
			}
			close(ready)
			wg.Wait()
			out.Caches = map[string]int{}
			for i, kind := range kinds {
				distinct := map[any]bool{}
				for part := range parts {
					distinct[got[part][i]] = true
				}
				out.Caches[kind] = len(distinct)
			}

			ctx, cancel := context.WithCancel(context.Background())
			s.start(ctx)
			syncCtx, syncCancel := context.WithTimeout(ctx, time.Minute) // fake time
			out.Synced, _ = s.waitForCacheSync(syncCtx)
			syncCancel()
			synctest.Wait()
			out.Actions = fakeCounts(client)
			cancel()
			s.shutdown()
		})
		return out
	}
	theirs, ours := run(t, newClientGoSide), run(t, newOurSide)
	if theirs.Caches["pods"] != 1 || theirs.Actions["pods WATCH"] != 1 {
		t.Fatalf("client-go's factory did not hand out one pods informer, as the test expects: %+v", theirs)
	}
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("eight parts of a program ask for the same informers at once (-client-go +ours):\n%s", diff)
	}
}

// TestInformerForDuringAWaitMatchesClientGo: one part of a program waits
// for the factory's caches while another, still starting up, asks the
// factory for an informer. The pods informer can never sync (its LIST is
// refused), so the wait lasts until its context ends. client-go's wait
// copies the started informers under the lock and waits holding none: the
// second part gets its informer at once. Then the test ends the wait with
// a cause of its own, which the result reports (context.Cause, not
// ctx.Err()). On the real clock: the five seconds are only spent by a
// factory whose InformerFor waits for the wait.
func TestInformerForDuringAWaitMatchesClientGo(t *testing.T) {
	const patience = 5 * time.Second
	type outcome struct {
		// HandedOutDuringTheWait: the second part got its informer while
		// the wait went on (false: only after the test ended the wait,
		// patience later).
		HandedOutDuringTheWait bool
		// ReturnedBeforeItsContextEnded: the wait did not wait.
		ReturnedBeforeItsContextEnded bool
		Synced                        map[string]bool
		AsError                       string
	}
	run := func(newSide func(kubernetes.Interface, options) *side) (out outcome) {
		client := fake.NewClientset(fakeObjects()...)
		client.PrependReactor("list", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
			return true, nil, errors.New("refused by the test's reactor")
		})
		s := newSide(client, options{})
		s.informer("pods")
		ctx, cancel := context.WithCancel(context.Background())
		defer func() { cancel(); s.shutdown() }()
		s.start(ctx)

		waitCtx, endWait := context.WithCancelCause(ctx)
		watched := &doneWatcher{Context: waitCtx, asked: make(chan struct{})}
		waited := make(chan struct{})
		go func() {
			defer close(waited)
			out.Synced, out.AsError = s.waitForCacheSync(watched)
		}()
		select {
		case <-watched.asked: // the wait is under way: it watches its context
		case <-waited: // it returned without a look at its context
		}

		handedOut := make(chan struct{})
		go func() {
			s.informer("configmaps")
			close(handedOut)
		}()
		select {
		case <-handedOut:
			out.HandedOutDuringTheWait = true
		case <-time.After(patience):
		}
		select {
		case <-waited:
			out.ReturnedBeforeItsContextEnded = true
		default:
		}
		endWait(errors.New("the test ends the wait"))
		<-handedOut
		<-waited
		return out
	}
	theirs, ours := run(newClientGoSide), run(newOurSide)
	if !theirs.HandedOutDuringTheWait || theirs.ReturnedBeforeItsContextEnded {
		t.Fatalf("client-go's factory did not behave as the test expects: %+v", theirs)
	}
	if diff := cmp.Diff(theirs, ours); diff != "" {
		t.Errorf("one part of a program waits for the caches while another asks for an informer (-client-go +ours):\n%s", diff)
	}
	if !ours.HandedOutDuringTheWait && !ours.ReturnedBeforeItsContextEnded {
		t.Errorf("ours handed the informer out only once the test ended the wait, %v later: the wait held something InformerFor needs (the factory's lock?)", patience)
	}
}

// doneWatcher is a context that says, by closing asked, when Done is first
// called: a wait watches its context only once it is waiting.
type doneWatcher struct {
	context.Context
	once  sync.Once
	asked chan struct{}
}

func (w *doneWatcher) Done() <-chan struct{} {
	w.once.Do(func() { close(w.asked) })
	return w.Context.Done()
}
