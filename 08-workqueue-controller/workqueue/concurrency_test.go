package workqueue

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	cgworkqueue "k8s.io/client-go/util/workqueue"
)

// The concurrency properties, checked on ours and, as a control that the
// checks themselves are right, on client-go's: many producers and workers,
// no item held by two workers at once, and no Add lost.

// workLog is what the workers and producers share. version counts the adds
// of each key, bumped before the Add call; a worker that Gets the key records
// the version it saw. When all is done, each key's last processing must have
// begun after its last add: seen == version. An Add the queue dropped, or
// merged into a processing that had already begun, leaves seen behind.
//
// An Add after shutdown is dropped by design, so workers stop adding before
// the test shuts the queue down: closed, under gate, says so.
type workLog struct {
	gate   sync.RWMutex
	closed bool

	mu        sync.Mutex
	inFlight  map[string]bool
	version   map[string]int
	seen      map[string]int
	processed int
	errs      []string
}

func newWorkLog() *workLog {
	return &workLog{inFlight: map[string]bool{}, version: map[string]int{}, seen: map[string]int{}}
}

// again has a worker add key once more, unless the test is about to shut
// the queue down.
func (w *workLog) again(key string, add func(string)) {
	w.gate.RLock()
	defer w.gate.RUnlock()
	if !w.closed {
		w.adding(key)
		add(key)
	}
}

// close stops the workers' adds; when it returns, none is under way.
func (w *workLog) close() {
	w.gate.Lock()
	defer w.gate.Unlock()
	w.closed = true
}

func (w *workLog) adding(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.version[key]++
}

func (w *workLog) start(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.inFlight[key] {
		w.errs = append(w.errs, key+" handed to a second worker while the first still held it")
	}
	w.inFlight[key] = true
	w.seen[key] = w.version[key]
	w.processed++
}

func (w *workLog) finish(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.inFlight, key)
}

// check returns what went wrong: items shared, adds lost, work left
// unfinished.
func (w *workLog) check() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	errs := w.errs
	for key, v := range w.version {
		if w.seen[key] != v {
			errs = append(errs, fmt.Sprintf("%s: added %d times, its last processing began after add %d", key, v, w.seen[key]))
		}
	}
	for key := range w.inFlight {
		errs = append(errs, key+" still in processing after the drain")
	}
	return errs
}

// implementations gives each test both queues, with a fast per-item backoff
// so retries come quickly.
var implementations = []struct {
	name string
	make func() queueUnderTest
}{
	{"client-go", func() queueUnderTest {
		return cgworkqueue.NewTypedRateLimitingQueue(cgworkqueue.NewTypedItemExponentialFailureRateLimiter[string](time.Microsecond, time.Millisecond))
	}},
	{"ours", func() queueUnderTest {
		return NewTypedRateLimitingQueue(NewTypedItemExponentialFailureRateLimiter[string](time.Microsecond, time.Millisecond))
	}},
}

// worker processes keys until Get says shutdown; with probability pAgain it
// adds the key again while holding it (the dirty-while-processing case), and
// retries it rate-limited with probability pRetry.
func worker(q queueUnderTest, log *workLog, pAgain, pRetry float64) {
	for {
		key, shutdown := q.Get()
		if shutdown {
			return
		}
		log.start(key)
		runtime.Gosched() // let others run while this key is held
		if rand.Float64() < pAgain {
			log.again(key, q.Add)
		}
		if rand.Float64() < pRetry {
			log.again(key, q.AddRateLimited)
		} else {
			q.Forget(key)
		}
		log.finish(key)
		q.Done(key)
	}
}

// runWorkload runs 8 workers and 8 producers on q; each producer adds n
// keys out of 50 with add. It returns once the producers are done; settle
// runs then (to let delayed adds come due), before the workers stop adding
// and the queue is drained with ShutDownWithDrain.
func runWorkload(q queueUnderTest, log *workLog, pAgain, pRetry float64, n int, add func(key string, i int), settle func()) {
	var workers, producers sync.WaitGroup
	for range 8 {
		workers.Go(func() { worker(q, log, pAgain, pRetry) })
	}
	for p := range 8 {
		producers.Go(func() {
			for i := range n {
				key := fmt.Sprintf("key-%d", (p*7+i)%50)
				log.adding(key)
				add(key, i)
			}
		})
	}
	producers.Wait()
	settle()
	log.close()
	q.ShutDownWithDrain()
	workers.Wait()
	q.ShutDown() // client-go's waiting loop outlives ShutDownWithDrain (TestShutDownWithDrainStopsTheWaitingLoop)
}

// TestManyWorkersOnTheRealClock: 8 producers Add 50 keys, 8 workers process
// them and add some again while holding them, on the real scheduler and
// clock; then ShutDownWithDrain. Get reports shutdown only once the queue is
// empty, so when the workers have all returned every add must have been
// processed. (Only Add here: on the real clock, a delayed item still waiting
// at shutdown is dropped by design. The bubble test below covers delays.)
func TestManyWorkersOnTheRealClock(t *testing.T) {
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			q, log := impl.make(), newWorkLog()
			runWorkload(q, log, 0.2, 0, 2000, func(key string, _ int) { q.Add(key) }, func() {})
			for _, e := range log.check() {
				t.Error(e)
			}
			if q.Len() != 0 {
				t.Errorf("%d items left in the queue", q.Len())
			}
			t.Logf("%d processings of 50 keys for %d adds", log.processed, 8*2000)
		})
	}
}

// TestManyWorkersWithRetriesInABubble: the same with AddAfter and
// AddRateLimited from producers, and rate-limited retries from workers, in a
// synctest bubble so the delays pass in fake time. After the producers
// finish, a one-second sleep lets every delayed add and retry chain come due
// (time moves only when all goroutines wait), so nothing is still waiting in
// the heap when the queue shuts down.
func TestManyWorkersWithRetriesInABubble(t *testing.T) {
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q, log := impl.make(), newWorkLog()
				add := func(key string, i int) {
					switch i % 3 {
					case 0:
						q.Add(key)
					case 1:
						q.AddAfter(key, time.Duration(rand.IntN(1000))*time.Microsecond)
					case 2:
						q.AddRateLimited(key)
					}
				}
				settle := func() {
					time.Sleep(time.Second) // every delay is at most 1ms; retry chains end long before
					synctest.Wait()
				}
				runWorkload(q, log, 0.1, 0.3, 500, add, settle)
				for _, e := range log.check() {
					t.Error(e)
				}
			})
		})
	}
}

// TestShutDownWithDrainWaitsForEveryItemInProcessing: three workers hold
// three keys; one of them is added again meanwhile. ShutDownWithDrain must
// not return before all three are Done, the re-added key must be handed out
// once more (to a worker still calling Get), and only then may Get report
// shutdown.
func TestShutDownWithDrainWaitsForEveryItemInProcessing(t *testing.T) {
	for _, impl := range implementations {
		t.Run(impl.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				q := impl.make()
				release := make(chan struct{})
				var mu sync.Mutex
				var done []string
				var workers sync.WaitGroup
				for range 3 {
					workers.Go(func() {
						for {
							key, shutdown := q.Get()
							if shutdown {
								return
							}
							<-release
							mu.Lock()
							done = append(done, key)
							mu.Unlock()
							q.Done(key)
						}
					})
				}
				for _, k := range []string{"a", "b", "c"} {
					q.Add(k)
				}
				synctest.Wait() // each worker holds one key
				q.Add("b")      // dirty while processing
				drained := make(chan struct{})
				go func() { q.ShutDownWithDrain(); close(drained) }()
				synctest.Wait()
				if isClosed(drained) {
					t.Fatal("ShutDownWithDrain returned while three keys were in processing")
				}
				close(release)
				workers.Wait()
				<-drained
				q.ShutDown() // client-go's waiting loop outlives ShutDownWithDrain
				slices.Sort(done)
				if got := fmt.Sprint(done); got != "[a b b c]" {
					t.Errorf("processed %s, want [a b b c]: the re-added key once more", got)
				}
			})
		})
	}
}
