package informer_test

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	informer "informer-from-scratch/06-sharedinformer"
)

// TestConcurrentRunsStartAnInformerOnce: two goroutines call Run on one
// informer at the same moment; exactly one may start it, and the other is
// refused and reported. When the started check and the start were two steps
// (HasStarted, then start under startedLock), both calls could pass the
// check: two controllers ran for one informer, and the second to sync
// closed the informer's synced channel again and crashed the process.
// client-go v0.37.2 has that race (sharedIndexInformer.RunWithContext).
//
// A fake clock cannot place two goroutines between two lock sections, so
// this is a stress test on the real clock: many informers, each with two
// Runs released together. The source blocks every call until the test ends
// the run, so a Run that got past the check is seen reaching the server
// (and nothing syncs, so the old race is a failure here, not a crash).
func TestConcurrentRunsStartAnInformerOnce(t *testing.T) {
	handled := captureHandledErrors(t) // also spares us HandleError's back-off sleeps
	// Before the fix, about one try in a hundred (a thousand under -race)
	// let both calls through. The time budget keeps a loaded machine from
	// making this slow; it still runs thousands of tries in a few seconds.
	const maxTries, budget = 3000, 5 * time.Second
	deadline := time.Now().Add(budget)
	tries, bothStarted := 0, 0
	for tries < maxTries && time.Now().Before(deadline) {
		tries++
		before := refusals(handled())
		started := runTwiceAtOnce(t)
		if started != 1 || refusals(handled()) != before+1 {
			bothStarted++
		}
	}
	t.Logf("%d tries", tries)
	if bothStarted > 0 {
		t.Errorf("in %d of %d tries, both of two concurrent Runs got past the started check (want one started, one refused as run more than once)", bothStarted, tries)
	}
}

// refusals counts the Runs reported as refused for running twice.
func refusals(handled []string) int {
	n := 0
	for _, msg := range handled {
		if strings.Contains(msg, "run more than once is not allowed") {
			n++
		}
	}
	return n
}

// runTwiceAtOnce starts two Runs of a new informer together and returns how
// many of them reached the server before the other returned.
func runTwiceAtOnce(t *testing.T) (started int) {
	t.Helper()
	reached := make(chan struct{}, 2)
	block := func(ctx context.Context) error {
		select {
		case reached <- struct{}{}:
		default: // a retry after the test counted: not a new Run
		}
		<-ctx.Done()
		return ctx.Err()
	}
	lw := &informer.ListWatch{
		ListWithContextFunc: func(ctx context.Context, _ metav1.ListOptions) (k8sruntime.Object, error) {
			return nil, block(ctx)
		},
		WatchFuncWithContext: func(ctx context.Context, _ metav1.ListOptions) (watch.Interface, error) {
			return nil, block(ctx)
		},
	}
	inf := informer.NewSharedIndexInformer(lw, &corev1.Pod{}, time.Minute, informer.Indexers{})

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	returned := make(chan struct{}, 2)
	var ready atomic.Int32
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			// A spinning barrier, not a channel: both goroutines are
			// on a CPU when they leave it, so the two calls overlap.
			// It yields after a while, for a machine with fewer free
			// CPUs than goroutines.
			ready.Add(1)
			for spins := 0; ready.Load() < 2; spins++ {
				if spins > 1_000_000 {
					runtime.Gosched()
				}
			}
			inf.RunWithContext(ctx)
			returned <- struct{}{}
		})
	}
	refused := 0
	for started+refused < 2 {
		select {
		case <-reached:
			started++
		case <-returned:
			refused++
		}
	}
	cancel()
	wg.Wait()
	return started
}
