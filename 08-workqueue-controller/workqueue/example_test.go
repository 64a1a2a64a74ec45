package workqueue_test

import (
	"fmt"
	"time"

	"informer-from-scratch/08-workqueue-controller/workqueue"
)

// The two sets at work: an item added twice is queued once; an item added
// while a worker holds it is not handed to anyone else, and comes back when
// the worker calls Done.
func ExampleTyped() {
	q := workqueue.NewTyped[string]()
	defer q.ShutDown()

	q.Add("default/web")
	q.Add("default/web") // already dirty: nothing changes
	fmt.Println("waiting after two Adds:", q.Len())

	key, _ := q.Get()
	q.Add(key) // dirty again while processing: held back
	fmt.Println("waiting while a worker holds it:", q.Len())

	q.Done(key) // re-queued now, for one more run
	fmt.Println("waiting after Done:", q.Len())

	// Output:
	// waiting after two Adds: 1
	// waiting while a worker holds it: 0
	// waiting after Done: 1
}

// The default controller limiter for one key that keeps failing: 5ms,
// doubling, capped at 1000s from the 19th retry; Forget starts it again.
func ExampleDefaultTypedControllerRateLimiter() {
	limiter := workqueue.DefaultTypedControllerRateLimiter[string]()
	for retry := 1; retry <= 20; retry++ {
		d := limiter.When("default/web")
		if retry <= 3 || retry >= 17 {
			fmt.Printf("retry %2d waits %v\n", retry, d)
		}
	}
	limiter.Forget("default/web")
	fmt.Println("after Forget:", limiter.When("default/web"))

	// Output:
	// retry  1 waits 5ms
	// retry  2 waits 10ms
	// retry  3 waits 20ms
	// retry 17 waits 5m27.68s
	// retry 18 waits 10m55.36s
	// retry 19 waits 16m40s
	// retry 20 waits 16m40s
	// after Forget: 5ms
}

// A worker's loop around a reconcile that fails twice, then succeeds: each
// failure is retried after the limiter's wait, the success is forgotten, and
// every Get is matched by a Done.
func ExampleTypedRateLimitingInterface() {
	q := workqueue.NewTypedRateLimitingQueue(workqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second))
	defer q.ShutDown()
	// Bounds, so that a regression makes this example fail with its output
	// rather than hang until go test times out: at most five rounds, and a
	// Get still waiting after ten seconds finds the queue shut down.
	guard := time.AfterFunc(10*time.Second, q.ShutDown)
	defer guard.Stop()

	failures := 2
	reconcile := func(key string) error {
		if failures > 0 {
			failures--
			return fmt.Errorf("%s: not yet", key)
		}
		return nil
	}

	q.Add("default/web")
	for round := 1; round <= 5 && (q.Len() > 0 || q.NumRequeues("default/web") > 0); round++ {
		key, shutdown := q.Get() // waits for a retry's delay to pass
		if shutdown {
			fmt.Println("no retry came within 10s")
			break
		}
		if err := reconcile(key); err != nil {
			q.AddRateLimited(key)
			fmt.Printf("%v; retry %d\n", err, q.NumRequeues(key))
		} else {
			q.Forget(key)
			fmt.Printf("%s: done, retries forgotten: %d\n", key, q.NumRequeues(key))
		}
		q.Done(key)
	}

	// Output:
	// default/web: not yet; retry 1
	// default/web: not yet; retry 2
	// default/web: done, retries forgotten: 0
}
