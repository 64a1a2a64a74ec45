package processor_test

import (
	"context"
	"fmt"
	"sync"
	"time"

	testingclock "k8s.io/utils/clock/testing"

	processor "informer-from-scratch/05-processor"
)

// synced is a source that has already synced.
type synced struct{}

func (synced) Name() string { return "example source" }
func (synced) Done() <-chan struct{} {
	ch := make(chan struct{})
	close(ch)
	return ch
}

// waitAtMost waits for the handler calls counted in calls, for five seconds
// at most: when a broken rule means a call never comes, the example prints
// so and fails at once, instead of hanging until the test binary's timeout.
func waitAtMost(calls *sync.WaitGroup) {
	done := make(chan struct{})
	go func() {
		calls.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		fmt.Println("gave up: a handler call did not come within 5s")
	}
}

// A sync notification reaches only the listeners whose resync ShouldResync
// found due; an ordinary one reaches everyone. The clock is fake, so the
// example decides when two seconds have passed.
func ExampleSharedProcessor_ShouldResync() {
	clk := testingclock.NewFakeClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	p := processor.NewSharedProcessor(clk, processor.ProcessorOptions{})

	var mu sync.Mutex
	var calls sync.WaitGroup
	handler := func(name string) processor.ResourceEventHandler {
		return processor.ResourceEventHandlerFuncs{UpdateFunc: func(_, newObj any) {
			mu.Lock()
			fmt.Printf("%s: OnUpdate(%v)\n", name, newObj)
			mu.Unlock()
			calls.Done()
		}}
	}
	every2s, _ := processor.NewProcessListener(handler("every2s"), 2*time.Second, 2*time.Second, clk.Now(), processor.InitialBufferSize, synced{})
	never, _ := processor.NewProcessListener(handler("never"), 0, 0, clk.Now(), processor.InitialBufferSize, synced{})
	p.AddListener(every2s)
	p.AddListener(never)

	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { p.Run(ctx) })
	defer wg.Wait()
	defer cancel()

	clk.Step(time.Second)
	fmt.Println("after 1s, should resync:", p.ShouldResync())
	clk.Step(time.Second)
	fmt.Println("after 2s, should resync:", p.ShouldResync())

	calls.Add(1) // only every2s is due
	p.Distribute(processor.UpdateNotification{OldObj: "pod-a", NewObj: "pod-a"}, true)
	waitAtMost(&calls)

	calls.Add(2) // an ordinary update goes to both
	p.Distribute(processor.UpdateNotification{OldObj: "pod-a", NewObj: "pod-a v2"}, false)
	waitAtMost(&calls)
	// Unordered output:
	// after 1s, should resync: false
	// after 2s, should resync: true
	// every2s: OnUpdate(pod-a)
	// every2s: OnUpdate(pod-a v2)
	// never: OnUpdate(pod-a v2)
}
